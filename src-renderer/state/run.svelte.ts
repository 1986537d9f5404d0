/**
 * The Run screen's state for one open design: the engine and sizes the user chose, the run on its
 * way (progress, cancel, the AWS confirmation), the last report, what went wrong, and the tables
 * earlier runs left behind. The run itself happens in the host (`run.start`); this store only asks
 * for it and keeps what came back, so the report survives moving between screens.
 */
import { AppError } from '../../src-shared/errors.ts';
import { hasErrorCode, MAX_RUN_ITEMS_PER_ENTITY, MAX_RUN_REPEAT } from '../../src-shared/ipc/index.ts';
import type { ApiClient, Output } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { requestAsCliCommand, requestAsJson, requestAsSdkCode } from '../../src-shared/run/index.ts';
import type { EngineChoice, RunReport, RunRequest } from '../../src-shared/run/index.ts';
import { newTaskId } from './task-ids.ts';

export type EngineKind = EngineChoice['kind'];

/** The form as typed: text, so that what the user typed stays shown with its message until it is valid. */
export interface RunForm {
  engine: EngineKind;
  endpoint: string;
  region: string;
  profile: string;
  items: string;
  repeat: string;
}

export type RunField = 'endpoint' | 'region' | 'profile' | 'items' | 'repeat';

/** A valid form as the host takes it, or the message of each field that is not. */
export type CheckedForm =
  | { ok: true; engine: EngineChoice; itemsPerEntity: number; repeat: number }
  | { ok: false; errors: Partial<Record<RunField, string>> };

export const DEFAULT_FORM: RunForm = { engine: 'embedded', endpoint: 'http://localhost:8000', region: '', profile: '', items: '20', repeat: '5' };

// The same rules as the contract's input schema (`EngineChoice`), checked here so each field says
// what is wrong before anything is sent.
const ENDPOINT = /^https?:\/\/[^\s]+$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

function checkWhole(text: string, min: number, max: number): { value?: number; error?: string } {
  const t = text.trim();
  if (t === '') return { error: 'Required.' };
  if (!/^\d+$/.test(t)) return { error: `Must be a whole number from ${min} to ${max}; got "${t}".` };
  const n = Number(t);
  if (n < min || n > max) return { error: `Must be from ${min} to ${max}; got ${t}.` };
  return { value: n };
}

/** Checks the form: every field's problem at once, or what `run.start` takes. */
export function checkRunForm(form: RunForm): CheckedForm {
  const errors: Partial<Record<RunField, string>> = {};
  const items = checkWhole(form.items, 1, MAX_RUN_ITEMS_PER_ENTITY);
  const repeat = checkWhole(form.repeat, 1, MAX_RUN_REPEAT);
  if (items.error) errors.items = items.error;
  if (repeat.error) errors.repeat = repeat.error;
  let engine: EngineChoice = { kind: 'embedded' };
  if (form.engine === 'local') {
    const endpoint = form.endpoint.trim();
    if (!ENDPOINT.test(endpoint)) errors.endpoint = `Must be an http:// or https:// URL such as http://localhost:8000; got "${endpoint}".`;
    engine = { kind: 'local', endpoint };
  } else if (form.engine === 'aws') {
    const region = form.region.trim();
    const profile = form.profile.trim();
    if (!REGION.test(region)) errors.region = region === '' ? 'Required: the AWS region to run in, such as us-east-1.' : `Must be an AWS region such as us-east-1; got "${region}".`;
    if (profile.length > 200) errors.profile = `Must be at most 200 characters; got ${profile.length}.`;
    engine = { kind: 'aws', region, ...(profile ? { profile } : {}) };
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, engine, itemsPerEntity: items.value!, repeat: repeat.value! };
}

/** What the user reads when a run cannot start or stops: the host's message and what to do about it. */
export interface RunProblem {
  code: string;
  message: string;
  /** What to do next. */
  advice: string;
}

