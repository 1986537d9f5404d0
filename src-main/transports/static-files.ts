/**
 * Serves the built renderer (`out/renderer`) to the browser: GET/HEAD only, no dotfiles, no way out
 * of the folder, unknown routes fall back to `index.html` (a single-page app), and a plain 503 when
 * the renderer has not been built.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Answers one request from `staticDir` (absent: nothing built, 503). Headers common to all answers are set by the caller. */
export async function serveStatic(staticDir: string | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendText(res, 405, 'Only GET and HEAD are supported.');
  }
  const root = staticDir === undefined ? undefined : await realpath(staticDir).catch(() => undefined);
  const index = root === undefined ? undefined : join(root, 'index.html');
  if (root === undefined || index === undefined || !(await isFile(index))) {
    return sendText(
      res,
      503,
      `Keyplan's interface has not been built${staticDir ? ` (no ${join(staticDir, 'index.html')})` : ''}. Run "npm run build", then reload this page.`,
    );
  }
  let segments: string[];
  try {
    segments = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname).split('/').filter((s) => s !== '');
  } catch {
    return sendText(res, 400, 'The path is not valid percent-encoding.');
  }
  if (segments.some((s) => s === '..' || s.startsWith('.') || s.includes('\\') || s.includes('\0'))) {
    return sendText(res, 404, 'Not found.');
  }
  const candidate = join(root, ...segments);
  const real = await realpath(candidate).catch(() => undefined);
  if (real !== undefined && real.startsWith(root + sep) && (await isFile(real))) return sendFile(req, res, real);
  // Routes of the single-page app have no file extension; a missing asset is a real 404.
  const last = segments.at(-1) ?? '';
  if (!last.includes('.')) return sendFile(req, res, index);
  return sendText(res, 404, 'Not found.');
}

async function sendFile(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const info = await stat(path);
  res.statusCode = 200;
  res.setHeader('Content-Type', CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream');
  res.setHeader('Content-Length', info.size);
  res.setHeader('Cache-Control', 'no-cache');
  if (req.method === 'HEAD') return void res.end();
  await new Promise<void>((resolve) => {
    const stream = createReadStream(path);
    stream.on('error', () => {
      res.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(res);
  });
}

/** A short plain-text answer. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`${text}\n`);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}
