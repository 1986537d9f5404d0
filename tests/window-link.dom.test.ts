/**
 * The window link (state/window-link.ts) on its own: which window edits a design (its Web Lock),
 * asking an owner to let go, taking a design from one that does not answer, and the messages between
 * windows. Windows simulated in one process: real BroadcastChannels, an in-process Web Locks stand-in
 * (happy-dom has none). The workspace's handover over it is in concurrent-edits.dom.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentLockName, WindowLink, type ChannelLike, type LinkMessage } from '../src-renderer/state/window-link.ts';
import { MemoryLocks } from './support/memory-locks.ts';

let channelName: string;
let locks: MemoryLocks;
const links: WindowLink[] = [];

beforeEach(() => {
  channelName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
  locks = new MemoryLocks();
});

afterEach(() => {
  for (const link of links.splice(0)) link.close();
});

/** A window's link: its own BroadcastChannel (or `channel`), the shared locks. */
function linkOf(channel: ChannelLike = new BroadcastChannel(channelName) as unknown as ChannelLike, releaseTimeoutMs = 300): WindowLink {
  const link = new WindowLink({ locks, channel, releaseTimeoutMs });
  links.push(link);
  return link;
}

/** A channel that hears nothing and says nothing: a hung window's. */
const deaf = (): ChannelLike => ({ postMessage: () => undefined, addEventListener: () => undefined, close: () => undefined });

/** Collects what a link hears from the other windows. */
function heard(link: WindowLink): LinkMessage[] {
  const messages: LinkMessage[] = [];
  link.onmessage = (m) => messages.push(m);
  return messages;
}

describe('the window link', () => {
  it('lets one window claim a design; another sees it held until the first lets go', async () => {
    const a = linkOf();
    const b = linkOf();
    expect(a.coordinated).toBe(true);
    expect(await a.claim('doc-1')).toBe(true);
    expect(await a.claim('doc-1')).toBe(true); // claiming again what it holds
    expect(await b.claim('doc-1')).toBe(false);
    expect([a.owns('doc-1'), b.owns('doc-1')]).toEqual([true, false]);
    expect(locks.isHeld(documentLockName('doc-1'))).toBe(true);

    a.release('doc-1');
    await vi.waitFor(() => expect(locks.isHeld(documentLockName('doc-1'))).toBe(false));
    expect(await b.claim('doc-1')).toBe(true);
    expect(b.owns('doc-1')).toBe(true);
  });

  it('tells whether another window is still open; a closed window lets go of everything it held', async () => {
    const a = linkOf();
    const b = linkOf();
    await a.claim('doc-1');
    await a.claim('doc-2');
    await vi.waitFor(async () => expect(await b.isWindowOpen(a.windowId)).toBe(true));

    a.close();
    await vi.waitFor(async () => expect(await b.isWindowOpen(a.windowId)).toBe(false));
    expect([await b.claim('doc-1'), await b.claim('doc-2')]).toEqual([true, true]);
  });

  it('carries messages to the other windows, not back to the sender, and ignores anything else on the channel', async () => {
    const a = linkOf();
    const b = linkOf();
    const toA = heard(a);
    const toB = heard(b);
    a.post({ type: 'stored', docId: 'doc-1' });
    const stranger = new BroadcastChannel(channelName);
    stranger.postMessage('hello');
    stranger.postMessage({ from: 'x', message: { type: 'delete', docId: 'doc-1' } });
    stranger.postMessage({ from: 'x', message: { type: 'closed', docId: 7 } });
    stranger.postMessage({ from: 'x', message: { type: 'closed', docId: 'doc-2' } });
    stranger.close();

    await vi.waitFor(() => expect(toB).toHaveLength(2));
    expect(toB).toEqual([{ type: 'stored', docId: 'doc-1' }, { type: 'closed', docId: 'doc-2' }]);
    expect(toA).toEqual([{ type: 'closed', docId: 'doc-2' }]);
  });

  it('takes a design over from an owner that lets go when asked; the owner loses nothing by force', async () => {
    const owner = linkOf();
    const taker = linkOf();
    await owner.claim('doc-1');
    const lost: string[] = [];
    owner.onlost = (id) => lost.push(id);
    owner.onmessage = (m) => {
      if (m.type === 'release' && owner.owns(m.docId)) owner.release(m.docId);
    };

    await taker.takeOver('doc-1');
    expect([owner.owns('doc-1'), taker.owns('doc-1')]).toEqual([false, true]);
    expect(lost).toEqual([]);
  });

  it('takes a design from an owner that does not answer once the timeout passes, and that owner is told', async () => {
    const hung = linkOf(deaf());
    const taker = linkOf(undefined, 200);
    await hung.claim('doc-1');
    const lost: string[] = [];
    hung.onlost = (id) => lost.push(id);

    const started = Date.now();
    await taker.takeOver('doc-1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    expect(taker.owns('doc-1')).toBe(true);
    await vi.waitFor(() => expect(lost).toEqual(['doc-1']));
    expect(hung.owns('doc-1')).toBe(false);
  });

  it('without Web Locks, every window edits what it shows', async () => {
    const link = new WindowLink({ channel: deaf() });
    links.push(link);
    expect(link.coordinated).toBe(false);
    expect(await link.claim('doc-1')).toBe(true);
    expect(link.owns('doc-2')).toBe(true);
    expect(await link.isWindowOpen('another')).toBe(false);
    await link.takeOver('doc-1');
  });
});
