/**
 * What the Compare screen compares: two or more sources (open designs, revisions of the active
 * design) and the report on them, its sides lettered A, B, C… with short labels of one kind.
 * Partition risk comes from the host's simulator (worker threads), run on request with one
 * workload and seed for every side, never on the UI thread.
 */
import {
  compareDesigns,
  shortSideLabels,
  type ComparisonReport,
  type ComparisonRow,
  type SideNaming,
} from '../../src-shared/compare/index.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { DEFAULT_WORKLOAD } from '../../src-shared/partition/index.ts';
import type { SimulationResult } from '../../src-shared/partition/index.ts';
import type { OpenDocument } from './document.svelte.ts';
import { revisionTime, type Revision, type Revisions } from './revisions.svelte.ts';

/** One thing that can be compared: `doc:<id>` for an open design, `rev:<id>` for a revision. */
export interface CompareSource {
  key: string;
  kind: 'design' | 'revision';
  /** As the list of sources shows it: the design's title, or `Saved shop.keyplan.json · 14:03:27`. */
  label: string;
  /** What it is in full, for the legend's tooltip. */
  description: string;
  /** The open document it is (a design) or belongs to (a revision). */
  documentId: string;
  /** What its short label is made of. */
  naming: SideNaming;
  design: Design;
}

export const designSourceKey = (documentId: string): string => `doc:${documentId}`;
export const revisionSourceKey = (revisionId: string): string => `rev:${revisionId}`;

export interface RiskRun {
  status: 'running' | 'done' | 'failed';
  /** The chosen designs (and workload) the run is for, to tell when it no longer applies. */
  key: string;
  done: number;
  total: number;
  error?: string;
  results?: Map<string, SimulationResult>[];
}

let riskCounter = 0;

export class CompareState {
  /** The chosen sources, in the order their columns appear. */
  selected = $state<string[]>([]);
  onlyDiffering = $state(false);
  /** The last partition-risk run. */
  risk = $state.raw<RiskRun | undefined>();
  /** The host runs of the partition risk on its way. */
  readonly #riskRuns = new Set<string>();
  /** Bumped by each run and cancel: a late answer of a replaced run changes nothing. */
  #riskGeneration = 0;

  readonly #documents: () => OpenDocument[];
  readonly #active: () => OpenDocument | undefined;
  readonly #revisions: Revisions;

  constructor(documents: () => OpenDocument[], active: () => OpenDocument | undefined, revisions: Revisions) {
    this.#documents = documents;
    this.#active = active;
    this.#revisions = revisions;
  }

