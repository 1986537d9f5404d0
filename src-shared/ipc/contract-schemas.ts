/**
 * The contract's schemas: every channel's input and output, and every event's payload, as TypeBox
 * schemas. `contract.ts` derives the TypeScript types from them (`Static`); `dispatchRequest` checks
 * every input against them (`validate.ts`, compiled once).
 *
 * More on its rules: docs/modules.md, "src-shared/ipc/contract-schemas.ts".
 */
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { Design } from '../model/index.ts';
import type { SimulationResult } from '../partition/index.ts';
import type { SampleRow, SampleSummary } from '../sample/index.ts';
import type { RunReport } from '../run/index.ts';
import type { SolveResult } from '../solver/index.ts';

/** An object schema that refuses fields it does not name: an unknown field is a caller's mistake. */
const strict = <P extends TProperties>(properties: P, description?: string): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...(description === undefined ? {} : { description }) });

/**
 * Any JSON object at runtime, typed `T`: for data another module owns and checks in depth (a design
 * goes through `checkDesign`; a simulation result is built by the simulator), so the contract does
 * not keep a second, drifting copy of its shape.
 */
const checkedElsewhere = <T>(description: string) => Type.Unsafe<T>(Type.Object({}, { description }));

/** The input of a channel that takes none: `{}`, typed so that no field can be passed. */
const NoInput = Type.Unsafe<Record<string, never>>(strict({}, 'No fields.'));

/** A file as the host names it: an opaque reference it handed out (see `contract.ts`). */
export const FileRef = Type.String({ description: 'A file reference the host handed out.' });

const DesignData = checkedElsewhere<Design>('A design: checked in depth by the handler (file.invalidDesign with every problem).');

/** What kind of host this is (`app.info`). */
export const HostInfo = strict({
  /** `electron`: native dialogs and menu. `browser`: the UI in a browser, files inside a workspace folder. */
  mode: Type.Union([Type.Literal('electron'), Type.Literal('browser')]),
  version: Type.String(),
  /** Browser mode: the folder files are confined to, for display. */
  workspaceDir: Type.Optional(Type.String()),
  platform: Type.String(),
});

/** A design file in the browser-mode workspace (`file.list`). */
export const FileEntry = strict({
  ref: FileRef,
  name: Type.String(),
  sizeBytes: Type.Integer({ minimum: 0 }),
  modifiedAt: Type.String(),
});

/**
 * Which bytes of a file an editor holds: the modification time and a SHA-256 of the content. A save
 * that names the version it started from is refused with `file.changed` when the file differs.
 */
