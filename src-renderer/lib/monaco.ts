/// <reference types="vite/client" />
/**
 * Monaco, set up once: the lean editor API (`monaco-editor/editor`) with the editor contributions and
 * only the languages Keyplan uses, its two web workers, and the design's JSON Schema. This module is heavy
 * (several MB); import it only through `loadMonaco()` in `monaco-loader.ts`, so start-up never pays for it.
 *
 * Monaco 0.56+ moved the JSON language API to its own entry (`monaco.json.jsonDefaults` in the full
 * bundle, `languages/features/json/register` here) and split features into `features/<name>/register`.
 */
import * as monaco from 'monaco-editor/editor';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/languages/definitions/hcl/register';
import 'monaco-editor/languages/definitions/typescript/register';
import 'monaco-editor/languages/definitions/markdown/register';
import 'monaco-editor/languages/definitions/html/register';
// Every editor contribution, registered before the first editor exists. The JSON language's worker
// manager (`languages/features/json`, loaded by Monaco when the first JSON model appears) imports this
// same module; arriving after the first editor, its contributions (CodeLens, drop/paste, …) found their
// services missing and every later editor threw "depends on UNKNOWN service ICodeLensCache" /
// "treeViewsDndService". Loaded here first, the services are part of the set the first editor seals.
import 'monaco-editor/internal/common/workers';
// Vite's `?worker` imports (the reference at the top types them wherever this module is reached from).
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import { designJsonSchema } from '../../src-shared/model/index.ts';

export { monaco };
export type MonacoEditor = monaco.editor.IStandaloneCodeEditor;
export type MonacoModel = monaco.editor.ITextModel;

/** Design models are named `…/<document id>.keyplan.json`; the schema applies to exactly those. */
export const DESIGN_MODEL_GLOB = '*.keyplan.json';
const DESIGN_SCHEMA_URI = 'https://keyplan.dev/schema/design.json';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  trailingCommas: 'error',
  comments: 'error',
  enableSchemaRequest: false,
  schemaValidation: 'error',
  schemas: [{ uri: DESIGN_SCHEMA_URI, fileMatch: [DESIGN_MODEL_GLOB], schema: designJsonSchema }],
});

// Editors follow the page's theme (`<html data-theme>`, set by state/theme.svelte.ts), on the panel colour of app.css.
monaco.editor.defineTheme('keyplan-light', { base: 'vs', inherit: true, rules: [], colors: { 'editor.background': '#ffffff' } });
monaco.editor.defineTheme('keyplan-dark', { base: 'vs-dark', inherit: true, rules: [], colors: { 'editor.background': '#1b2027', 'editorLineNumber.foreground': '#9aa3ad' } });
const followPageTheme = () => monaco.editor.setTheme(document.documentElement.dataset.theme === 'dark' ? 'keyplan-dark' : 'keyplan-light');
followPageTheme();
new MutationObserver(followPageTheme).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });

/** The URI of the model that holds a design's JSON (matched by the schema's file glob). */
export function designModelUri(documentId: string): monaco.Uri {
  return monaco.Uri.parse(`keyplan://design/${encodeURIComponent(documentId)}.keyplan.json`);
}

const COMMON_OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  fontSize: 13,
  tabSize: 2,
  scrollBeyondLastLine: false,
  fixedOverflowWidgets: true,
  renderLineHighlight: 'line',
};

/** An editable JSON editor over `model`, for the Raw JSON screen. */
export function createJsonEditor(container: HTMLElement, model: MonacoModel, ariaLabel: string): MonacoEditor {
  return monaco.editor.create(container, { ...COMMON_OPTIONS, model, ariaLabel, formatOnPaste: false, quickSuggestions: { strings: true, other: true, comments: false } });
}

/**
 * Ctrl/Cmd+K in the editor runs `run` (the command palette), as everywhere else in the window. Monaco
 * would otherwise take it as the start of its own chords (Ctrl+K Ctrl+0 folds all, …).
 */
export function addPaletteKey(editor: MonacoEditor, run: () => void): void {
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyK, run);
}