  /** Every open design, then the revisions of the active one (newest first). */
  readonly sources: CompareSource[] = $derived.by(() => {
    const active = this.#active();
    return [
      ...this.#documents().map((d): CompareSource => ({
        key: designSourceKey(d.id),
        kind: 'design',
        label: d.title,
        description: d.fileName ? `${d.fileName}: design “${d.design.name}”${d.isDirty ? ', with unsaved changes' : ''}` : `design “${d.design.name}”, not saved to a file`,
        documentId: d.id,
        naming: { designName: d.design.name, fileName: d.fileName },
        design: d.design,
      })),
      ...this.#revisions.of(active?.id).map((r): CompareSource => ({
        key: revisionSourceKey(r.id),
        kind: 'revision',
        label: revisionLabel(r),
        description: `${revisionLabel(r)}: design “${r.design.name}”`,
        documentId: r.documentId,
        naming: revisionNaming(r, active?.fileName),
        design: r.design,
      })),
    ];
  });

  /** The chosen sources that still exist (a closed design drops out). */
  readonly chosen: CompareSource[] = $derived(this.selected.flatMap((k) => this.sources.find((s) => s.key === k) ?? []));

  /**
   * The short label of each chosen source, in column order: file names on every side, else design
   * names on every side; an open design compared with one of its revisions is its `current` state.
   */
  readonly chosenLabels: string[] = $derived.by(() => {
    const revisionOf = new Set(this.chosen.filter((s) => s.kind === 'revision').map((s) => s.documentId));
    return shortSideLabels(this.chosen.map((s) => ({ ...s.naming, isCurrent: s.kind === 'design' && revisionOf.has(s.documentId) })));
  });

  /** What a partition-risk run depends on: the chosen designs. */
  readonly #riskKey: string = $derived(JSON.stringify(this.chosen.map((s) => s.design)));

  /** Whether the shown partition risk is for the designs chosen now. */
  readonly hasCurrentRisk: boolean = $derived(this.risk?.status === 'done' && this.risk.key === this.#riskKey);

  /** The report, once two or more sources are chosen; an error text when a design cannot be costed. */
  readonly report: { ok: true; value: ComparisonReport } | { ok: false; error: string } | undefined = $derived.by(() => {
    if (this.chosen.length < 2) return undefined;
    const risk = this.hasCurrentRisk ? this.risk?.results : undefined;
    try {
      const designs = this.chosen.map((s, i) => ({ label: this.chosenLabels[i] ?? s.label, description: s.description, design: s.design }));
      return { ok: true, value: compareDesigns(designs, risk ? { simulations: risk, workload: this.#workload() } : { simulate: false }) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  });

  /** Every side runs the first design's workload (or one hour), as `keyplan compare` does. */
  #workload() {
    return this.chosen[0]?.design.workload ?? DEFAULT_WORKLOAD;
  }

  /**
   * Simulates every table of every chosen design in the host (worker threads, in parallel), with the
   * first design's workload and seed on each side, and adds partition risk to the report.
   */
  async runPartitionRisk(api: ApiClient): Promise<void> {
    // A new run replaces the one still on its way: its simulations stop in the host, not only here.
    await this.cancelPartitionRisk(api);
    const generation = ++this.#riskGeneration;
    const current = () => generation === this.#riskGeneration;
    const key = this.#riskKey;
    const workload = this.#workload();
    const jobs = this.chosen.flatMap((source, side) => source.design.tables.map((table) => ({ side, source, table })));
    this.risk = { status: 'running', key, done: 0, total: jobs.length };
    const results = this.chosen.map(() => new Map<string, SimulationResult>());
    try {
      await Promise.all(
        jobs.map(async ({ side, source, table }) => {
          const design = { ...source.design, workload };
          const runId = `cmp-${++riskCounter}`;
          this.#riskRuns.add(runId);
          const result = await api.call('simulation.run', { runId, design, tableId: table.id, seed: workload.seed }).finally(() => this.#riskRuns.delete(runId));
          results[side]!.set(table.id, result);
          if (current() && this.risk?.key === key) this.risk = { ...this.risk, done: this.risk.done + 1 };
        }),
      );
      if (current() && this.risk?.key === key) this.risk = { status: 'done', key, done: jobs.length, total: jobs.length, results };
    } catch (error) {
      if (current() && this.risk?.key === key) {
        this.risk = { status: 'failed', key, done: 0, total: jobs.length, error: error instanceof Error ? error.message : String(error) };
      }
    }
  }

  /** Stops the partition-risk simulations still running in the host. */
  async cancelPartitionRisk(api: ApiClient): Promise<void> {
    const runs = [...this.#riskRuns];
    this.#riskRuns.clear();
    this.#riskGeneration += 1;
    if (runs.length > 0 && this.risk?.status === 'running') this.risk = undefined;
    await Promise.all(runs.map((runId) => api.call('task.cancel', { runId }).catch(() => undefined)));
  }

  isSelected(key: string): boolean {
    return this.selected.includes(key);
  }

  toggle(key: string): void {
    this.selected = this.isSelected(key) ? this.selected.filter((k) => k !== key) : [...this.selected, key];
  }

  select(keys: string[]): void {
    this.selected = [...keys];
  }
}

/** `Saved shop.keyplan.json · 14:03:27`. */
export function revisionLabel(r: Revision): string {
  return `${r.label} · ${revisionTime(r.createdAt)}`;
}

/**
 * What a revision's short label is made of: the file it was saved to or read from (`Saved x`,
 * `On disk: x`), else its document's file; and what made it: saved, on disk, restored, or a
 * checkpoint by its name. The label is the one the workspace records.
 */
export function revisionNaming(r: Pick<Revision, 'label' | 'createdAt' | 'design'>, documentFileName: string | undefined): SideNaming {
  const saved = /^Saved (.+)$/.exec(r.label);
  const onDisk = /^On disk: (.+)$/.exec(r.label);
  const event = saved ? 'saved' : onDisk ? 'on disk' : r.label.startsWith('Restored from ') ? 'restored' : `checkpoint “${r.label}”`;
  return { designName: r.design.name, fileName: saved?.[1] ?? onDisk?.[1] ?? documentFileName, revision: { event, createdAt: r.createdAt } };
}

/** One thing the rows are about: a pattern, a table or index, the totals, a warning. */
export interface CompareSubject {
  title: string;
  /** `only in …` for a pattern or index some designs do not have. */
  note?: string;
  rows: ComparisonRow[];
}

/** A group of rows on the screen: access patterns, tables and indexes, totals, warnings. */
export interface CompareSection {
  id: 'patterns' | 'tables' | 'totals' | 'risk' | 'warnings';
  title: string;
  subjects: CompareSubject[];
}

const onlyIn = (present: boolean[], letters: string[]): string | undefined =>
  present.every(Boolean) ? undefined : `only in ${letters.filter((_, i) => present[i]).join(', ')}`;

/** The report grouped as the screen shows it; with `onlyDiffering`, rows (and subjects) where every design agrees are left out. */
export function compareSections(report: ComparisonReport, onlyDiffering: boolean): CompareSection[] {
  const labels = report.sides.map((s) => s.letter);
  const keep = (rows: ComparisonRow[]) => (onlyDiffering ? rows.filter((r) => r.differs) : rows);
  const subject = (title: string, rows: ComparisonRow[], note?: string): CompareSubject[] => {
    const kept = keep(rows);
    return kept.length === 0 ? [] : [{ title, rows: kept, ...(note ? { note } : {}) }];
  };
  return [
    {
      id: 'patterns',
      title: 'Access patterns',
      subjects: report.patterns.flatMap((p) => subject(p.name, p.rows, onlyIn(p.sides.map((s) => s !== null), labels))),
    },
    {
      id: 'tables',
      title: 'Tables and indexes',
      subjects: report.tables.flatMap((t) =>
        t.parts.flatMap((part) =>
          subject(part.kind === 'table' ? `Table ${t.name}` : `${t.name} · ${part.kind.toUpperCase()} ${part.name}`, part.rows, onlyIn(part.names.map((n) => n !== null), labels)),
        ),
      ),
    },
    { id: 'totals', title: 'Totals', subjects: subject('All tables', report.totals) },
    ...(report.partitionRisk
      ? [
          {
            id: 'risk' as const,
            title: 'Partition risk',
            subjects: [
              ...report.partitionRisk.targets.flatMap((t) => subject(t.target === 'table' ? `Table ${t.table}` : `${t.table} · GSI ${t.target}`, t.rows)),
              ...subject('Throttled requests per access pattern', report.partitionRisk.patterns),
            ],
          },
        ]
      : []),
    {
      id: 'warnings',
      title: 'Warnings only some designs have',
      subjects: report.warnings.flatMap((w) => subject(`${w.table} · ${w.code}`, [w])),
    },
  ];
}
