/**
 * One open design: its current snapshot, the undo and redo stacks, its file, and whether it has
 * edits not yet saved. Every change is a pure edit from `src-shared/model/edits.ts` applied here.
 */
import type { Design } from '../../src-shared/model/schema.ts';
import type { Problem } from '../../src-shared/model/problems.ts';
import { validateDesign } from '../../src-shared/model/validate.ts';
import { costDesign, type DesignCost } from '../../src-shared/costing/index.ts';

const MAX_UNDO = 500;

export type Edit = (design: Design) => Design;

export class OpenDocument {
  readonly id: string;
  design = $state.raw<Design>() as Design;
  fileRef = $state<string | undefined>();
  fileName = $state<string | undefined>();
  /** JSON of the design as last opened or saved; undefined for a design never saved. */
  savedJson = $state<string | undefined>();
  canUndo = $state(false);
  canRedo = $state(false);

  readonly problems: Problem[] = $derived(validateDesign(this.design));
  readonly isDirty: boolean = $derived(JSON.stringify(this.design) !== this.savedJson);
  /** Plans and costs of every pattern, recomputed at each edit; an error while the design is half-made. */
  readonly costs: { ok: true; value: DesignCost } | { ok: false; error: string } = $derived.by(() => {
    try {
      return { ok: true, value: costDesign(this.design) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  });

  #past: Design[] = [];
  #future: Design[] = [];
  #lastEditKey: string | undefined;
  readonly #onchange: (doc: OpenDocument) => void;

  constructor(init: {
    id: string;
    design: Design;
    fileRef?: string | undefined;
    fileName?: string | undefined;
    savedJson?: string | undefined;
    onchange: (doc: OpenDocument) => void;
  }) {
    this.id = init.id;
    this.design = init.design;
    this.fileRef = init.fileRef;
    this.fileName = init.fileName;
    this.savedJson = init.savedJson;
    this.#onchange = init.onchange;
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
    const next = edit(this.design);
    if (next === this.design) return;
    const merge = coalesceKey !== undefined && this.#lastEditKey === coalesceKey && this.#past.length > 0;
    if (!merge) {
      this.#past.push(this.design);
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
    const previous = this.#past.pop();
    if (!previous) return;
    this.#future.push(this.design);
    this.#lastEditKey = undefined;
    this.#set(previous);
  }

  redo(): void {
    const next = this.#future.pop();
    if (!next) return;
    this.#past.push(this.design);
    this.#lastEditKey = undefined;
    this.#set(next);
  }

  /** Records that the current design is what is on disk under `fileRef`. */
  markSaved(fileRef: string, fileName: string): void {
    this.fileRef = fileRef;
    this.fileName = fileName;
    this.savedJson = JSON.stringify(this.design);
    this.#onchange(this);
  }

  #set(design: Design): void {
    this.design = design;
    this.canUndo = this.#past.length > 0;
    this.canRedo = this.#future.length > 0;
    this.#onchange(this);
  }
}
