/**
 * Runs: a design's table run on a DynamoDB-compatible engine in the host (`src-main/run`), with
 * progress as `task.progress` events and cancel through `task.cancel`; the AWS identity shown before
 * a run on an account; and the tables earlier runs could not remove.
 */
import { AppError } from '../../src-shared/errors.ts';
import type { ApiHandlers } from '../../src-shared/ipc/index.ts';
import { quoteClipped } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { checkDesign } from '../files/design-file.ts';
import type { HandlerDeps } from './deps.ts';

type RunHandlers = Pick<ApiHandlers, 'run.identify' | 'run.start' | 'run.leftovers' | 'run.cleanup'>;

export function createRunHandlers(deps: HandlerDeps): RunHandlers {
  return {
    async 'run.identify'({ engine }) {
      return deps.runs.identify(engine);
    },

    async 'run.start'(input) {
      const design: Design = checkDesign(input.design, 'The design', 'cannot be run');
      if (!design.tables.some((t) => t.id === input.tableId)) {
        const ids = design.tables.map((t) => quoteClipped(t.id)).join(', ');
        throw new AppError({ code: 'ipc.badInput', path: 'tableId', message: `The design has no table with id ${quoteClipped(input.tableId)}; expected one of ${ids}.` });
      }
      return deps.runs.start({ ...input, design });
    },

    async 'run.leftovers'() {
      return { tables: await deps.runs.leftovers() };
    },

    async 'run.cleanup'({ names }) {
      return deps.runs.cleanup(names);
    },
  };
}
