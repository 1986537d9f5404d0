/**
 * The only bridge between the sandboxed renderer and the host: `window.keyplan`, a `Transport`
 * limited to the contract's channels and events. Nothing else of Electron is exposed.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channels, events } from '../src-shared/ipc/contract.ts';
import type { Envelope, Transport } from '../src-shared/ipc/index.ts';

const allowedChannels: readonly string[] = channels;
const allowedEvents: readonly string[] = events;

const bridge: Transport = {
  invoke(channel, input) {
    if (!allowedChannels.includes(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'ipc.unknownChannel', message: `Unknown channel "${channel}".` } });
    }
    return ipcRenderer.invoke(channel, input) as Promise<Envelope>;
  },
  subscribe(event, listener) {
    if (!allowedEvents.includes(event)) throw new Error(`Unknown event "${event}".`);
    const relay = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, relay);
    return () => void ipcRenderer.removeListener(event, relay);
  },
};

contextBridge.exposeInMainWorld('keyplan', bridge);
