import type { ApiHandlers } from '../../src-shared/ipc/contract.ts';
import type { HandlerDeps } from './deps.ts';
import { checkInput } from './input.ts';

export function createExampleHandlers(deps: HandlerDeps): Pick<ApiHandlers, 'examples.list' | 'examples.open'> {
  return {
    async 'examples.list'(input) {
      checkInput('examples.list', input, {});
      return { examples: await deps.examples.list() };
    },

    async 'examples.open'(input) {
      const { id } = checkInput('examples.open', input, { id: 'string' });
      return { design: await deps.examples.open(id) };
    },
  };
}