const ADVICE: Record<string, string> = {
  'run.engine':
    'Check that the engine is running and reachable: start DynamoDB Local and check its endpoint, or for AWS check the region and that the profile exists and has credentials (aws configure, or aws sso login). Then run again.',
  'run.tableExists':
    'A table with the name this run would create exists already, and Keyplan never touches a table it did not create. Run again: each run picks new table names.',
  'run.notConfirmed': 'The account the run would use is not the one you confirmed. Run again and check the account named in the confirmation.',
  'run.failed': 'The run stopped before it finished and removed the tables it had created. Run again; the message above says what the engine answered.',
  'file.invalidDesign': 'The design has problems the run cannot go past: fix those listed in the Problems panel, then run again.',
  'ipc.badInput': 'The run could not start with these settings: check the fields above, then run again.',
};

function problemOf(error: unknown): RunProblem {
  if (error instanceof AppError) return { code: error.code, message: error.message, advice: ADVICE[error.code] ?? 'Run again; if it keeps failing, the message says what went wrong.' };
  return { code: 'unknown', message: error instanceof Error ? error.message : String(error), advice: 'Run again; if it keeps failing, the message says what went wrong.' };
}

export type EngineIdentity = Output<'run.identify'>;
export type LeftoverTable = Output<'run.leftovers'>['tables'][number];

/** The AWS confirmation: where the run would go, and what it would send once confirmed. */
export interface PendingConfirmation {
  identity: EngineIdentity;
  design: Design;
  tableId: string;
  checked: Extract<CheckedForm, { ok: true }>;
}

/** The three ways a request is copied, with their button labels. */
export const COPY_FORMATS = [
  { id: 'sdk', label: 'Copy as SDK code', render: requestAsSdkCode },
  { id: 'cli', label: 'Copy as CLI', render: requestAsCliCommand },
  { id: 'json', label: 'Copy as JSON', render: requestAsJson },
] as const;
export type CopyFormat = (typeof COPY_FORMATS)[number]['id'];

export type RunPhase = 'idle' | 'identifying' | 'confirming' | 'running' | 'canceling';

export class RunStore {
  form = $state<RunForm>({ ...DEFAULT_FORM });
  phase = $state<RunPhase>('idle');
  progress = $state<{ done: number; total: number; label: string } | undefined>();
  /** Whether the host has reported the run's progress yet (the run is registered there). */
  hasHostProgress = $state(false);
  confirmation = $state.raw<PendingConfirmation | undefined>();
  /** The last report, kept when a later run fails or is canceled (nothing is lost). */
  report = $state.raw<RunReport | undefined>();
  /** JSON of the design the report is for, to tell when the design changed since. */
  reportDesignJson = $state<string | undefined>();
  problem = $state.raw<RunProblem | undefined>();
  /** Said after a cancel: not an error. */
  notice = $state<string | undefined>();
  leftovers = $state.raw<LeftoverTable[] | undefined>();
  /** `checking` while the host is asked for leftover tables. */
  leftoversState = $state<'unknown' | 'checking' | 'checked'>('unknown');
  cleanupResult = $state.raw<Output<'run.cleanup'> | undefined>();
  isCleaning = $state(false);
  /** What the last copy did, shown beside the request it copied (`key` names it). */
  copied = $state<{ key: string; text: string; isError: boolean } | undefined>();

  readonly checked: CheckedForm = $derived(checkRunForm(this.form));
  readonly isBusy: boolean = $derived(this.phase !== 'idle' && this.phase !== 'confirming');

  readonly #api: ApiClient;
  #runId: string | undefined;
  readonly #unsubscribe: () => void;

