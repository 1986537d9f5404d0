/**
 * Other versions of an open design: checkpoints and restored revisions (the revisions themselves are
 * stored by revisions.svelte.ts), alternatives started from it, and the key-design solver's proposals
 * opened as new designs; each comparison it starts is chosen on the Compare screen.
 */
import { duplicateDesign } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { designSourceKey, revisionSourceKey, type CompareState } from './compare.svelte.ts';
import type { Edit, OpenDocument } from './document.svelte.ts';
import type { Revision, Revisions } from './revisions.svelte.ts';
import type { WorkspaceView } from './view.svelte.ts';

/** What versions need of the workspace: the open designs, opening a new one and editing one. */
export interface VersionsHost {
  readonly documents: readonly OpenDocument[];
  readonly active: OpenDocument | undefined;
  add(design: Design): OpenDocument;
  edit(edit: Edit, coalesceKey?: string, target?: OpenDocument): void;
}

export class Versions {
  readonly #host: VersionsHost;
  readonly #view: WorkspaceView;
  readonly #revisions: Revisions;
  readonly #compare: CompareState;

  constructor(host: VersionsHost, parts: { view: WorkspaceView; revisions: Revisions; compare: CompareState }) {
    this.#host = host;
    this.#view = parts.view;
    this.#revisions = parts.revisions;
    this.#compare = parts.compare;
  }

  /** Keeps the active design as a named revision (a checkpoint), without saving it to a file. */
  async checkpoint(name: string): Promise<void> {
    const doc = this.#host.active;
    const label = name.trim();
    if (!doc || label === '') return;
    await this.#view.guard('Could not keep the checkpoint', async () => {
      await this.#revisions.record(doc.id, doc.design, label);
      this.#view.inform(`Checkpoint "${label}" kept.`);
    });
  }

  /**
   * Makes a revision's design the current one of its document, as one undoable edit, and records
   * that as a new revision ("Restored from …"): the design replaced is still in the undo stack.
   */
  async restoreRevision(revision: Revision): Promise<void> {
    const doc = this.#host.documents.find((d) => d.id === revision.documentId);
    if (!doc) return;
    const design = JSON.parse(JSON.stringify(revision.design)) as Design;
    this.#host.edit(() => design, undefined, doc);
    await this.#view.guard('Could not record the restore', async () => {
      await this.#revisions.record(doc.id, doc.design, `Restored from ${revision.label}`);
      this.#view.inform(`Restored "${revision.label}". Undo brings back the design it replaced.`);
    });
  }

  /** Compares the active design's current state with one of its revisions. */
  compareWithCurrent(revision: Revision): void {
    this.#compare.select([revisionSourceKey(revision.id), designSourceKey(revision.documentId)]);
    this.#view.show('compare');
  }

  /**
   * Starts a new, unsaved design from the active one ("<name> (alternative)"), opens it, and
   * chooses both for the Compare screen.
   */
  duplicateAsAlternative(): void {
    const original = this.#host.active;
    if (!original) return;
    const copy = this.#host.add(duplicateDesign(original.design, `${original.design.name} (alternative)`));
    this.#compare.select([designSourceKey(original.id), designSourceKey(copy.id)]);
    this.#view.inform(`"${copy.design.name}" is a new design started from "${original.title}"; both are chosen on the Compare screen.`);
  }

  /**
   * Opens a key-design proposal (a complete design the solver made from `original`) as a new,
   * unsaved document named `name`; `original` stays as it is. As an alternative, both are chosen on
   * the Compare screen, which is shown.
   */
  openProposal(original: OpenDocument, design: Design, name: string, as: 'newDesign' | 'alternative'): void {
    if (!this.#host.documents.includes(original)) return;
    const copy = this.#host.add(duplicateDesign(design, name));
    if (as === 'newDesign') {
      this.#view.inform(`"${name}" is a new design made from a proposal for "${original.title}", not saved to a file yet; "${original.title}" is unchanged.`);
      return;
    }
    this.#compare.select([designSourceKey(original.id), designSourceKey(copy.id)]);
    this.#view.show('compare');
    this.#view.inform(`"${name}" is a new design made from a proposal for "${original.title}"; both are chosen on the Compare screen.`);
  }
}
