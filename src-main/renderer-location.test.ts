import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveRendererLocation, resolveRendererLocationForBuild } from './renderer-location.ts';

const rendererDir = join('/opt', 'keyplan', 'out', 'renderer');
const indexUrl = pathToFileURL(join(rendererDir, 'index.html')).href;

describe('a production build', () => {
  test.each(['https://attacker.example/', 'http://localhost:5173/', 'file:///tmp/other/index.html'])(
    'ignores ELECTRON_RENDERER_URL=%s and loads its own index.html',
    (url) => {
      const location = resolveRendererLocationForBuild({ isDevelopmentBuild: false, env: { ELECTRON_RENDERER_URL: url }, rendererDir });
      expect(location).toMatchObject({ kind: 'file', indexHtml: join(rendererDir, 'index.html') });
      expect(location.isOurs(url)).toBe(false);
      expect(location.isOurs(indexUrl)).toBe(true);
    },
  );

  test('counts only files inside the renderer folder as ours', () => {
    const location = resolveRendererLocationForBuild({ isDevelopmentBuild: false, env: {}, rendererDir });
    expect(location.isOurs(pathToFileURL(join(rendererDir, 'assets', 'index.js')).href)).toBe(true);
    expect(location.isOurs(pathToFileURL(`${rendererDir}-evil/index.html`).href)).toBe(false);
    expect(location.isOurs(pathToFileURL(join(rendererDir, '..', 'main', 'index.js')).href)).toBe(false);
    expect(location.isOurs('https://docs.aws.amazon.com/')).toBe(false);
    expect(location.isOurs('not a url')).toBe(false);
  });
});

describe('a development build', () => {
  test('follows ELECTRON_RENDERER_URL to the dev server, whose origin alone is ours', () => {
    const location = resolveRendererLocationForBuild({ isDevelopmentBuild: true, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173/' }, rendererDir });
    expect(location).toMatchObject({ kind: 'devServer', url: 'http://localhost:5173/' });
    expect(location.isOurs('http://localhost:5173/src/main.ts')).toBe(true);
    expect(location.isOurs('http://localhost:5174/')).toBe(false);
    expect(location.isOurs(indexUrl)).toBe(false);
  });

  test('loads the built files when no dev server is running', () => {
    expect(resolveRendererLocationForBuild({ isDevelopmentBuild: true, env: {}, rendererDir })).toMatchObject({ kind: 'file' });
  });

  test.each(['https://attacker.example/', 'http://192.168.1.20:5173/', 'file:///tmp/index.html', 'http://user:pw@localhost:5173/', 'nonsense'])(
    'refuses a dev server that is not on this machine: %s',
    (url) => {
      expect(() => resolveRendererLocation({ devServerUrl: url, rendererDir })).toThrow(/must be http\(s\) on localhost/);
    },
  );

  test.each(['http://127.0.0.1:5173/', 'http://[::1]:5173/', 'https://localhost:5173/'])('accepts a loopback dev server: %s', (url) => {
    expect(resolveRendererLocation({ devServerUrl: url, rendererDir }).kind).toBe('devServer');
  });
});
