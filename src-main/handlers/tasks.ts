/**
 * Long tasks: sample generation, the partition simulator and the key-design solver, run by the task
 * host in worker threads (progress as `task.progress` events, `task.cancel` to stop), and paging
 * through a generated sample that stays in the host. A task may name its document (`documentId`): a newer
 * one of the same kind for that document replaces it.
 */
import { AppError } from '../../src-shared/errors.ts';
import type { ApiHandlers, Input } from '../../src-shared/ipc/index.ts';
import { quoteClipped } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { checkDesign } from '../files/design-file.ts';
import type { SolverSettings, TaskInput } from '../tasks/protocol.ts';
import type { TaskOptions } from '../tasks/task-host.ts';
import type { HandlerDeps } from './deps.ts';

type TaskHandlers = Pick<ApiHandlers, 'sample.generate' | 'sample.page' | 'sample.find' | 'simulation.run' | 'solver.run' | 'task.cancel'>;

/**
 * The design checked in depth, and its table: `ipc.badInput` (path `tableId`) when there is no such
 * table. The input's shape was checked against the contract's schema before the handler ran.
 */
function taskInput(input: Input<'sample.generate'>, doing: string): TaskInput {
  const design: Design = checkDesign(input.design, 'The design', `cannot be used for ${doing}`);
  if (!design.tables.some((t) => t.id === input.tableId)) {
    const ids = design.tables.map((t) => quoteClipped(t.id)).join(', ');
    throw new AppError({ code: 'ipc.badInput', path: 'tableId', message: `The design has no table with id ${quoteClipped(input.tableId)}; expected one of ${ids}.` });
  }
  return { design, tableId: input.tableId, ...(input.seed === undefined ? {} : { seed: input.seed }) };
}

const taskOptions = (documentId: string | undefined): TaskOptions => (documentId === undefined ? {} : { documentId });

export function createTaskHandlers(deps: HandlerDeps): TaskHandlers {
  return {
    async 'sample.generate'(input) {
      return deps.tasks.generateSample(input.runId, taskInput(input, 'sample data'), taskOptions(input.documentId));
    },

    async 'sample.page'({ runId, view, offset, limit }) {
      return deps.tasks.page(runId, view, offset, limit);
    },

    async 'sample.find'({ runId, view, key }) {
      return deps.tasks.find(runId, view, key);
    },

    async 'simulation.run'({ start, limits, headroom, documentId, ...rest }) {
      const simulation = {
        ...(start === undefined ? {} : { start }),
        ...(limits === undefined ? {} : { limits }),
        ...(headroom === undefined ? {} : { headroom }),
      };
      return deps.tasks.runSimulation(rest.runId, { ...taskInput(rest, 'a simulation'), simulation }, taskOptions(documentId));
    },

    async 'solver.run'(input) {
      const { top, maxGsis, noScan, billing, monthlyBudgetUsd, keepTableKey, headroom } = input;
      const solver: SolverSettings = { top, maxGsis, noScan, billing, monthlyBudgetUsd, keepTableKey, headroom };
      return deps.tasks.solve(input.runId, { ...taskInput(input, 'the key-design solver'), solver }, taskOptions(input.documentId));
    },

    async 'task.cancel'({ runId }) {
      // A design run (`run.start`) shares the runId namespace with worker tasks.
      if (deps.runs.cancel(runId)) return { canceled: true };
      return deps.tasks.cancel(runId);
    },
  };
}
