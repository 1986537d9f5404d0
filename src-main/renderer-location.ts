/**
 * Where Electron loads the renderer from, and which URLs count as ours: the dev server's origin
 * in development, otherwise files under the built renderer folder. Navigation elsewhere is blocked
 * and IPC from elsewhere refused.
 */
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type RendererLocation =
  | { kind: 'devServer'; url: string; isOurs(url: string): boolean }
  | { kind: 'file'; indexHtml: string; isOurs(url: string): boolean };

/** `devServerUrl` is `process.env.ELECTRON_RENDERER_URL` (set by `electron-vite dev`). */
export function resolveRendererLocation(options: { devServerUrl?: string | undefined; rendererDir: string }): RendererLocation {
  if (options.devServerUrl) {
    const origin = new URL(options.devServerUrl).origin;
    return { kind: 'devServer', url: options.devServerUrl, isOurs: (url) => originOf(url) === origin };
  }
  const folder = options.rendererDir.replace(/[\\/]+$/, '');
  return {
    kind: 'file',
    indexHtml: join(folder, 'index.html'),
    isOurs(url) {
      try {
        const parsed = new URL(url);
        return parsed.protocol === 'file:' && fileURLToPath(parsed).startsWith(folder + sep);
      } catch {
        return false;
      }
    },
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
