/**
 * The Table & indexes screen's GSI key editor, as a user drives it: the real screen, the real
 * workspace (its undo history) over the real host handlers in memory. Each part of a GSI key is an
 * ordered list of attributes; the entities' own attributes are offered as names; every change is one
 * undo step, typing in one name is one step; problems show at the attribute they concern.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, render, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import TableScreen from '../src-renderer/features/table/TableScreen.svelte';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import { keyPartAttributes } from '../src-shared/model/index.ts';
import type { Design } from '../src-shared/model/index.ts';
import ScreenHarness from './support/ScreenHarness.svelte';
import { withTournamentTable } from './support/tournament.ts';
import { startWorkspace } from './support/workspace.ts';

let dir: string;
let workspace: Workspace | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-gsi-keys-'));
});

afterEach(async () => {
  cleanup();
  workspace?.dispose();
  workspace = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The Table & indexes screen on the tournament design (one more edit `adjust` may make first). */
async function openScreen(adjust: (d: Design) => Design = (d) => d) {
  workspace = await startWorkspace(dir, `keyplan-test-${Math.random().toString(36).slice(2)}`);
  workspace.files.newDesign();
  const doc = workspace.active!;
  workspace.edit((d) => adjust(withTournamentTable(d)));
  doc.endCoalescing();
  const screen = render(ScreenHarness, { props: { workspace, screen: TableScreen, doc } });
  const gsi = within(screen.getByRole('article', { name: 'GSI ByTournamentRegion' }));
  const part = (name: 'Partition key' | 'Sort key') => within(gsi.getByRole('group', { name }));
  const gsiOf = () => doc.design.tables[0]!.globalSecondaryIndexes[0]!;
  const names = (field: 'partitionKey' | 'sortKey') => keyPartAttributes(gsiOf()[field]).map((a) => `${a.name}:${a.type}`);
  return { doc, screen, gsi, part, names };
}

/** Types `text` into a field key by key, as `input` events (what a user's typing sends). */
async function typeInto(input: HTMLElement, text: string, from = '') {
  for (let i = 1; i <= text.length; i += 1) {
    await fireEvent.input(input, { target: { value: from + text.slice(0, i) } });
  }
}