export const FileVersion = strict(
  {
    mtimeMs: Type.Number(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', expected: '64 lowercase hex digits' }),
  },
  'A file version {mtimeMs, sha256}.',
);

/**
 * The kinds of warning a call that succeeded may carry. `recent.notUpdated`: the file was opened or
 * written, but the recent files list could not be written (a full disk, an unwritable data folder).
 */
export const WARNING_CODES = ['recent.notUpdated'] as const;

/**
 * Something that went wrong beside a call's own work, which is done: the UI shows it without
 * blocking. `message` names the file and what failed.
 */
export const HostWarning = strict({
  code: Type.Union(WARNING_CODES.map((c) => Type.Literal(c))),
  message: Type.String(),
});

/** The warnings of a call that succeeded; absent when there are none. */
const Warnings = Type.Optional(Type.Array(HostWarning));

/** A design file read (`file.open`, `file.openDialog`). */
export const OpenedFile = strict({
  ref: FileRef,
  name: Type.String(),
  design: DesignData,
  /** The version read: what `file.save`'s `expected` names. */
  version: FileVersion,
  /** Set when the file was written by an older format version and migrated on open. */
  migratedFrom: Type.Optional(Type.Integer()),
  /** What went wrong beside the open (the recent list not updated); the file is open all the same. */
  warnings: Warnings,
});

/** A file written (`file.save`, `file.saveAs`, `file.export`). */
export const SavedFile = strict({
  ref: FileRef,
  name: Type.String(),
  savedAt: Type.String(),
  /** Where the previous version was kept, if there was one. */
  backupRef: Type.Optional(FileRef),
  /** The version written (design saves; exports have none). */
  version: Type.Optional(FileVersion),
  /** What went wrong after the file was written (the recent list not updated); the file is saved all the same. */
  warnings: Warnings,
});

/** A file of the recent list. */
export const RecentFile = strict({ ref: FileRef, name: Type.String(), openedAt: Type.String() });

/** A shipped example design (`examples.list`). */
export const ExampleInfo = strict({ id: Type.String(), name: Type.String(), description: Type.String() });

/** Commands the host sends to the window (application menu, OS file association). */
export const MenuCommand = Type.Union(
  (['new', 'open', 'save', 'saveAs', 'import', 'export', 'undo', 'redo'] as const).map((c) => Type.Literal(c)),
);

/** A document id is an opaque key the UI picks (`doc-…` today); anything much longer is a mistake or abuse. */
export const MAX_DOCUMENT_ID_LENGTH = 200;

/** The fields `sample.generate`, `simulation.run` and `solver.run` share. */
const taskFields = {
  /** The caller's name for the run: its `task.progress` events and `task.cancel` use it. */
  runId: Type.String(),
  design: DesignData,
  /** The table to run on: the handler refuses (`ipc.badInput`, path `tableId`) an id the design lacks. */
  tableId: Type.String(),
  seed: Type.Optional(Type.Number()),
  /** The document the task is for: a newer task of the same kind for it cancels this one. */
  documentId: Type.Optional(Type.String({ maxLength: MAX_DOCUMENT_ID_LENGTH })),
};

/** Where a run happens (`run.*`); see `EngineChoice` in `src-shared/run/types.ts`. */
export const EngineChoice = Type.Union([
  strict({ kind: Type.Literal('embedded') }, 'The embedded engine (dynalite, started by the host).'),
  strict(
    { kind: Type.Literal('local'), endpoint: Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 500, expected: 'an http:// or https:// URL' }) },
    'An endpoint the user runs, such as DynamoDB Local.',
  ),
  strict(
    {
      kind: Type.Literal('aws'),
      region: Type.String({ pattern: '^[a-z]{2}(-[a-z]+)+-\\d+$', maxLength: 40, expected: 'an AWS region such as us-east-1' }),
      profile: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    },
    'An AWS account: a region and a named profile of the AWS config.',
  ),
]);

/** Where a run goes, as the host found it: what the AWS confirmation names. No credential ever crosses. */
export const EngineIdentity = strict({
  /** `Embedded engine (dynalite 4)`, `DynamoDB Local at http://localhost:8000`, `AWS account 123456789012, eu-west-1`. */
  label: Type.String(),
  endpoint: Type.Optional(Type.String()),
  region: Type.Optional(Type.String()),
  /** AWS: the account the credentials belong to (STS GetCallerIdentity). */
  account: Type.Optional(Type.String()),
  /** AWS: the caller's ARN, so the user sees which role or user runs. */
  arn: Type.Optional(Type.String()),
});

/** A table an earlier run created and could not remove (the app quit, the engine went away). */
export const LeftoverTable = strict({
  name: Type.String(),
  engine: EngineChoice,
  /** The engine as the run named it. */
  engineLabel: Type.String(),
  createdAt: Type.String(),
});

/**
 * Most proposals one `solver.run` returns: each finalist is checked by the partition simulator, so
 * the count bounds the run's time.
 */
export const MAX_SOLVER_PROPOSALS = 10;
/** Most GSIs a proposal may use: DynamoDB's default quota of GSIs per table (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#gsi-limits). */
export const MAX_SOLVER_GSIS = 20;

