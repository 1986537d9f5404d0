/**
 * Handing a design from one window to another: the window link on its own (state/window-link.ts,
 * its locks and messages), then the workspace's handover over it (state/handover.ts) with the
 * designs' sessions. Windows simulated in one process: real BroadcastChannels, an in-process Web
 * Locks stand-in (happy-dom has none), the real host handlers in memory, IndexedDB faked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addEntity } from '../src-shared/model/edits.ts';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import { documentLockName, WindowLink, type ChannelLike, type LinkMessage } from '../src-renderer/state/window-link.ts';
import { MemoryLocks } from './support/memory-locks.ts';
import { startWorkspace } from './support/workspace.ts';

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

describe('the workspace handing a design over', () => {
  let dir: string;
  let dbName: string;
  const windows: Workspace[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keyplan-handover-'));
    dbName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
  });

  afterEach(async () => {
    for (const w of windows.splice(0)) w.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  async function openWindow(): Promise<Workspace> {
    const channel = new BroadcastChannel(channelName) as unknown as ChannelLike;
    const workspace = await startWorkspace(dir, dbName, { link: { locks, channel, releaseTimeoutMs: 500 } });
    windows.push(workspace);
    return workspace;
  }

  it('keeps each window\'s session of the design through a take-over; the last edit and the undo history go along', async () => {
    const first = await openWindow();
    first.files.newDesign();
    const mine = first.active!;
    const tableId = mine.design.tables[0]!.id;
    first.edit((d) => addEntity(d, tableId, 'Order'));
    const firstSession = first.sessionOf(mine);
    const result = firstSession.simulation;

    const second = await openWindow();
    const theirs = second.active!;
    expect(theirs.readOnly).toBe(true);
    const secondSession = second.sessionOf(theirs);
    await second.handover.takeOver(theirs);

    expect([mine.readOnly, theirs.readOnly]).toEqual([true, false]);
    expect(theirs.design.tables[0]!.entities.map((e) => e.name)).toEqual(['Order']);
    expect(theirs.canUndo).toBe(true);
    expect(second.view.notice?.message).toContain('You edit');
    expect(first.view.notice?.message).toContain('is edited in another window now');
    // Both windows still show the design: neither session ended.
    expect([firstSession.disposed, secondSession.disposed]).toEqual([false, false]);
    expect(first.sessionOf(mine).simulation).toBe(result);
  });

  it('a design its owner closes leaves the window that followed it, and its session there ends', async () => {
    const first = await openWindow();
    first.files.newDesign();
    const doc = first.active!;
    const second = await openWindow();
    const followed = second.active!;
    const session = second.sessionOf(followed);
    void session.simulation;

    await first.close(doc.id, true);
    await vi.waitFor(() => expect(second.documents).toEqual([]), { timeout: 2000, interval: 20 });
    expect(session.disposed).toBe(true);
    expect(second.active).toBeUndefined();
  });

  it('a design another window opens later is listed read-only, with a session of its own', async () => {
    const first = await openWindow();
    const second = await openWindow();
    first.files.newDesign();
    await vi.waitFor(() => expect(second.documents).toHaveLength(1), { timeout: 2000, interval: 20 });
    const followed = second.documents[0]!;
    expect(followed.readOnly).toBe(true);
    expect(second.active).toBe(followed);
    expect(second.sessionOf(followed).disposed).toBe(false);
    // A read-only design takes no edit here.
    second.edit((d) => addEntity(d, d.tables[0]!.id, 'Nope'), undefined, followed);
    expect(followed.design.tables[0]!.entities).toEqual([]);
  });
});
