/**
 * One open design: its current snapshot, the undo and redo stacks, its file, and whether it has
 * edits not yet saved. Every change is a pure edit from `src-shared/model/edits.ts` applied here.
 */
import type { Design, Problem } from '../../src-shared/model/index.ts';
import { validateDesign } from '../../src-shared/model/index.ts';
import { createCostCache, type DesignCost } from '../../src-shared/costing/index.ts';
import type { FileVersion } from '../../src-shared/ipc/index.ts';
import { impliedHottestKeyShare, type HottestKeyShare } from '../../src-shared/partition/index.ts';

const MAX_UNDO = 500;

export type Edit = (design: Design) => Design;

/** One design of the undo or redo stack; `seq` names it in storage (each push gets a new one). */
export interface HistoryStep {
  seq: number;
  design: Design;
}

/** The undo and redo stacks, oldest first: what survives a reload. */
export interface History {
  past: HistoryStep[];
  future: HistoryStep[];
}

/** What changed on disk under the document's file since it was opened or saved. */
export interface DiskChange {
  /** The version now on disk; null when the file was moved or deleted, or cannot be reached. */
  version: FileVersion | null;
  /** Why the file cannot be reached any more (the host's message), when that is the change. */
  problem?: string;
}

export class OpenDocument {
  readonly id: string;
  design = $state.raw<Design>() as Design;
  fileRef = $state<string | undefined>();
  fileName = $state<string | undefined>();
  /** JSON of the design as last opened or saved; undefined for a design never saved. */
  savedJson = $state<string | undefined>();
  /** The file's version as last opened or saved: what a save expects to find on disk. */
  fileVersion = $state.raw<FileVersion | undefined>();
  /** Set when the file changed on disk since (another window or program); cleared on reload, save or dismiss. */
  diskChange = $state.raw<DiskChange | undefined>();
  /** Another window edits this document; here it follows that window's edits and cannot be edited. */
  readOnly = $state(false);
  canUndo = $state(false);
  canRedo = $state(false);