/** Largest number of sample items per entity a run loads, and of calls per pattern. */
export const MAX_RUN_ITEMS_PER_ENTITY = 1000;
export const MAX_RUN_REPEAT = 100;

/**
 * Every channel's input and output schema. The TSDoc of an entry is the channel's documentation:
 * what it does and its error codes (every channel may also answer `ipc.badInput`).
 */
export const contract = {
  /** What kind of host this is. */
  'app.info': { input: NoInput, output: HostInfo },
  /** Browser mode: the `*.keyplan.json` files in the workspace folder. Electron: an empty list. */
  'file.list': { input: NoInput, output: strict({ files: Type.Array(FileEntry) }) },
  /**
   * Opens a design file and puts it first in the recent files (a list that cannot be written is a
   * `recent.notUpdated` warning; the file opens all the same). Errors: `file.notFound`, `file.notUtf8`
   * (details: byte offset, line, column), `file.notJson`, `file.notDesign`, `file.unsupportedVersion`,
   * `file.invalidDesign` (details: Problem[]), `file.outsideWorkspace`.
   */
  'file.open': { input: strict({ ref: FileRef }), output: OpenedFile },
  /** Electron: the native open dialog, then `file.open`. Error `file.canceled` when the user cancels. */
  'file.openDialog': { input: NoInput, output: OpenedFile },
  /**
   * Writes the design atomically over `ref`, keeping the previous version as `<name>.bak`. With
   * `expected` (the version the editor opened or last saved), the save is refused with `file.changed`
   * (details: `{ version }`, the version on disk, or `{ version: null }` when the file is gone) when
   * the file on disk is not that version: another window or program changed it. Saves of one file
   * run one after another by its real path (a link to it and the file are one file), so of two saves
   * from one version the second is refused. A file with no write permission is refused with
   * `file.readOnly` (details: `{ mode }`), nothing written. The answer is the save's outcome: the
   * recent files list failing afterwards is a `recent.notUpdated` warning, not an error.
   */
  'file.save': {
    input: strict({ ref: FileRef, design: DesignData, expected: Type.Optional(FileVersion) }),
    output: SavedFile,
  },
  /** The version of `ref` on disk now, or null when it no longer exists: how editors notice outside changes. */
  'file.version': {
    input: strict({ ref: FileRef }),
    output: strict({ version: Type.Union([FileVersion, Type.Null()]) }),
  },
  /**
   * Saves under a new name. Browser mode: `name` inside the workspace (`.keyplan.json` added), error
   * `file.exists` unless `overwrite` (the file is created only if nothing has the name, so of two
   * simultaneous saves as one name exactly one succeeds). Electron: the native save dialog, `name` as
   * its suggestion. As `file.save` for `file.readOnly` and warnings.
   */
  'file.saveAs': {
    input: strict({ name: Type.String(), design: DesignData, overwrite: Type.Optional(Type.Boolean()) }),
    output: SavedFile,
  },
  /**
   * Saves an exported text (a CloudFormation template, a NoSQL Workbench model, ...). Browser mode:
   * `name` as given inside the workspace folder (atomic write, no backup); `file.exists` unless
   * `overwrite` (created only if nothing has the name, as `file.saveAs`); `file.readOnly` over a
   * read-only file; `file.badName` for a design or backup name. Electron: the native save dialog, `name`
   * as its suggestion; `file.canceled` when the user cancels. Not added to the recent files.
   */
  'file.export': {
    input: strict({ name: Type.String(), content: Type.String(), overwrite: Type.Optional(Type.Boolean()) }),
    output: SavedFile,
  },
  'recent.list': { input: NoInput, output: strict({ files: Type.Array(RecentFile) }) },
  'examples.list': { input: NoInput, output: strict({ examples: Type.Array(ExampleInfo) }) },
  /** Loads a shipped example as a new, unsaved design. Errors: `file.notFound`, `ipc.badInput` (path `id`) for an id that is not a plain name. */
  'examples.open': { input: strict({ id: Type.String() }), output: strict({ design: DesignData }) },
  /**
   * Generates seeded sample items for one table in a worker thread (progress: `task.progress` with
   * this `runId`, chosen by the caller). The items stay in the host; `sample.page` reads them.
   * A new generation for the same `documentId` cancels the one still running for it. Tasks wait in
   * a queue (`task.progress` state `queued`) while every worker of the host's pool is busy.
   * Errors: `file.invalidDesign`, `task.canceled`, `task.failed`.
   */
  'sample.generate': {
    input: strict(taskFields),
    output: checkedElsewhere<SampleSummary>('What was generated: counts per entity and the views to page through.'),
  },
  /**
   * A page of one view (`table` or an index name), grouped by partition key and sorted by sort key.
   * Offsets count lines: each item collection starts with a header line, then its items.
   * Errors: `task.unknown` for a run the host does not hold.
   */
  'sample.page': {
    input: strict({
      runId: Type.String(),
      view: Type.String(),
      offset: Type.Integer({ minimum: 0 }),
      limit: Type.Integer({ minimum: 0 }),
    }),
    output: strict({
      total: Type.Integer({ minimum: 0 }),
      rows: Type.Array(checkedElsewhere<SampleRow>('One line of a sample view: an item or an item collection header.')),
    }),
  },
  /** The line of the first item collection whose partition key starts with `key` in a view (its header line), or null. */
  'sample.find': {
    input: strict({ runId: Type.String(), view: Type.String(), key: Type.String() }),
    output: strict({ offset: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]) }),
  },
  /**
   * Runs the partition simulator on one table of `design` in a worker thread (progress:
   * `task.progress`). `start`: `cold` (default, a new table) or `warm` (the base load has run
   * before); `limits`: `independent` (default) or `linear` partition read/write limits; `headroom`
   * of the recommended shard counts (at least 1, default 1.25). A new simulation for the same
   * `documentId` cancels the one still running for it; queued as `sample.generate`. Errors:
   * `file.invalidDesign`, `task.canceled`, `task.failed`.
   */
  'simulation.run': {
    input: strict({
      ...taskFields,
      start: Type.Optional(Type.Union([Type.Literal('cold'), Type.Literal('warm')])),
      limits: Type.Optional(Type.Union([Type.Literal('independent'), Type.Literal('linear')])),
      headroom: Type.Optional(Type.Number({ minimum: 1 })),
    }),
    output: checkedElsewhere<SimulationResult>('The simulator’s result for each target (the table and its GSIs).'),
  },
  /**
   * Proposes complete key designs for one table of `design` (the key-design solver, in a worker
   * thread): its entities' key templates and its indexes, ranked feasible first, then by monthly
   * cost. Progress: `task.progress` with `runId` (`Priced 12 of 16 key designs · best so far
   * $1,144.82/month`); `task.cancel` stops it. `top` proposals (default 3, at most 10); `maxGsis` a
   * proposal may use (default 5, at most 20); `noScan`: a pattern served by a Scan makes a proposal
   * infeasible; `seed` of the search order (default 1; the same input gives the same proposals);
   * `billing` the proposals are priced with (`asIs`, the table's own, by default); `monthlyBudgetUsd`:
   * a proposal costing more is infeasible; `keepTableKey`: only indexes are proposed; `headroom`:
   * a key's peak times it must stay under a partition's limit (default 1.25), else it is sharded. A new solve
   * for the same `documentId` cancels the one still running for it; queued as `sample.generate`.
   * The design is never changed: the proposals are new designs. Errors: `file.invalidDesign`,
   * `ipc.badInput` (path `tableId`), `task.canceled`, `task.failed`.
   */
  'solver.run': {
    input: strict({
      ...taskFields,
      top: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SOLVER_PROPOSALS, expected: `a whole number from 1 to ${MAX_SOLVER_PROPOSALS}` })),
      maxGsis: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SOLVER_GSIS, expected: `a whole number from 0 to ${MAX_SOLVER_GSIS}` })),
      noScan: Type.Optional(Type.Boolean()),
      billing: Type.Optional(Type.Union([Type.Literal('asIs'), Type.Literal('onDemand'), Type.Literal('provisioned')])),
      monthlyBudgetUsd: Type.Optional(Type.Number({ minimum: 0, expected: 'a number of US dollars ≥ 0' })),
      keepTableKey: Type.Optional(Type.Boolean()),
      headroom: Type.Optional(Type.Number({ minimum: 1, maximum: 10, expected: 'a number from 1 to 10' })),
    }),
    output: checkedElsewhere<SolveResult>('The ranked proposals: each a complete design, its monthly cost, GSIs, feasibility, partition risk, rules and per-pattern requests.'),
  },
  /**
   * Where `engine` goes, for the confirmation before a run on AWS: the account and caller ARN from
   * STS GetCallerIdentity, the region, the endpoint. Errors: `run.engine` (cannot reach it, no
   * credentials, the profile does not exist; the message says which).
   */
  'run.identify': { input: strict({ engine: EngineChoice }), output: EngineIdentity },
  /**
   * Runs the design's table on `engine` in the host (progress: `task.progress` with `runId`; cancel:
   * `task.cancel`): creates the table as `keyplan-run-<short id>-<name>`, loads `itemsPerEntity`
   * sample items per entity (default 20), runs every access pattern `repeat` times (default 5), and
   * removes the table, also on cancel or error. On AWS, `confirmAccount` must name the account
   * `run.identify` returned (`run.notConfirmed` otherwise). Errors: `file.invalidDesign`,
   * `ipc.badInput` (path `tableId`), `run.engine`, `run.tableExists`, `run.notConfirmed`,
   * `task.canceled`, `run.failed`.
   */
  'run.start': {
    input: strict({
      runId: Type.String({ minLength: 1, maxLength: 100 }),
      design: DesignData,
      tableId: Type.String(),
      engine: EngineChoice,
      itemsPerEntity: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RUN_ITEMS_PER_ENTITY })),
      repeat: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RUN_REPEAT })),
      seed: Type.Optional(Type.Integer()),
      confirmAccount: Type.Optional(Type.String({ maxLength: 20 })),
    }),
    output: checkedElsewhere<RunReport>('The run’s report: every pattern measured against its prediction.'),
  },
  /** Tables earlier runs created and could not remove (kept in the host's run journal). */
  'run.leftovers': { input: NoInput, output: strict({ tables: Type.Array(LeftoverTable) }) },
  /**
   * Removes leftover tables (all when `names` is absent). Only tables in the run journal are touched.
   * A table already gone counts as removed. Output: what was removed and what could not be, with why.
   */
  'run.cleanup': {
    input: strict({ names: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })) }),
    output: strict({
      removed: Type.Array(Type.String()),
      failed: Type.Array(strict({ name: Type.String(), message: Type.String() })),
    }),
  },
  /** Cancels a running `sample.generate`, `simulation.run`, `solver.run` or `run.start`; its call then fails with `task.canceled`. */
  'task.cancel': { input: strict({ runId: Type.String() }), output: strict({ canceled: Type.Boolean() }) },
} satisfies Record<string, { input: TSchema; output: TSchema }>;

/** The payload schema of every host event. */
export const eventContract = {
  'menu.command': strict({ command: MenuCommand }),
  /**
   * Progress of a long task (sample generation, simulation, key-design solver): `done` of `total` steps. `state` is
   * `queued` while the task waits for a free worker, `running` (or absent) once it runs.
   */
  'task.progress': strict({
    runId: Type.String(),
    done: Type.Number({ minimum: 0 }),
    total: Type.Number({ minimum: 0 }),
    label: Type.String(),
    state: Type.Optional(Type.Union([Type.Literal('queued'), Type.Literal('running')])),
  }),
} satisfies Record<string, TSchema>;
