/**
 * The contract over Electron IPC: one `ipcMain.handle` per channel of `channels`, answering only the
 * app's own window showing our own page, with envelopes (never rejections: Electron drops custom
 * error properties, electron/electron#24427). Events go to the window with `webContents.send`.
 */
import {
  channels,
  isEventName,
  type ApiHandlers,
  type EventName,
  type EventPayload,
  type EventSink,
} from '../../src-shared/ipc/index.ts';
import { dispatchRequest } from '../../src-shared/ipc/host.ts';
import type { Envelope } from '../../src-shared/ipc/index.ts';

/** The parts of Electron's `IpcMainInvokeEvent` the sender check reads. */
export interface InvokeEventLike {
  sender: unknown;
  senderFrame: { url: string; parent: unknown } | null;
}

/** The parts of Electron's `ipcMain` used here (a fake in tests: there is no Electron binary there). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The parts of a window's `webContents` used here. */
export interface WebContentsLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

export interface ElectronTransportOptions {
  ipcMain: IpcMainLike;
  handlers: ApiHandlers;
  /** The app's window's webContents, while there is one. */
  getWebContents: () => WebContentsLike | undefined;
  /** Whether a frame URL is our renderer (`renderer-location.ts`). */
  isOurUrl: (url: string) => boolean;
  log?: (message: string, error?: unknown) => void;
}

export interface ElectronTransport extends EventSink {
  /** Removes every handler (before registering again, or in tests). */
  dispose(): void;
}

/** Registers every channel; throws at startup when `handlers` misses one or has one not in the contract. */
export function registerElectronTransport(options: ElectronTransportOptions): ElectronTransport {
  assertHandlersMatchContract(options.handlers);
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[keyplan] ${message}`, ...(error === undefined ? [] : [error])));

  const isTrusted = (event: InvokeEventLike): boolean => {
    const contents = options.getWebContents();
    const frame = event.senderFrame;
    return contents !== undefined && event.sender === contents && frame !== null && frame.parent === null && options.isOurUrl(frame.url);
  };

  for (const channel of channels) {
    options.ipcMain.handle(channel, async (event, input): Promise<Envelope> => {
      if (!isTrusted(event)) {
        log(`Refused "${channel}" from a sender that is not Keyplan's window (${event.senderFrame?.url ?? 'unknown frame'}).`);
        return { ok: false, error: { code: 'ipc.forbidden', message: `"${channel}" is only answered for Keyplan's own window.` } };
      }
      return dispatchRequest(options.handlers, channel, input, {
        onInternalError: (error) => log(`The handler for "${channel}" failed.`, error),
      });
    });
  }

  return {
    emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
      if (!isEventName(event)) throw new Error(`Unknown event "${String(event)}".`);
      const contents = options.getWebContents();
      if (contents !== undefined && !contents.isDestroyed()) contents.send(event, payload);
    },
    dispose() {
      for (const channel of channels) options.ipcMain.removeHandler(channel);
    },
  };
}

/** The runtime twin of the `ApiHandlers` type check, for handler objects built by spreading. */
export function assertHandlersMatchContract(handlers: ApiHandlers): void {
  const missing = channels.filter((c) => typeof (handlers as Record<string, unknown>)[c] !== 'function');
  const extra = Object.keys(handlers).filter((k) => !(channels as readonly string[]).includes(k));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `The handlers do not match the contract: ${missing.length ? `missing ${missing.join(', ')}` : ''}` +
        `${missing.length && extra.length ? '; ' : ''}${extra.length ? `not in the contract: ${extra.join(', ')}` : ''}.`,
    );
  }
}
