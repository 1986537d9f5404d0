import type { ApiHandlers, HostInfo } from '../../src-shared/ipc/contract.ts';
import type { HandlerDeps } from './deps.ts';
import { checkInput } from './input.ts';

export function createAppHandlers(deps: HandlerDeps): Pick<ApiHandlers, 'app.info'> {
  return {
    async 'app.info'(input) {
      checkInput('app.info', input, {});
      const info: HostInfo = { mode: deps.mode, version: deps.version, platform: deps.platform };
      if (deps.files.workspaceDir !== undefined) info.workspaceDir = deps.files.workspaceDir;
      return info;
    },
  };
}