  readonly problems: Problem[] = $derived(validateDesign(this.design));
  readonly isDirty: boolean = $derived(JSON.stringify(this.design) !== this.savedJson);
  /** Keeps each pattern's plan and cost between edits: an edit re-costs only the patterns it touched. */
  readonly #costCache = createCostCache();
  /** Plans and costs of every pattern, brought up to date at each edit; an error while the design is half-made. */
  readonly costs: { ok: true; value: DesignCost } | { ok: false; error: string } = $derived.by(() => {
    try {
      return { ok: true, value: this.#costCache.costDesign(this.design) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  });

  /**
   * The hottest key of a pattern's requests and its share without its stated `hotKeyShare`: the
   * default the pattern editor shows (docs/traffic.md). Undefined while the design cannot be costed
   * (the costs say why) or the pattern reaches no key.
   */
  hottestKeyShare(tableId: string, patternId: string): HottestKeyShare | undefined {
    const table = this.design.tables.find((t) => t.id === tableId);
    const pattern = table?.accessPatterns.find((p) => p.id === patternId);
    const costs = this.costs;
    if (!table || !pattern || !costs.ok) return undefined;
    const cost = costs.value.tables.find((t) => t.tableId === tableId)?.patterns.find((p) => p.patternId === patternId);
    // What decides it: the table without its other patterns (keys, indexes, entities), the pattern
    // without its name and notes, and its plan's target. Typing a name does not place the keys again.
    const { name: _name, notes: _notes, ...asked } = pattern;
    const key = JSON.stringify([{ ...table, accessPatterns: [] }, asked, this.design.pricing, cost?.plan.target, cost?.plan.operation]);
    if (this.#hottest?.key !== key) this.#hottest = { key, value: impliedHottestKeyShare(this.design, table, patternId, cost) };
    return this.#hottest.value;
  }
  #hottest: { key: string; value: HottestKeyShare | undefined } | undefined;

  #past: HistoryStep[] = [];
  #future: HistoryStep[] = [];
  #nextSeq = 1;
  #lastEditKey: string | undefined;
  readonly #onchange: (doc: OpenDocument) => void;

  constructor(init: {
    id: string;
    design: Design;
    fileRef?: string | undefined;
    fileName?: string | undefined;
    savedJson?: string | undefined;
    fileVersion?: FileVersion | undefined;
    history?: History | undefined;
    readOnly?: boolean;
    onchange: (doc: OpenDocument) => void;
  }) {
    this.id = init.id;
    this.design = init.design;
    this.fileRef = init.fileRef;
    this.fileName = init.fileName;
    this.savedJson = init.savedJson;
    this.fileVersion = init.fileVersion;
    this.readOnly = init.readOnly ?? false;
    this.#onchange = init.onchange;
    if (init.history) {
      this.#past = init.history.past.slice(-MAX_UNDO);
      this.#future = init.history.future.slice(-MAX_UNDO);
      this.#nextSeq = Math.max(0, ...this.#past.map((s) => s.seq), ...this.#future.map((s) => s.seq)) + 1;
      this.canUndo = this.#past.length > 0;
      this.canRedo = this.#future.length > 0;
    }
  }

  /** The undo and redo stacks as they are now (the arrays are copies; the steps are shared, never changed). */
  get history(): History {
    return { past: [...this.#past], future: [...this.#future] };
  }

  /** The name shown in the tab and title bar. */
  get title(): string {
    return this.fileName ?? this.design.name;
  }

  /**
   * Applies an edit as one undo step. Consecutive edits with the same `coalesceKey` (keystrokes in
   * one field) merge into a single step until `endCoalescing` (the field loses focus).
   */
  apply(edit: Edit, coalesceKey?: string): void {
    if (this.readOnly) return;
    const next = edit(this.design);
    if (next === this.design) return;
    const merge = coalesceKey !== undefined && this.#lastEditKey === coalesceKey && this.#past.length > 0;
    if (!merge) {
      this.#past.push(this.#step(this.design));
      if (this.#past.length > MAX_UNDO) this.#past.shift();
    }
    this.#lastEditKey = coalesceKey;
    this.#future = [];
    this.#set(next);
  }

  /** The next edit starts a new undo step, whatever its key (called when a field loses focus). */
  endCoalescing(): void {
    this.#lastEditKey = undefined;
  }

  undo(): void {
    if (this.readOnly) return;
    const previous = this.#past.pop();
    if (!previous) return;
    this.#future.push(this.#step(this.design));
    this.#lastEditKey = undefined;
    this.#set(previous.design);
  }

  redo(): void {
    if (this.readOnly) return;
    const next = this.#future.pop();
    if (!next) return;
    this.#past.push(this.#step(this.design));
    this.#lastEditKey = undefined;
    this.#set(next.design);
  }

  /** Records that the current design is what is on disk under `fileRef`, as `version`. */
  markSaved(fileRef: string, fileName: string, version?: FileVersion): void {
    this.fileRef = fileRef;
    this.fileName = fileName;
    this.savedJson = JSON.stringify(this.design);
    this.fileVersion = version;
    this.diskChange = undefined;
    this.#onchange(this);
  }

  /**
   * Follows the window that edits this document (read-only here): takes its design and file state
   * as stored, without an undo step and without storing anything.
   */
  follow(state: { design: Design; fileRef?: string | undefined; fileName?: string | undefined; savedJson?: string | undefined; fileVersion?: FileVersion | undefined }): void {
    this.design = state.design;
    this.fileRef = state.fileRef;
    this.fileName = state.fileName;
    this.savedJson = state.savedJson;
    this.fileVersion = state.fileVersion;
  }

  /** Edits here again (this window took the document over), from the stored state and history. */
  resume(history: History | undefined): void {
    this.readOnly = false;
    this.#past = history?.past.slice(-MAX_UNDO) ?? [];
    this.#future = history?.future.slice(-MAX_UNDO) ?? [];
    this.#nextSeq = Math.max(this.#nextSeq - 1, ...this.#past.map((s) => s.seq), ...this.#future.map((s) => s.seq)) + 1;
    this.#lastEditKey = undefined;
    this.canUndo = this.#past.length > 0;
    this.canRedo = this.#future.length > 0;
  }

  #step(design: Design): HistoryStep {
    return { seq: this.#nextSeq++, design };
  }

  #set(design: Design): void {
    this.design = design;
    this.canUndo = this.#past.length > 0;
    this.canRedo = this.#future.length > 0;
    this.#onchange(this);
  }
}