describe('the GSI key editor', () => {
  it('shows each part as a numbered list, explains a multi-attribute part and says which entity carries each attribute', async () => {
    const { part } = await openScreen();
    const partition = part('Partition key');
    expect(partition.getByRole('combobox', { name: 'Partition key attribute 1' })).toHaveProperty('value', 'tournamentId');
    expect(partition.getByRole('combobox', { name: 'Partition key attribute 2' })).toHaveProperty('value', 'region');
    expect(partition.getByText(/hashed together as one partition key\. A Query gives each of them by equality/)).toBeTruthy();
    expect(part('Sort key').getByText(/left to right without skipping one, with a range or begins_with only on the last one it uses/)).toBeTruthy();
    expect(partition.getByRole('link', { name: 'Multi-attribute keys (AWS)' }).getAttribute('href')).toBe(
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html',
    );
    // region is on Match and on Player; round only on Match, as a number.
    expect(partition.getByText('Carried by Match (S), Player (S)')).toBeTruthy();
    expect(part('Sort key').getByText('Carried by Match (N)')).toBeTruthy();
  });

  it("offers the entities' string, number and binary attributes as names, with their types and entities", async () => {
    const { screen, part } = await openScreen();
    const input = part('Sort key').getByRole('combobox', { name: 'Sort key attribute 1' });
    const list = screen.container.querySelector(`datalist#${CSS.escape(input.getAttribute('list')!)}`)!;
    const options = [...list.querySelectorAll('option')].map((o) => `${o.value}: ${o.textContent}`);
    expect(options).toEqual(['matchId: S · Match', 'tournamentId: S · Match', 'region: S · Match, Player', 'round: N · Match', 'bracket: S · Match', 'playerId: S · Player']);
    // A BOOL cannot be a key attribute: isFinal is not offered.
    expect(options.some((o) => o.startsWith('isFinal'))).toBe(false);
  });

  it('picking an attribute the entities carry takes its type; the whole typed name is one undo step', async () => {
    const { doc, part, names } = await openScreen((d) => ({
      ...d,
      tables: d.tables.map((t) => ({ ...t, globalSecondaryIndexes: t.globalSecondaryIndexes.map((g) => ({ ...g, sortKey: [{ name: 'GSI1SK', type: 'S' as const }, { name: 'bracket', type: 'S' as const }] })) })),
    }));
    const sort = part('Sort key');
    const input = sort.getByRole('combobox', { name: 'Sort key attribute 1' });
    await fireEvent.focus(input);
    await typeInto(input, 'round');
    expect(names('sortKey')).toEqual(['round:N', 'bracket:S']);
    expect(sort.getByRole('combobox', { name: 'Sort key attribute 1 type' })).toHaveProperty('value', 'N');
    expect(sort.getByText('Carried by Match (N)')).toBeTruthy();
    doc.undo();
    await tick();
    expect(names('sortKey')).toEqual(['GSI1SK:S', 'bracket:S']);
    doc.redo();
    expect(names('sortKey')).toEqual(['round:N', 'bracket:S']);
  });

  it('adds, reorders and removes attributes, each one undo step, with the focus following the attribute', async () => {
    const { doc, part, names } = await openScreen();
    const sort = part('Sort key');

    // Add: a new attribute at the end, its name selected for typing over.
    await fireEvent.click(sort.getByRole('button', { name: 'Add sort key attribute' }));
    await tick();
    expect(names('sortKey')).toEqual(['round:N', 'bracket:S', 'ByTournamentRegionSK3:S']);
    const third = sort.getByRole('combobox', { name: 'Sort key attribute 3' });
    expect(document.activeElement).toBe(third);
    doc.undo();
    await tick();
    expect(names('sortKey')).toEqual(['round:N', 'bracket:S']);

    // Alt+↑ in a name moves its attribute earlier; the focus stays on that attribute's name.
    const second = sort.getByRole('combobox', { name: 'Sort key attribute 2' });
    second.focus();
    await fireEvent.keyDown(second, { key: 'ArrowUp', altKey: true });
    await tick();
    expect(names('sortKey')).toEqual(['bracket:S', 'round:N']);
    expect(document.activeElement).toBe(sort.getByRole('combobox', { name: 'Sort key attribute 1' }));
    expect(sort.getByRole('combobox', { name: 'Sort key attribute 1' })).toHaveProperty('value', 'bracket');
    doc.undo();
    await tick();
    expect(names('sortKey')).toEqual(['round:N', 'bracket:S']);

    // The ↓ button moves it later; at the end of the list the focus goes to the ↑ of the same attribute.
    await fireEvent.click(sort.getByRole('button', { name: 'Move round later in the sort key' }));
    await tick();
    expect(names('sortKey')).toEqual(['bracket:S', 'round:N']);
    expect(document.activeElement).toBe(sort.getByRole('button', { name: 'Move round earlier in the sort key' }));

    // Remove: the next attribute's name gets the focus; removing the last one leaves "Add sort key".
    await fireEvent.click(sort.getByRole('button', { name: 'Remove bracket from the sort key' }));
    await tick();
    expect(names('sortKey')).toEqual(['round:N']);
    expect(document.activeElement).toBe(sort.getByRole('combobox', { name: 'Sort key' }));
    await fireEvent.click(sort.getByRole('button', { name: 'Remove round from the sort key' }));
    await tick();
    expect(doc.design.tables[0]!.globalSecondaryIndexes[0]!.sortKey).toBeUndefined();
    expect(document.activeElement).toBe(sort.getByRole('button', { name: 'Add sort key' }));
    doc.undo();
    doc.undo();
    expect(names('sortKey')).toEqual(['bracket:S', 'round:N']);
  });

  it('keeps at least one partition key attribute and at most four per part', async () => {
    const { part, names } = await openScreen();
    const partition = part('Partition key');
    expect(partition.queryAllByRole('button', { name: /^Remove / })).toHaveLength(2);
    await fireEvent.click(partition.getByRole('button', { name: 'Remove region from the partition key' }));
    await tick();
    expect(names('partitionKey')).toEqual(['tournamentId:S']);
    expect(partition.queryByRole('button', { name: /^Remove / })).toBeNull();
    const add = partition.getByRole('button', { name: 'Add partition key attribute' });
    for (let i = 0; i < 3; i += 1) await fireEvent.click(add);
    await tick();
    expect(names('partitionKey')).toHaveLength(4);
    expect(add).toHaveProperty('disabled', true);
    expect(partition.getByText('4 of 4: the most a key part takes')).toBeTruthy();
  });

  it('shows each problem at the attribute it concerns: five attributes, one twice, a type the table gives another, an entity carrying it as another type', async () => {
    const five = [
      { name: 'tournamentId', type: 'S' as const },
      { name: 'region', type: 'S' as const },
      { name: 'season', type: 'S' as const },
      { name: 'tournamentId', type: 'S' as const },
      { name: 'PK', type: 'N' as const },
    ];
    const { part } = await openScreen((d) => ({
      ...d,
      tables: d.tables.map((t) => ({ ...t, globalSecondaryIndexes: t.globalSecondaryIndexes.map((g) => ({ ...g, partitionKey: five, sortKey: [{ name: 'round', type: 'S' as const }, { name: 'bracket', type: 'S' as const }] })) })),
    }));
    const partition = part('Partition key');
    // The part: more than four attributes, said once under the list.
    expect(partition.getByText(/has a partition key of 5 attributes .*expected at most 4/)).toBeTruthy();
    // The fourth names tournamentId again: its own field is marked and says so, the first is not.
    const fourth = partition.getByRole('combobox', { name: 'Partition key attribute 4' });
    expect(fourth.getAttribute('aria-invalid')).toBe('true');
    expect(partition.getByRole('combobox', { name: 'Partition key attribute 1' }).getAttribute('aria-invalid')).toBe('false');
    const fourthErrors = document.getElementById(fourth.getAttribute('aria-describedby')!.split(' ').at(-1)!)!;
    expect(fourthErrors.textContent).toMatch(/names "tournamentId" twice in its key/);
    // The table's own partition key, reused with another type: said at that attribute's type.
    const pkType = partition.getByRole('combobox', { name: 'Partition key attribute 5 type' });
    expect(pkType.getAttribute('aria-invalid')).toBe('true');
    expect(partition.getByText(/Key attribute "PK" is N as the partition key of GSI "ByTournamentRegion" but S as the partition key of table/)).toBeTruthy();
    // Match carries round as N; the key says S: said beside the key, not only on the Entities screen.
    const sort = part('Sort key');
    expect(sort.getByText(/"Match" carries "round" as N, but GSI "ByTournamentRegion" keys on it as S/)).toBeTruthy();
    expect(sort.queryByText('Carried by Match (N)')).toBeNull();
    expect(sort.getByText('Carried by Match (S)')).toBeTruthy();
  });
});
