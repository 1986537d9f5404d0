/**
 * A design's session (its sample data and simulations) outlives its screens and ends with the design:
 * screens mounted and unmounted fifty times leave no progress listener behind, results survive
 * leaving a screen, and closing the design cancels what runs for it in the host. The real screens,
 * the real host handlers over the in-memory transport (with real worker threads), IndexedDB faked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DataScreen from '../src-renderer/features/data/DataScreen.svelte';
import PartitionsScreen from '../src-renderer/features/partitions/PartitionsScreen.svelte';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import ScreenHarness from './support/ScreenHarness.svelte';
import { startWatchedWorkspace } from './support/workspace.ts';

let dir: string;
let dbName: string;
const windows: Workspace[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-session-'));
  dbName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
});

afterEach(async () => {
  for (const w of windows.splice(0)) w.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function openWindow() {
  const watched = await startWatchedWorkspace(dir, dbName);
  windows.push(watched.workspace);
  return watched;
}

describe('a design session', () => {
  it('fifty mounts of the Data and Partitions screens leave one listener per store, and none once the design closes', async () => {
    const { workspace, listeners } = await openWindow();
    await workspace.files.openExample('ecommerce');
    const doc = workspace.active!;
    const before = listeners.count;
    for (let i = 0; i < 50; i += 1) {
      for (const screen of [DataScreen, PartitionsScreen]) render(ScreenHarness, { props: { workspace, screen, doc } }).unmount();
    }
    // The sample data and the simulation store each listen for progress once, for as long as the design is open.
    expect(listeners.count - before).toBe(2);
    await workspace.close(doc.id, true);
    expect(listeners.count).toBe(before);
  });

  it('a simulation result survives leaving the screen; closing the design cancels a running generation in the host', async () => {
    const { workspace, calls } = await openWindow();
    await workspace.files.openExample('ecommerce');
    const doc = workspace.active!;
    const session = workspace.sessionOf(doc);
    const table = doc.design.tables[0]!;
    await session.simulation.run('current', doc.design, table.id, { seed: 7 }, doc.id);
    expect(session.simulation.current.result).toBeDefined();
    const mounted = render(ScreenHarness, { props: { workspace, screen: PartitionsScreen, doc } });
    mounted.unmount();
    expect(workspace.sessionOf(doc).simulation.current.result).toBe(session.simulation.current.result);

    // The example's sample is millions of items: still generating when the design closes.
    const sample = session.sample(1);
    const generating = sample.generate(doc.design, table.id, doc.id);
    await vi.waitFor(() => expect(sample.status).toBe('generating'));
    await workspace.close(doc.id, true);
    await generating;
    expect(calls).toContain('task.cancel');
    expect(session.disposed).toBe(true);
    expect(sample.status).not.toBe('generating');
  });
});
