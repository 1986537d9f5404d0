import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import WebSocket from 'ws';
import type { ApiHandlers } from '../../src-shared/ipc/contract.ts';
import type { WireFrame } from '../../src-shared/ipc/wire.ts';
import { CONTENT_SECURITY_POLICY } from '../csp.ts';
import { describeContract } from '../contract.suite.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { startWebHost, type WebHost, type WebHostOptions } from './websocket.ts';
import { connectWebSocketTransport } from './websocket-client.ts';

describeContract('the WebSocket host', async (handlers) => {
  const host = await startWebHost({ handlers, port: 0 });
  const transport = await connectWebSocketTransport(host.url);
  return {
    transport,
    emit: (event, payload) => host.emit(event, payload),
    close: async () => {
      await transport.close();
      await host.close();
    },
  };
});

const handlers: ApiHandlers = {
  'app.info': async () => ({ mode: 'browser', version: '1.0.0', platform: 'linux' }),
  'file.list': async () => {
    throw new Error('disk on fire');
  },
  'file.open': async () => {
    throw new Error('unused');
  },
  'file.openDialog': async () => {
    throw new Error('unused');
  },
  'file.save': async () => {
    throw new Error('unused');
  },
  'file.version': async () => {
    throw new Error('unused');
  },
  'file.saveAs': async () => {
    throw new Error('unused');
  },
  'file.export': async () => {
    throw new Error('unused');
  },
  'recent.list': async () => ({ files: [] }),
  'examples.list': async () => ({ examples: [] }),
  'examples.open': async () => {
    throw new Error('unused');
  },
  'sample.generate': async () => {
    throw new Error('unused');
  },
  'sample.page': async () => {
    throw new Error('unused');
  },
  'sample.find': async () => {
    throw new Error('unused');
  },
  'simulation.run': async () => {
    throw new Error('unused');
  },
  'task.cancel': async () => ({ canceled: false }),
};

async function startHost(options: Partial<WebHostOptions> = {}): Promise<{ host: WebHost; logged: unknown[][] }> {
  const logged: unknown[][] = [];
  const host = await startWebHost({ handlers, log: (...args) => logged.push(args), ...options });
  onTestFinished(() => host.close());
  return { host, logged };
}

/** Opens a raw socket; resolves with it once open, or with the HTTP status the host refused it with. */
function rawSocket(url: string, origin: string | undefined): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.once('open', () => {
      onTestFinished(() => socket.terminate());
      resolve(socket);
    });
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', reject);
  });
}

function nextFrame(socket: WebSocket): Promise<WireFrame> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)) as WireFrame)));
}

function nextClose(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the WebSocket host refuses strangers', () => {
  test('listens on 127.0.0.1 only and hands out a URL with a 32-hex-digit token in the fragment', async () => {
    const { host } = await startHost();
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{32}$/);
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
    await expect(startWebHost({ handlers, host: '0.0.0.0' as never })).rejects.toThrow(/127\.0\.0\.1 only/);
  });

  test('is not reachable on another address of this machine', async () => {
    const { host } = await startHost();
    const reached = await new Promise<boolean>((resolve) => {
      const req = request({ host: '127.0.0.2', port: host.port, path: '/' }, () => resolve(true));
      req.on('error', () => resolve(false));
      req.end();
    });
    expect(reached).toBe(false);
  });

  test.each([
    ['no token', (h: WebHost) => `ws://127.0.0.1:${h.port}/ws`],
    ['a wrong token', (h: WebHost) => `ws://127.0.0.1:${h.port}/ws?token=${'0'.repeat(32)}`],
    ['a token differing in length', (h: WebHost) => `ws://127.0.0.1:${h.port}/ws?token=${h.token}0`],
  ])('refuses a connection with %s (403)', async (_what, urlOf) => {
    const { host } = await startHost();
    expect(await rawSocket(urlOf(host), `http://127.0.0.1:${host.port}`)).toBe(403);
  });

  test.each([
    ['a foreign origin', 'http://evil.example'],
    ['localhost instead of 127.0.0.1', 'http://localhost:PORT'],
    ['another port', 'http://127.0.0.1:1'],
    ['no origin', undefined],
  ])('refuses a connection from %s even with the right token (403)', async (_what, origin) => {
    const { host } = await startHost();
    const url = `ws://127.0.0.1:${host.port}/ws?token=${host.token}`;
    expect(await rawSocket(url, origin?.replace('PORT', String(host.port)))).toBe(403);
  });

  test('only /ws upgrades', async () => {
    const { host } = await startHost();
    expect(await rawSocket(`ws://127.0.0.1:${host.port}/other?token=${host.token}`, `http://127.0.0.1:${host.port}`)).toBe(404);
  });

  test('refuses HTTP requests naming another host (DNS rebinding)', async () => {
    const { host } = await startHost();
    expect((await get(host.port, '/', { host: `evil.example:${host.port}` })).status).toBe(403);
  });
});

