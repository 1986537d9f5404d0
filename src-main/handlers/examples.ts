import type { ApiHandlers } from '../../src-shared/ipc/index.ts';
import type { HandlerDeps } from './deps.ts';

export function createExampleHandlers(deps: HandlerDeps): Pick<ApiHandlers, 'examples.list' | 'examples.open'> {
  return {
    async 'examples.list'() {
      return { examples: await deps.examples.list() };
    },

    async 'examples.open'({ id }) {
      return { design: await deps.examples.open(id) };
    },
  };
}
