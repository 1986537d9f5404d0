/**
 * Windows (browser tabs) of one workspace share its IndexedDB. Each open document is edited by one
 * window only: the one holding its Web Lock `keyplan-doc:<id>`. Other windows show it read-only and
 * follow its stored edits through a BroadcastChannel; "take over" asks the owner to store its last
 * edits and let go, and steals the lock only from an owner that does not answer (a hung window).
 * A crashed window's locks go with it, so its documents are free at the next start.
 */

/** The part of `navigator.locks` used here. */
export interface LockManagerLike {
  request(name: string, options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal }, callback: (lock: unknown) => unknown): Promise<unknown>;
}

/** The part of `BroadcastChannel` used here. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

export type LinkMessage =
  /** The owner stored a document's record (others reload it). */
  | { type: 'stored'; docId: string }
  /** The owner closed a document (others drop it). */
  | { type: 'closed'; docId: string }
  /** A window asks the owner to let go of a document. */
  | { type: 'release'; docId: string }
  /** The owner stored its last edits and let go. */
  | { type: 'released'; docId: string };

export interface WindowLinkOptions {
  locks?: LockManagerLike | undefined;
  channel?: ChannelLike | undefined;
  /** How long an owner may take to let go before its lock is taken anyway. */
  releaseTimeoutMs?: number;
}

/** Names the lock of one document. */
export const documentLockName = (docId: string) => `keyplan-doc:${docId}`;
/** Names the lock a window holds for as long as it is open. */
const windowLockName = (windowId: string) => `keyplan-window:${windowId}`;
const CHANNEL_NAME = 'keyplan-workspace';
const RELEASE_TIMEOUT_MS = 3000;

export class WindowLink {
  readonly windowId = Math.random().toString(36).slice(2, 10);
  /** Messages from other windows. */
  onmessage: (message: LinkMessage) => void = () => undefined;
  /** This window lost a document's lock without letting go (another window took it by force). */
  onlost: (docId: string) => void = () => undefined;

  readonly #locks: LockManagerLike | undefined;
  readonly #channel: ChannelLike | undefined;
  readonly #releaseTimeoutMs: number;
  /** Resolving one lets go of that document's lock. */
  readonly #held = new Map<string, () => void>();
  #releaseWindow: (() => void) | undefined;

  constructor(options: WindowLinkOptions = defaultLinkOptions()) {
    this.#locks = options.locks;
    this.#channel = options.channel;
    this.#releaseTimeoutMs = options.releaseTimeoutMs ?? RELEASE_TIMEOUT_MS;
    this.#channel?.addEventListener('message', (event) => {
      const message = parseMessage(event.data);
      if (message && message.from !== this.windowId) this.onmessage(message.message);
    });
    // Held until the window closes (or crashes): tells the others this window is open.
    this.#locks?.request(windowLockName(this.windowId), {}, () => new Promise<void>((release) => (this.#releaseWindow = release))).catch(() => undefined);
  }

  /** Whether the window `windowId` is still open (no Web Locks: assumed gone). */
  async isWindowOpen(windowId: string): Promise<boolean> {
    if (this.#locks === undefined) return false;
    let open = false;
    await this.#locks.request(windowLockName(windowId), { ifAvailable: true }, (lock) => {
      open = lock === null;
    });
    return open;
  }

  /** Whether windows are coordinated at all (no Web Locks: every window edits what it shows). */
  get coordinated(): boolean {
    return this.#locks !== undefined;
  }

  owns(docId: string): boolean {
    return this.#locks === undefined || this.#held.has(docId);
  }

  /** Takes the document's lock if no other window holds it; true when this window edits it now. */
  claim(docId: string): Promise<boolean> {
    if (this.#held.has(docId) || this.#locks === undefined) return Promise.resolve(true);
    return this.#hold(docId, { ifAvailable: true });
  }

  /** Lets go of a document (closed here, or handed to another window). */
  release(docId: string): void {
    const release = this.#held.get(docId);
    this.#held.delete(docId);
    release?.();
  }

  /**
   * Makes this window the document's editor: asks the owner to let go (it stores its last edits
   * first) and waits for the lock; an owner that does not answer in time loses it anyway.
   */
  async takeOver(docId: string): Promise<void> {
    if (this.owns(docId)) return;
    this.post({ type: 'release', docId });
    const signal = AbortSignal.timeout(this.#releaseTimeoutMs);
    const waited = await this.#hold(docId, { signal });
    if (!waited) await this.#hold(docId, { steal: true });
  }

  post(message: LinkMessage): void {
    try {
      this.#channel?.postMessage({ from: this.windowId, message });
    } catch {
      // A closed channel (the page is going away) has no one left to tell.
    }
  }

  close(): void {
    for (const docId of [...this.#held.keys()]) this.release(docId);
    this.#releaseWindow?.();
    this.#channel?.close();
  }

  /** Requests the lock and keeps it until `release`; resolves true once held, false when not granted. */
  #hold(docId: string, options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal }): Promise<boolean> {
    const locks = this.#locks!;
    return new Promise<boolean>((resolve) => {
      let granted = false;
      locks
        .request(documentLockName(docId), options, (lock) => {
          if (lock === null) return resolve(false);
          granted = true;
          resolve(true);
          return new Promise<void>((release) => this.#held.set(docId, release));
        })
        .catch(() => {
          if (!granted) return resolve(false); // timed out waiting
          // Another window stole it: this one must stop writing the document.
          if (this.#held.delete(docId)) this.onlost(docId);
        });
    });
  }
}

function defaultLinkOptions(): WindowLinkOptions {
  const locks = (typeof navigator !== 'undefined' ? (navigator as { locks?: LockManagerLike | null }).locks : undefined) ?? undefined;
  const channel = typeof BroadcastChannel === 'function' ? (new BroadcastChannel(CHANNEL_NAME) as unknown as ChannelLike) : undefined;
  return { locks, channel };
}

/** Messages come from other pages of this origin; anything else is ignored. */
function parseMessage(data: unknown): { from: string; message: LinkMessage } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { from, message } = data as { from?: unknown; message?: { type?: unknown; docId?: unknown } };
  if (typeof from !== 'string' || typeof message !== 'object' || message === null) return undefined;
  if (typeof message.docId !== 'string' || !['stored', 'closed', 'release', 'released'].includes(message.type as string)) return undefined;
  return { from, message: { type: message.type as LinkMessage['type'], docId: message.docId } };
}