describe('the WebSocket host answers frames', () => {
  async function connected(options: Partial<WebHostOptions> = {}) {
    const started = await startHost(options);
    const { host } = started;
    const socket = (await rawSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, `http://127.0.0.1:${host.port}`)) as WebSocket;
    return { ...started, socket };
  }

  test('a request for an unknown channel gets ipc.unknownChannel with its id', async () => {
    const { socket } = await connected();
    socket.send(JSON.stringify({ kind: 'request', id: 7, channel: 'shell.exec', input: {} }));
    expect(await nextFrame(socket)).toMatchObject({ kind: 'reply', id: 7, envelope: { ok: false, error: { code: 'ipc.unknownChannel' } } });
  });

  test('a handler exception becomes ipc.internal and is logged once on the host', async () => {
    const { socket, logged } = await connected();
    socket.send(JSON.stringify({ kind: 'request', id: 1, channel: 'file.list', input: {} }));
    expect(await nextFrame(socket)).toMatchObject({ id: 1, envelope: { ok: false, error: { code: 'ipc.internal' } } });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[1]).toBeInstanceOf(Error);
  });

  test('a frame with an id but the wrong shape gets ipc.badInput', async () => {
    const { socket } = await connected();
    socket.send(JSON.stringify({ kind: 'reply', id: 3, channel: 5 }));
    expect(await nextFrame(socket)).toMatchObject({ id: 3, envelope: { ok: false, error: { code: 'ipc.badInput' } } });
  });

  test.each([
    ['text that is not JSON', '{ nope', 1007],
    ['JSON without an id', '{"kind":"request","channel":"app.info"}', 1007],
    ['a JSON array', '[1]', 1007],
  ])('%s closes the connection with a reason', async (_what, text, code) => {
    const { socket } = await connected();
    const closed = nextClose(socket);
    socket.send(text);
    expect(await closed).toMatchObject({ code, reason: expect.stringMatching(/Malformed frame/) });
  });

  test('a binary frame closes the connection with a reason', async () => {
    const { socket } = await connected();
    const closed = nextClose(socket);
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await closed).toMatchObject({ code: 1003 });
  });

  test('events are broadcast to every connected page', async () => {
    const { host, socket } = await connected();
    const other = (await rawSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, `http://127.0.0.1:${host.port}`)) as WebSocket;
    const frames = Promise.all([nextFrame(socket), nextFrame(other)]);
    host.emit('menu.command', { command: 'open' });
    expect(await frames).toEqual([
      { kind: 'event', event: 'menu.command', payload: { command: 'open' } },
      { kind: 'event', event: 'menu.command', payload: { command: 'open' } },
    ]);
  });

  test('close() ends open connections', async () => {
    const { host, socket } = await connected();
    const closed = nextClose(socket);
    await host.close();
    expect((await closed).code).toBe(1001);
  });
});

describe('the WebSocket host serves the built renderer', () => {
  async function withRenderer() {
    const dir = await makeTempDir();
    const staticDir = join(dir, 'renderer');
    await mkdir(join(staticDir, 'assets'), { recursive: true });
    await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Keyplan</title>');
    await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log(1);');
    await writeFile(join(staticDir, 'assets', 'app.css'), 'body{}');
    await writeFile(join(staticDir, '.env'), 'SECRET=1');
    await writeFile(join(dir, 'secret.txt'), 'outside');
    await symlink(join(dir, 'secret.txt'), join(staticDir, 'assets', 'link.txt'));
    const { host } = await startHost({ staticDir });
    return host;
  }

  test('index.html with the CSP and hardening headers', async () => {
    const host = await withRenderer();
    const res = await get(host.port, '/');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Keyplan</title>');
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  test.each([
    ['/assets/app.js', 'text/javascript; charset=utf-8'],
    ['/assets/app.css', 'text/css; charset=utf-8'],
  ])('%s with its content type', async (path, type) => {
    const host = await withRenderer();
    const res = await get(host.port, path);
    expect([res.status, res.headers['content-type']]).toEqual([200, type]);
  });

  test('app routes fall back to index.html; missing assets are 404', async () => {
    const host = await withRenderer();
    expect((await get(host.port, '/designs/orders')).body).toContain('<title>Keyplan</title>');
    expect((await get(host.port, '/assets/missing.js')).status).toBe(404);
  });

  test.each(['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/link.txt', '/.env', '/assets%5c..%5c..%5csecret.txt'])(
    'never serves %s',
    async (path) => {
      const host = await withRenderer();
      const res = await get(host.port, path);
      expect(res.body).not.toContain('outside');
      expect(res.body).not.toContain('SECRET');
    },
  );

  test('only GET and HEAD', async () => {
    const host = await withRenderer();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: host.port, path: '/', method: 'POST' }, (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(405);
  });

  test('without a built renderer, every page is a 503 that says what to do', async () => {
    const { host } = await startHost({ staticDir: '/nonexistent/out/renderer' });
    const res = await get(host.port, '/');
    expect(res.status).toBe(503);
    expect(res.body).toMatch(/npm run build/);
  });
});
