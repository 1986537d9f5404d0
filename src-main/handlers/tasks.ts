/**
 * Long tasks: sample generation and the partition simulator, run by the task host in worker
 * threads (progress as `task.progress` events, `task.cancel` to stop), and paging through a
 * generated sample that stays in the host. A task may name its document (`documentId`): a newer
 * one of the same kind for that document replaces it.
 */
import { AppError } from '../../src-shared/errors.ts';
import type { ApiHandlers } from '../../src-shared/ipc/contract.ts';
import type { Design } from '../../src-shared/model/schema.ts';
import { checkDesign } from '../files/design-file.ts';
import type { TaskInput } from '../tasks/protocol.ts';
import type { TaskOptions } from '../tasks/task-host.ts';
import type { HandlerDeps } from './deps.ts';
import { checkInput } from './input.ts';

type TaskHandlers = Pick<ApiHandlers, 'sample.generate' | 'sample.page' | 'sample.find' | 'simulation.run' | 'task.cancel'>;

const TASK_INPUT = { runId: 'string', design: 'object', tableId: 'string', seed: 'number?', documentId: 'string?' } as const;
/** A document id is an opaque key the UI picks (`doc-…` today); anything much longer is a mistake or abuse. */
const MAX_DOCUMENT_ID_LENGTH = 200;

/** The design checked in depth, and its table: `ipc.badInput` (path `tableId`) when there is no such table. */
function taskInput(input: { design: object; tableId: string; seed?: number | undefined }, doing: string): TaskInput {
  const design: Design = checkDesign(input.design, 'The design', `cannot be used for ${doing}`);
  if (!design.tables.some((t) => t.id === input.tableId)) {
    const ids = design.tables.map((t) => `"${t.id}"`).join(', ');
    throw new AppError({ code: 'ipc.badInput', path: 'tableId', message: `The design has no table with id "${input.tableId}"; expected one of ${ids}.` });
  }
  return { design, tableId: input.tableId, ...(input.seed === undefined ? {} : { seed: input.seed }) };
}

/** The task's document, checked: at most `MAX_DOCUMENT_ID_LENGTH` characters. */
function taskOptions(channel: 'sample.generate' | 'simulation.run', documentId: string | undefined): TaskOptions {
  if (documentId === undefined) return {};
  if (documentId.length <= MAX_DOCUMENT_ID_LENGTH) return { documentId };
  throw new AppError({
    code: 'ipc.badInput',
    path: 'documentId',
    message: `Bad input to "${channel}": "documentId" must be at most ${MAX_DOCUMENT_ID_LENGTH} characters, received ${documentId.length}.`,
  });
}

function nonNegativeInteger(channel: 'sample.page', name: string, value: number): number {
  if (Number.isInteger(value) && value >= 0) return value;
  throw new AppError({ code: 'ipc.badInput', path: name, message: `Bad input to "${channel}": "${name}" must be a whole number ≥ 0, received ${value}.` });
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new AppError({ code: 'ipc.badInput', path: name, message: `Bad input to "simulation.run": "${name}" must be ${allowed.map((a) => `"${a}"`).join(' or ')}, received "${value}".` });
}

function atLeastOne(headroom: number): number {
  if (headroom >= 1) return headroom;
  throw new AppError({ code: 'ipc.badInput', path: 'headroom', message: `Bad input to "simulation.run": "headroom" must be at least 1, received ${headroom}.` });
}

export function createTaskHandlers(deps: HandlerDeps): TaskHandlers {
  return {
    async 'sample.generate'(input) {
      const checked = checkInput('sample.generate', input, TASK_INPUT);
      return deps.tasks.generateSample(checked.runId, taskInput(checked, 'sample data'), taskOptions('sample.generate', checked.documentId));
    },

    async 'sample.page'(input) {
      const { runId, view, offset, limit } = checkInput('sample.page', input, { runId: 'string', view: 'string', offset: 'number', limit: 'number' });
      return deps.tasks.page(runId, view, nonNegativeInteger('sample.page', 'offset', offset), nonNegativeInteger('sample.page', 'limit', limit));
    },

    async 'sample.find'(input) {
      const { runId, view, key } = checkInput('sample.find', input, { runId: 'string', view: 'string', key: 'string' });
      return deps.tasks.find(runId, view, key);
    },

    async 'simulation.run'(input) {
      const { start, limits, headroom, documentId, ...rest } = checkInput('simulation.run', input, { ...TASK_INPUT, start: 'string?', limits: 'string?', headroom: 'number?' });
      const simulation = {
        ...(start === undefined ? {} : { start: oneOf('start', start, ['cold', 'warm'] as const) }),
        ...(limits === undefined ? {} : { limits: oneOf('limits', limits, ['independent', 'linear'] as const) }),
        ...(headroom === undefined ? {} : { headroom: atLeastOne(headroom) }),
      };
      return deps.tasks.runSimulation(rest.runId, { ...taskInput(rest, 'a simulation'), simulation }, taskOptions('simulation.run', documentId));
    },

    async 'task.cancel'(input) {
      const { runId } = checkInput('task.cancel', input, { runId: 'string' });
      return deps.tasks.cancel(runId);
    },
  };
}
