/**
 * The Raw JSON screen's state for one open design: the text in the editor, what it reads as, and the
 * two-way sync with the design.
 *
 * More on its rules: docs/modules.md, "src-renderer/state/raw-json.svelte.ts".
 */
import type { Design, Problem } from '../../src-shared/model/index.ts';
import { parseDesignStructure, validateDesign } from '../../src-shared/model/index.ts';
import type { OffsetMarker } from '../lib/monaco.ts';
import { locateJsonValues, rangeOfPath } from './json-locations.ts';

/** Typing pauses at least this long before an edit reaches the design (one undo step per burst). */
export const APPLY_DELAY_MS = 400;

/** What the editor's text reads as. */
export type TextReading =
  | { kind: 'syntax'; message: string }
  | { kind: 'structure'; problems: Problem[] }
  | { kind: 'design'; design: Design; problems: Problem[] };

/** The design as the editor shows it: two-space JSON and a final newline. */
export const designText = (design: Design): string => `${JSON.stringify(design, null, 2)}\n`;

/** Reads editor text as a design: JSON syntax, then structure, then the DynamoDB rules. */
export function readDesignText(text: string): TextReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'syntax', message: error instanceof Error ? error.message : String(error) };
  }
  const parsed = parseDesignStructure(value);
  if (!parsed.ok) return { kind: 'structure', problems: parsed.errors };
  return { kind: 'design', design: parsed.value, problems: validateDesign(parsed.value) };
}

/**
 * Keyplan's own markers for a reading. JSON syntax and schema shape are marked by Monaco's JSON
 * service from the same schema, so `model.schema` problems are not marked twice.
 */
export function problemMarkers(text: string, reading: TextReading): OffsetMarker[] {
  if (reading.kind === 'syntax') return [];
  const problems = reading.kind === 'structure' ? reading.problems.filter((p) => p.code !== 'model.schema') : reading.problems;
  if (problems.length === 0) return [];
  const locations = locateJsonValues(text);
  return problems.map((p) => ({ ...rangeOfPath(text, locations, p.path), message: p.message, severity: 'error' as const, source: p.code }));
}

export interface RawJsonSource {
  readonly id: string;
  readonly design: Design;
}

export class RawJsonEditing {
  /** The editor's text. */
  text = $state.raw('');
  /** The design changed elsewhere while the text held an invalid edit (which was kept). */
  isStale = $state(false);
  /** An edit waits for the pause in typing before it reaches the design. */
  isPending = $state(false);

  /**
   * The editor's scroll position, cursor and folding, kept while the screen is closed: opaque here, the
   * screen saves and restores it (not reactive, nothing displays it).
   */
  viewState: unknown = undefined;

  readonly reading: TextReading = $derived(readDesignText(this.text));
  readonly markers: OffsetMarker[] = $derived(problemMarkers(this.text, this.reading));

  readonly #doc: RawJsonSource;
  readonly #apply: (design: Design) => void;
  /** The design the text was made from or last produced; any other design came from elsewhere. */
  #known: Design;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(doc: RawJsonSource, apply: (design: Design) => void) {
    this.#doc = doc;
    this.#apply = apply;
    this.#known = doc.design;
    this.text = designText(doc.design);
  }

  /** Whether the text reads as a design that could be applied. */
  get isValid(): boolean {
    return this.reading.kind === 'design';
  }

  /** Whether the text differs from the design in a way "Show the current design" would undo. */
  get canRevert(): boolean {
    return this.isStale || this.reading.kind !== 'design';
  }

  /** The user changed the text (every keystroke). */
  edit(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.#cancel();
    if (this.reading.kind !== 'design') return;
    this.isPending = true;
    this.#timer = setTimeout(() => this.flush(), APPLY_DELAY_MS);
  }

  /** Applies a waiting valid edit now (the editor lost focus, the screen is closing). */
  flush(): void {
    const pending = this.isPending;
    this.#cancel();
    if (!pending || this.reading.kind !== 'design') return;
    const design = this.reading.design;
    this.#known = design;
    this.isStale = false;
    if (JSON.stringify(design) !== JSON.stringify(this.#doc.design)) this.#apply(design);
    // The document may hold a different object than `design` (an equal one): remember what it holds.
    this.#known = this.#doc.design;
  }

  /**
   * The design may have changed elsewhere: follow it, unless the text holds an invalid edit. Call it
   * whenever the document's design changes.
   */
  follow(): void {
    const design = this.#doc.design;
    if (design === this.#known) return;
    this.#known = design;
    if (this.reading.kind !== 'design') {
      this.isStale = true;
      return;
    }
    this.#cancel();
    this.isStale = false;
    this.text = designText(design);
  }

  /** Drops the text and shows the current design again. */
  revert(): void {
    this.#cancel();
    this.#known = this.#doc.design;
    this.isStale = false;
    this.text = designText(this.#doc.design);
  }

  /** Stops a waiting edit from being applied (the document is closing). */
  dispose(): void {
    this.#cancel();
  }

  #cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.isPending = false;
  }
}
