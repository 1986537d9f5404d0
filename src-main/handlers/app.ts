import type { ApiHandlers, HostInfo } from '../../src-shared/ipc/index.ts';
import type { HandlerDeps } from './deps.ts';

export function createAppHandlers(deps: HandlerDeps): Pick<ApiHandlers, 'app.info'> {
  return {
    async 'app.info'() {
      const info: HostInfo = { mode: deps.mode, version: deps.version, platform: deps.platform };
      if (deps.files.workspaceDir !== undefined) info.workspaceDir = deps.files.workspaceDir;
      return info;
    },
  };
}