  constructor(api: ApiClient) {
    this.#api = api;
    this.#unsubscribe = api.on('task.progress', (p) => {
      if (p.runId !== this.#runId || this.phase === 'canceling') return;
      this.progress = { done: p.done, total: p.total, label: p.label };
      this.hasHostProgress = true;
    });
  }

  /**
   * Runs the design's table on the chosen engine. On AWS it first asks the host where the
   * credentials lead and waits for `confirm()`; elsewhere it starts at once.
   */
  async start(design: Design, tableId: string): Promise<void> {
    const checked = this.checked;
    if (!checked.ok || this.isBusy) return;
    this.problem = undefined;
    this.notice = undefined;
    if (checked.engine.kind !== 'aws') return this.#run(design, tableId, checked);
    this.phase = 'identifying';
    try {
      const identity = await this.#api.call('run.identify', { engine: checked.engine });
      this.confirmation = { identity, design, tableId, checked };
      this.phase = 'confirming';
    } catch (error) {
      this.problem = problemOf(error);
      this.phase = 'idle';
    }
  }

  /** Runs on the AWS account the confirmation named. */
  async confirm(): Promise<void> {
    const pending = this.confirmation;
    if (!pending || this.phase !== 'confirming') return;
    this.confirmation = undefined;
    await this.#run(pending.design, pending.tableId, pending.checked, pending.identity.account);
  }

  /** Closes the AWS confirmation without running. */
  dismiss(): void {
    if (this.phase !== 'confirming') return;
    this.confirmation = undefined;
    this.phase = 'idle';
  }

  async #run(design: Design, tableId: string, checked: Extract<CheckedForm, { ok: true }>, confirmAccount?: string): Promise<void> {
    const runId = newTaskId('run');
    this.#runId = runId;
    this.phase = 'running';
    this.progress = { done: 0, total: 1, label: 'Starting' };
    this.hasHostProgress = false;
    const designJson = JSON.stringify(design);
    try {
      const report = await this.#api.call('run.start', {
        runId,
        design,
        tableId,
        engine: checked.engine,
        itemsPerEntity: checked.itemsPerEntity,
        repeat: checked.repeat,
        ...(confirmAccount !== undefined ? { confirmAccount } : {}),
      });
      if (this.#runId !== runId) return;
      this.report = report;
      this.reportDesignJson = designJson;
      // A run whose tables could not all be removed says so through the leftovers notice.
      if (report.cleanup.leftover.length > 0) void this.loadLeftovers();
    } catch (error) {
      if (this.#runId !== runId) return;
      if (hasErrorCode(error, 'task.canceled')) this.notice = "Canceled; the run's tables were removed.";
      else this.problem = problemOf(error);
      void this.loadLeftovers();
    } finally {
      if (this.#runId === runId) {
        this.#runId = undefined;
        this.phase = 'idle';
        this.progress = undefined;
      }
    }
  }

  /** Asks the host to stop the run; the run's call then ends with `task.canceled` once its tables are gone. */
  async cancel(): Promise<void> {
    const runId = this.#runId;
    if (!runId || this.phase !== 'running') return;
    this.phase = 'canceling';
    this.progress = { ...(this.progress ?? { done: 0, total: 1 }), label: 'Canceling: removing the run’s tables' };
    await this.#api.call('task.cancel', { runId }).catch((error: unknown) => (this.problem = problemOf(error)));
  }

  /** Reads the tables earlier runs could not remove. */
  async loadLeftovers(): Promise<void> {
    this.leftoversState = 'checking';
    try {
      this.leftovers = (await this.#api.call('run.leftovers', {})).tables;
    } catch (error) {
      this.problem = problemOf(error);
    } finally {
      this.leftoversState = 'checked';
    }
  }

  /** Removes every leftover table, then reads the list again. */
  async cleanup(): Promise<void> {
    if (this.isCleaning) return;
    this.isCleaning = true;
    try {
      this.cleanupResult = await this.#api.call('run.cleanup', {});
      await this.loadLeftovers();
    } catch (error) {
      this.problem = problemOf(error);
    } finally {
      this.isCleaning = false;
    }
  }

  /** Puts `request` on the clipboard as code; `key` names where the result is shown. */
  async copy(request: RunRequest, format: CopyFormat, key: string): Promise<void> {
    const entry = COPY_FORMATS.find((f) => f.id === format)!;
    try {
      await navigator.clipboard.writeText(entry.render(request));
      this.copied = { key, text: `Copied the ${request.operation} request as ${format === 'sdk' ? 'SDK code' : format === 'cli' ? 'a CLI command' : 'JSON'}.`, isError: false };
    } catch (error) {
      this.copied = { key, text: `Could not copy: ${error instanceof Error ? error.message : String(error)}`, isError: true };
    }
  }

  dismissProblem(): void {
    this.problem = undefined;
  }

  /** Cancels a run on its way and stops listening for progress. */
  dispose(): void {
    void this.cancel();
    this.#unsubscribe();
  }
}
