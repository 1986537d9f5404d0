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

/** Hosts a development renderer may be served from: this machine only. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The renderer location for this build of the main process. A development build (`electron-vite dev`,
 * which sets `ELECTRON_RENDERER_URL`) follows that variable to its dev server; a production build
 * always loads its own files, whatever the environment says, so nobody can point a shipped Keyplan,
 * and with it the preload bridge to the user's files, at another page.
 *
 * `isDevelopmentBuild` must come from the build itself (`import.meta.env.DEV`, replaced with a
 * constant by Vite), never from the environment at run time.
 */
export function resolveRendererLocationForBuild(options: {
  isDevelopmentBuild: boolean;
  env: Readonly<Record<string, string | undefined>>;
  rendererDir: string;
}): RendererLocation {
  const devServerUrl = options.isDevelopmentBuild ? options.env['ELECTRON_RENDERER_URL'] : undefined;
  return resolveRendererLocation({ devServerUrl, rendererDir: options.rendererDir });
}

/**
 * `devServerUrl` is the dev server's address (`ELECTRON_RENDERER_URL`, set by `electron-vite dev`); it
 * must be http(s) on a loopback host. Without it, the built `index.html` under `rendererDir` is loaded.
 * Throws for a dev server URL elsewhere: that is a broken development setup, not user input.
 */
export function resolveRendererLocation(options: { devServerUrl?: string | undefined; rendererDir: string }): RendererLocation {
  if (options.devServerUrl) {
    const origin = loopbackOrigin(options.devServerUrl);
    if (!origin) {
      throw new Error(`The renderer dev server URL is "${options.devServerUrl}", but it must be http(s) on localhost, 127.0.0.1 or [::1].`);
    }
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

function loopbackOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const isHttp = parsed.protocol === 'http:' || parsed.protocol === 'https:';
    return isHttp && LOOPBACK_HOSTS.has(parsed.hostname) && parsed.username === '' && parsed.password === '' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
