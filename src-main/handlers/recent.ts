import type { ApiHandlers } from '../../src-shared/ipc/contract.ts';
import type { HandlerDeps } from './deps.ts';
import { checkInput } from './input.ts';

export function createRecentHandlers(deps: HandlerDeps): Pick<ApiHandlers, 'recent.list'> {
  return {
    async 'recent.list'(input) {
      checkInput('recent.list', input, {});
      return { files: await deps.recent.list() };
    },
  };
}
