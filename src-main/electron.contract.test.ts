/**
 * The contract suite over the Electron transport: the real `registerElectronTransport` on an
 * `ipcMain` stand-in (there is no Electron binary here) that does what Electron's IPC does to data:
 * a structured clone each way, which, unlike JSON, carries NaN, Infinity and undefined through. The
 * client side is the preload's bridge: the same allowlist of channels and events.
 */
import { channels, events, type ApiHandlers } from '../src-shared/ipc/index.ts';
import type { Envelope, Transport } from '../src-shared/ipc/index.ts';
import { describeContract } from './contract.suite.ts';
import { registerElectronTransport, type InvokeEventLike, type WebContentsLike } from './transports/electron.ts';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

describeContract('the Electron transport', async (handlers: ApiHandlers) => {
  const registered = new Map<string, Listener>();
  const subscribers = new Map<string, Set<(payload: unknown) => void>>();
  const contents: WebContentsLike = {
    // webContents.send: a structured clone, delivered later.
    send: (event, payload) => {
      const copy = structuredClone(payload);
      void Promise.resolve().then(() => {
        for (const listener of subscribers.get(event) ?? []) listener(copy);
      });
    },
    isDestroyed: () => false,
  };
  const host = registerElectronTransport({
    ipcMain: { handle: (channel, listener) => void registered.set(channel, listener), removeHandler: (channel) => void registered.delete(channel) },
    handlers,
    getWebContents: () => contents,
    isOurUrl: () => true,
    log: () => {},
  });
  const fromOurWindow: InvokeEventLike = { sender: contents, senderFrame: { url: 'file:///keyplan/index.html', parent: null } };

  // What `src-main/preload.ts` exposes as `window.keyplan`, over the stand-in.
  const transport: Transport = {
    async invoke(channel, input) {
      const listener = registered.get(channel);
      if (!(channels as readonly string[]).includes(channel) || listener === undefined) {
        return { ok: false, error: { code: 'ipc.unknownChannel', message: `Unknown channel "${channel}".` } };
      }
      return structuredClone((await listener(fromOurWindow, structuredClone(input))) as Envelope);
    },
    subscribe(event, listener) {
      if (!(events as readonly string[]).includes(event)) throw new Error(`Unknown event "${event}".`);
      const set = subscribers.get(event) ?? new Set();
      subscribers.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
  return { transport, emit: (event, payload) => host.emit(event, payload), close: async () => host.dispose() };
});