/** A read-only, highlighted preview (the export dialog). `language`: a Monaco language id. */
export function createPreview(container: HTMLElement, ariaLabel: string): MonacoEditor {
  return monaco.editor.create(container, {
    ...COMMON_OPTIONS,
    value: '',
    language: 'plaintext',
    readOnly: true,
    domReadOnly: true,
    ariaLabel,
    folding: true,
    lineNumbersMinChars: 3,
  });
}

/** Shows `text` in a preview editor, highlighted as `language`. */
export function showInPreview(editor: MonacoEditor, text: string, language: string): void {
  const model = editor.getModel();
  if (!model) return;
  if (model.getLanguageId() !== language) monaco.editor.setModelLanguage(model, language);
  if (model.getValue() !== text) {
    model.setValue(text);
    editor.setScrollTop(0);
  }
}

/** A marker at character offsets of a model's text. */
export interface OffsetMarker {
  start: number;
  end: number;
  message: string;
  severity: 'error' | 'warning';
  /** Shown after the message, e.g. the problem code. */
  source?: string;
}

/** Replaces the markers `owner` keeps on `model`. */
export function setOffsetMarkers(model: MonacoModel, owner: string, markers: readonly OffsetMarker[]): void {
  monaco.editor.setModelMarkers(
    model,
    owner,
    markers.map((m) => {
      const start = model.getPositionAt(m.start);
      const end = model.getPositionAt(Math.max(m.end, m.start + 1));
      return {
        startLineNumber: start.lineNumber,
        startColumn: start.column,
        endLineNumber: end.lineNumber,
        endColumn: end.column,
        message: m.message,
        severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        ...(m.source !== undefined ? { source: m.source } : {}),
      };
    }),
  );
}

/** A marker as the UI lists it under the editor. */
export interface ListedMarker {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning' | 'info';
  owner: string;
}

/** Every marker on `model` (all owners: JSON syntax and schema, and Keyplan's rules), in text order. */
export function markersOf(model: MonacoModel): ListedMarker[] {
  return monaco.editor
    .getModelMarkers({ resource: model.uri })
    .map((m) => ({
      line: m.startLineNumber,
      column: m.startColumn,
      message: m.message,
      severity: m.severity >= monaco.MarkerSeverity.Error ? ('error' as const) : m.severity >= monaco.MarkerSeverity.Warning ? ('warning' as const) : ('info' as const),
      owner: m.owner,
    }))
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Calls `listener` whenever the markers on `model` change. */
export function onMarkersChanged(model: MonacoModel, listener: () => void): monaco.IDisposable {
  const uri = model.uri.toString();
  return monaco.editor.onDidChangeMarkers((uris) => {
    if (uris.some((u) => u.toString() === uri)) listener();
  });
}

/**
 * The model for a design's JSON, created on first use and kept while the document is open (editors
 * come and go with the screen; the model keeps the text's own undo stack). See `disposeDesignModel`.
 */
export function designModel(documentId: string, text: string): MonacoModel {
  const uri = designModelUri(documentId);
  return monaco.editor.getModel(uri) ?? monaco.editor.createModel(text, 'json', uri);
}

/** Disposes the design model of a document (it was closed), with its text and undo stack. */
export function disposeDesignModel(documentId: string): void {
  monaco.editor.getModel(designModelUri(documentId))?.dispose();
}

/** The editor's scroll position, selections and folding, to restore in a later editor over the same model. */
export function saveViewState(editor: MonacoEditor): unknown {
  return editor.saveViewState() ?? undefined;
}

export function restoreViewState(editor: MonacoEditor, state: unknown): void {
  if (state) editor.restoreViewState(state as monaco.editor.ICodeEditorViewState);
}

/** Replaces a model's whole text as one edit the editor's own undo can step back over. */
export function replaceText(editor: MonacoEditor, model: MonacoModel, text: string): void {
  if (model.getValue() === text) return;
  const selections = editor.getSelections();
  model.pushEditOperations(selections ?? [], [{ range: model.getFullModelRange(), text }], () => selections);
  model.pushStackElement();
}
