/**
 * The Entities & keys screen's "Indexes" block, as a user reads it: per GSI, what the entity writes
 * into each key attribute (its own attribute or a template), and whether its items are in the index,
 * with the share from the value model when only some are. The real screen and workspace over the real
 * host handlers in memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, render, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import EntitiesScreen from '../src-renderer/features/entities/EntitiesScreen.svelte';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import ScreenHarness from './support/ScreenHarness.svelte';
import { withTournamentTable } from './support/tournament.ts';
import { startWorkspace } from './support/workspace.ts';

let dir: string;
let workspace: Workspace | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-entity-indexes-'));
});

afterEach(async () => {
  cleanup();
  workspace?.dispose();
  workspace = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function openScreen() {
  workspace = await startWorkspace(dir, `keyplan-test-${Math.random().toString(36).slice(2)}`);
  workspace.files.newDesign();
  const doc = workspace.active!;
  workspace.edit((d) => withTournamentTable(d));
  const screen = render(ScreenHarness, { props: { workspace, screen: EntitiesScreen, doc } });
  const select = async (name: string) => {
    await fireEvent.click(within(screen.getByRole('list', { name: 'Entities' })).getByRole('button', { name }));
    await tick();
    return within(screen.getByRole('region', { name: `Entity ${name}` }));
  };
  return { doc, screen, select };
}

describe("an entity's indexes", () => {
  it('shows the attributes Match carries for each part, in key order, and that every Match item is in the index', async () => {
    const { select } = await openScreen();
    const match = await select('Match');
    const block = within(match.getByRole('region', { name: 'Indexes' }));
    const index = within(block.getByRole('listitem', { name: 'ByTournamentRegion for Match' }));
    expect(index.getByTestId('membership').textContent).toBe('Every Match item is in it (10,000)');
    const parts = index.getAllByRole('definition').map((dd) => dd.textContent!.replace(/\s+/g, ' ').trim());
    expect(parts).toEqual(['tournamentId own attribute, S + region own attribute, S', 'round own attribute, N + bracket own attribute, S']);
    // The key templates say the same: no template needed, the attribute is the key.
    expect(match.getByRole('textbox', { name: 'round template' }).getAttribute('placeholder')).toBe('its own round');
    expect(match.getByLabelText('round preview').textContent).toMatch(/Its own round attribute \(a natural key: no template needed\)/);
  });

  it('an optional attribute of the key: the share of Match items in the index follows its presence, with the derivation', async () => {
    const { select } = await openScreen();
    const match = await select('Match');
    await fireEvent.click(match.getByRole('button', { name: /^Values of bracket:/ }));
    await tick();
    const presence = match.getByLabelText('Items that carry it %');
    await fireEvent.input(presence, { target: { value: '80' } });
    await tick();
    const index = within(match.getByRole('listitem', { name: 'ByTournamentRegion for Match' }));
    expect(index.getByTestId('membership').textContent!.replace(/\s+/g, ' ').trim()).toBe('In it: 80% of Match items — those that carry bracket (8,000 of 10,000)');
    expect(index.getByTestId('membership-derivation').textContent).toBe('80% of Match items carry bracket (its presence in the value model)');
  });

  it('an entity that carries only some of the key attributes is not in the index, and the screen names what it misses', async () => {
    const { select } = await openScreen();
    const player = await select('Player');
    const index = within(player.getByRole('listitem', { name: 'ByTournamentRegion for Player' }));
    expect(index.getByTestId('membership').textContent!.replace(/\s+/g, ' ').trim()).toBe(
      'Not in it: Player items have no tournamentId, round or bracket, and an item is in an index only with every key attribute',
    );
    expect(index.getAllByText('missing')).toHaveLength(3);
  });
});
