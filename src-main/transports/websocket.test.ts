import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import WebSocket from 'ws';
import { AppError } from '../../src-shared/errors.ts';
import type { ApiHandlers, WireFrame } from '../../src-shared/ipc/index.ts';
import { CONTENT_SECURITY_POLICY } from '../csp.ts';
import { describeContract } from '../contract.suite.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import {
  FRAME_TOO_LARGE_REASON,
  LAUNCH_TICKET_TTL_MS,
  WEB_SOCKET_PROTOCOL,
  MAX_ECHO_CHARS,
  MAX_FRAME_BYTES,
  PRINTED_LINK_TTL_MS,
  startWebHost,
  type WebHost,
  type WebHostOptions,
} from './websocket.ts';
import { connectWebSocketTransport, exchangeTicket, sessionProtocols } from './websocket-client.ts';

describeContract('the WebSocket host', async (handlers) => {
  const host = await startWebHost({ handlers, port: 0 });
  const transport = await connectWebSocketTransport(host.issueLink(PRINTED_LINK_TTL_MS));
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
  'solver.run': async () => {
    throw new Error('unused');
  },
  'run.identify': async () => {
    throw new Error('unused');
  },
  'run.start': async () => {
    throw new Error('unused');
  },
  'run.leftovers': async () => ({ tables: [] }),
  'run.cleanup': async () => ({ removed: [], failed: [] }),
  'task.cancel': async () => ({ canceled: false }),
};

async function startHost(options: Partial<WebHostOptions> = {}): Promise<{ host: WebHost; logged: unknown[][] }> {
  const logged: unknown[][] = [];
  const host = await startWebHost({ handlers, log: (...args) => logged.push(args), ...options });
  onTestFinished(() => host.close());
  return { host, logged };
}

/**
 * Opens a raw socket showing `token` as the page does; resolves with it once open, or with the HTTP
 * status the host refused it with. `protocols` replaces what is offered; `cookie` adds a Cookie header.
 */
function rawSocket(url: string, origin: string | undefined, token?: string, extra: { protocols?: string[]; cookie?: string } = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const protocols = extra.protocols ?? (token === undefined ? [] : sessionProtocols(token));
    const socket = new WebSocket(url, protocols, { ...(origin === undefined ? {} : { origin }), ...(extra.cookie === undefined ? {} : { headers: { cookie: extra.cookie } }) });
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

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(port, path, { headers });
}

/** `POST /session` as the page does, with overrides for what a stranger might send instead. */
function postTicket(host: WebHost, link: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const ticket = new URLSearchParams(new URL(link).hash.slice(1)).get('ticket');
  return send(host.port, '/session', {
    method: 'POST',
    headers: { origin: host.origin, 'content-type': 'application/json', ...headers },
    body: body ?? JSON.stringify({ ticket }),
  });
}

/** A live session: the token a page holds after trading a fresh ticket. */
function sessionOf(host: WebHost): Promise<string> {
  return exchangeTicket(host.issueLink(LAUNCH_TICKET_TTL_MS));
}

const wsUrl = (host: WebHost) => `ws://127.0.0.1:${host.port}/ws`;

describe('the WebSocket host opens only through a single-use ticket', () => {
  test('listens on 127.0.0.1 only and hands out links with a fresh ticket in the fragment each time', async () => {
    const { host } = await startHost();
    const link = host.issueLink(LAUNCH_TICKET_TTL_MS);
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#ticket=[A-Za-z0-9_-]{32}$/);
    expect(link.startsWith(`${host.origin}/#ticket=`)).toBe(true);
    expect(host.issueLink(LAUNCH_TICKET_TTL_MS)).not.toBe(link);
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

  test('a ticket, used once, gives a session token (and no cookie) that opens the WebSocket as a subprotocol', async () => {
    const { host } = await startHost();
    const answer = await postTicket(host, host.issueLink(LAUNCH_TICKET_TTL_MS));
    expect(answer.status).toBe(200);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('no-store');
    const { token } = JSON.parse(answer.body) as { token: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await get(host.port, '/session', { 'x-keyplan-session': token })).status).toBe(204);
    const socket = (await rawSocket(wsUrl(host), host.origin, token)) as WebSocket;
    // The host agrees to Keyplan's protocol only: the token is never echoed back.
    expect(socket.protocol).toBe(WEB_SOCKET_PROTOCOL);
    socket.send(JSON.stringify({ kind: 'request', id: 1, channel: 'app.info', input: {} }));
    expect(await nextFrame(socket)).toMatchObject({ id: 1, envelope: { ok: true, value: { mode: 'browser' } } });
  });

  test('a second use of the same ticket is refused (403) and grants nothing; the token from the first still works (a reload)', async () => {
    const { host } = await startHost();
    const link = host.issueLink(LAUNCH_TICKET_TTL_MS);
    const first = await postTicket(host, link);
    const { token } = JSON.parse(first.body) as { token: string };
    const again = await postTicket(host, link);
    expect(again.status).toBe(403);
    expect(again.body).not.toContain(token);
    expect(again.body).toMatch(/press Enter/);
    expect((await get(host.port, '/session', { 'x-keyplan-session': token })).status).toBe(204);
  });

  test('a ticket is good until its lifetime ends, by the host clock, and refused from then on', async () => {
    let now = 1_000_000;
    const { host } = await startHost({ now: () => now });
    const early = host.issueLink(LAUNCH_TICKET_TTL_MS);
    const late = host.issueLink(LAUNCH_TICKET_TTL_MS);
    now += LAUNCH_TICKET_TTL_MS - 1;
    expect((await postTicket(host, early)).status).toBe(200);
    now += 1;
    expect((await postTicket(host, late)).status).toBe(403);
    const printed = host.issueLink(PRINTED_LINK_TTL_MS);
    now += PRINTED_LINK_TTL_MS;
    expect((await postTicket(host, printed)).status).toBe(403);
  });

  test('a ticket of another host start, or a made-up one, is refused', async () => {
    const { host } = await startHost();
    const { host: other } = await startHost();
    const foreign = other.issueLink(LAUNCH_TICKET_TTL_MS).replace(String(other.port), String(host.port));
    expect((await postTicket(host, foreign)).status).toBe(403);
    expect((await postTicket(host, `${host.origin}/#ticket=${'A'.repeat(32)}`)).status).toBe(403);
    expect((await postTicket(host, host.origin, {}, '{"ticket":42}')).status).toBe(403);
    expect((await postTicket(host, host.origin, {}, 'not json')).status).toBe(403);
  });

  test.each([
    ['from another origin', { origin: 'http://evil.example' }, undefined, 403],
    ['from another port of 127.0.0.1 (same site, other origin)', { origin: 'http://127.0.0.1:1' }, undefined, 403],
    ['without an origin', { origin: '' }, undefined, 403],
    ['as a form rather than JSON', { 'content-type': 'application/x-www-form-urlencoded' }, undefined, 415],
    ['with a body over 1 KB', {}, JSON.stringify({ ticket: 'x', padding: 'y'.repeat(2000) }), 413],
  ])('a ticket sent %s is refused, and stays good for the page it was meant for', async (_what, headers, body, status) => {
    const { host } = await startHost();
    const link = host.issueLink(LAUNCH_TICKET_TTL_MS);
    const refused = await postTicket(host, link, headers, body);
    expect(refused.status).toBe(status);
    expect(refused.body).not.toMatch(/token/);
    expect((await postTicket(host, link)).status).toBe(200);
  });

  test('GET /session tells a page whether its token is this run\'s: 204 or 401', async () => {
    const { host } = await startHost();
    const token = await sessionOf(host);
    expect((await get(host.port, '/session')).status).toBe(401);
    expect((await get(host.port, '/session', { 'x-keyplan-session': 'A'.repeat(43) })).status).toBe(401);
    expect((await get(host.port, '/session', { cookie: `keyplan_session_${host.port}=${token}` })).status).toBe(401);
    expect((await get(host.port, '/session', { 'x-keyplan-session': token })).status).toBe(204);
    expect((await send(host.port, '/session', { method: 'PUT' })).status).toBe(405);
  });
});

describe('the WebSocket host refuses strangers', () => {
  test.each([
    ['no token', () => ['keyplan']],
    ['a wrong token', () => sessionProtocols('A'.repeat(43))],
    ['the token under another subprotocol name', (token: string) => ['keyplan', `keyplan.other.${token}`]],
    ['an empty token', () => ['keyplan', 'keyplan.session.']],
  ])('refuses an upgrade with %s (403)', async (_what, protocolsOf) => {
    const { host } = await startHost();
    const token = await sessionOf(host);
    expect(await rawSocket(wsUrl(host), host.origin, undefined, { protocols: protocolsOf(token) })).toBe(403);
  });

  test('a cookie plays no part: the token in a cookie opens nothing, and a cookie another local server set changes nothing', async () => {
    const { host } = await startHost();
    const token = await sessionOf(host);
    // Cookies are per host, not per port: any server on 127.0.0.1 can set this one in the user's browser.
    expect(await rawSocket(wsUrl(host), host.origin, undefined, { protocols: ['keyplan'], cookie: `keyplan_session_${host.port}=${token}` })).toBe(403);
    const socket = (await rawSocket(wsUrl(host), host.origin, token, { cookie: `keyplan_session_${host.port}=overwritten; keyplan.session=x` })) as WebSocket;
    socket.send(JSON.stringify({ kind: 'request', id: 1, channel: 'app.info', input: {} }));
    expect(await nextFrame(socket)).toMatchObject({ id: 1, envelope: { ok: true } });
    expect((await get(host.port, '/session', { 'x-keyplan-session': token, cookie: `keyplan_session_${host.port}=overwritten` })).status).toBe(204);
  });

  test('two hosts on different ports keep separate sessions: each takes its own token only, and both stay connected', async () => {
    const { host: a } = await startHost();
    const { host: b } = await startHost();
    const [tokenA, tokenB] = [await sessionOf(a), await sessionOf(b)];
    expect(tokenA).not.toBe(tokenB);
    expect(await rawSocket(wsUrl(a), a.origin, tokenB)).toBe(403);
    expect(await rawSocket(wsUrl(b), b.origin, tokenA)).toBe(403);
    const socketA = (await rawSocket(wsUrl(a), a.origin, tokenA)) as WebSocket;
    // A session started on b after a's changes nothing for a (a cookie of b's would have replaced a's at the same name).
    await sessionOf(b);
    const socketB = (await rawSocket(wsUrl(b), b.origin, tokenB)) as WebSocket;
    socketA.send(JSON.stringify({ kind: 'request', id: 1, channel: 'app.info', input: {} }));
    socketB.send(JSON.stringify({ kind: 'request', id: 2, channel: 'app.info', input: {} }));
    expect(await nextFrame(socketA)).toMatchObject({ id: 1, envelope: { ok: true } });
    expect(await nextFrame(socketB)).toMatchObject({ id: 2, envelope: { ok: true } });
    expect((await get(a.port, '/session', { 'x-keyplan-session': tokenA })).status).toBe(204);
  });

  test('refuses the token of an earlier host start on the same port', async () => {
    const { host: first } = await startHost();
    const stale = await sessionOf(first);
    const port = first.port;
    await first.close();
    const { host } = await startHost({ port });
    expect(await rawSocket(wsUrl(host), host.origin, stale)).toBe(403);
  });

  test.each([
    ['a foreign origin', 'http://evil.example'],
    ['localhost instead of 127.0.0.1', 'http://localhost:PORT'],
    ['another port', 'http://127.0.0.1:1'],
    ['no origin', undefined],
  ])('refuses an upgrade from %s even with the session token (403)', async (_what, origin) => {
    const { host } = await startHost();
    expect(await rawSocket(wsUrl(host), origin?.replace('PORT', String(host.port)), await sessionOf(host))).toBe(403);
  });

  test('only /ws upgrades', async () => {
    const { host } = await startHost();
    expect(await rawSocket(`ws://127.0.0.1:${host.port}/other`, host.origin, await sessionOf(host))).toBe(404);
  });

  test('refuses HTTP requests naming another host (DNS rebinding)', async () => {
    const { host } = await startHost();
    expect((await get(host.port, '/', { host: `evil.example:${host.port}` })).status).toBe(403);
    const link = host.issueLink(LAUNCH_TICKET_TTL_MS);
    expect((await postTicket(host, link, { host: `evil.example:${host.port}`, origin: `http://evil.example:${host.port}` })).status).toBe(403);
  });
});

describe('the WebSocket host answers frames', () => {
  async function connected(options: Partial<WebHostOptions> = {}) {
    const started = await startHost(options);
    const { host } = started;
    const socket = (await rawSocket(wsUrl(host), host.origin, await sessionOf(host))) as WebSocket;
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
    const other = (await rawSocket(wsUrl(host), host.origin, await sessionOf(host))) as WebSocket;
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

describe('the WebSocket host bounds what it reads and what it echoes', () => {
  test('a frame of 8 MB is read; one byte more closes that connection with 1009 and a reason, and the host serves the others', async () => {
    const { host, logged } = await startHost();
    const session = await sessionOf(host);
    const [big, bystander] = (await Promise.all([rawSocket(wsUrl(host), host.origin, session), rawSocket(wsUrl(host), host.origin, session)])) as WebSocket[];
    const request = (id: number, padding: number) => {
      const text = JSON.stringify({ kind: 'request', id, channel: 'app.info', input: {}, padding: '' });
      return text.replace('"padding":""', `"padding":"${'x'.repeat(padding)}"`);
    };
    const fits = request(1, MAX_FRAME_BYTES - request(1, 0).length);
    expect(Buffer.byteLength(fits)).toBe(MAX_FRAME_BYTES);
    big!.send(fits);
    expect(await nextFrame(big!)).toMatchObject({ id: 1, envelope: { ok: true } });

    const closed = nextClose(big!);
    big!.send(request(2, MAX_FRAME_BYTES - request(2, 0).length + 1));
    expect(await closed).toEqual({ code: 1009, reason: FRAME_TOO_LARGE_REASON });
    expect(Buffer.byteLength(FRAME_TOO_LARGE_REASON)).toBeLessThanOrEqual(123); // what a close frame can carry
    expect(logged.map(([message]) => message)).toEqual([expect.stringMatching(/over 8388608 bytes/)]);

    bystander!.send(JSON.stringify({ kind: 'request', id: 3, channel: 'app.info', input: {} }));
    expect(await nextFrame(bystander!)).toMatchObject({ id: 3, envelope: { ok: true } });
    const newcomer = (await rawSocket(wsUrl(host), host.origin, session)) as WebSocket;
    newcomer.send(JSON.stringify({ kind: 'request', id: 4, channel: 'app.info', input: {} }));
    expect(await nextFrame(newcomer)).toMatchObject({ id: 4, envelope: { ok: true } });
  });

  const long = (seed: string) => seed.repeat(Math.ceil(100_000 / seed.length));
  const echoing: ApiHandlers = {
    ...handlers,
    // A handler that quotes the whole value it refuses, in its message and details.
    'file.open': async (input) => {
      const ref = (input as { ref: string }).ref;
      throw new AppError({ code: 'file.notFound', message: `No file ${JSON.stringify(ref)} in the workspace.`, details: { received: ref, also: [ref] } });
    },
    'file.version': async ({ ref }) => {
      throw new Error(`cannot read the version of ${ref}`);
    },
  };

  test.each([
    ['an unknown channel name', (id: number) => ({ kind: 'request', id, channel: long('shell.exec'), input: {} })],
    ['an unknown field name (message and path)', (id: number) => ({ kind: 'request', id, channel: 'recent.list', input: { [long('k')]: 1 } })],
    ['a value a handler quotes, JSON-escaped, in message and details', (id: number) => ({ kind: 'request', id, channel: 'file.open', input: { ref: long('a"b\n') } })],
    ['a value in an internal error', (id: number) => ({ kind: 'request', id, channel: 'file.version', input: { ref: long('f') } })],
  ])('an error reply quotes at most 200 characters of %s', async (_what, frameOf) => {
    const { host } = await startHost({ handlers: echoing });
    const socket = (await rawSocket(wsUrl(host), host.origin, await sessionOf(host))) as WebSocket;
    const sent = frameOf(9);
    socket.send(JSON.stringify(sent));
    const frame = await nextFrame(socket);
    expect(frame).toMatchObject({ id: 9, envelope: { ok: false } });
    const text = JSON.stringify(frame);
    expect(text.length).toBeLessThan(2_000);
    const strings = [sent.channel, ...Object.keys(sent.input), ...Object.values(sent.input).filter((v): v is string => typeof v === 'string')];
    for (const quoted of strings.filter((s) => s.length > MAX_ECHO_CHARS)) {
      expect(text).not.toContain(quoted.slice(0, MAX_ECHO_CHARS + 1));
      expect(text).not.toContain(JSON.stringify(JSON.stringify(quoted).slice(1, MAX_ECHO_CHARS + 2)).slice(1, -1));
      expect(text).toContain(JSON.stringify(quoted.slice(0, 50)).slice(1, -1)); // still says what it received
    }
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
