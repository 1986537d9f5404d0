import type { ApiHandlers } from '../../src-shared/ipc/index.ts';
import type { HandlerDeps } from './deps.ts';

export function createRecentHandlers(deps: HandlerDeps): Pick<ApiHandlers, 'recent.list'> {
  return {
    async 'recent.list'() {
      return { files: await deps.recent.list() };
    },
  };
}
