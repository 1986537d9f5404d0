/**
 * Relations on the Entities & keys screen: an attribute named after an entity is a reference to it
 * by default, an attribute inherited through a reference says so where it is edited, and turning the
 * inheritance off stores an explicit opt-out in the design (on again removes it). The GSI's share of
 * open issues reads the enum's values (a third), never "assumed unique". Real screen, workspace and
 * host handlers in memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, render, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, beforeEach, expect, it } from 'vitest';
import EntitiesScreen from '../src-renderer/features/entities/EntitiesScreen.svelte';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import { issueTracker } from '../src-shared/workload-stats/__fixtures__/issue-tracker.ts';
import ScreenHarness from './support/ScreenHarness.svelte';
import { startWorkspace } from './support/workspace.ts';

let dir: string;
let workspace: Workspace | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-entity-relations-'));
});

afterEach(async () => {
  cleanup();
  workspace?.dispose();
  workspace = undefined;
  await rm(dir, { recursive: true, force: true });
});

it('shows Issue.organizationId inherited through projectId, turns it off and on, and GSI3 holding a third of issues', async () => {
  workspace = await startWorkspace(dir, `keyplan-test-${Math.random().toString(36).slice(2)}`);
  workspace.files.newDesign();
  const doc = workspace.active!;
  workspace.edit((d) => ({ ...d, tables: [{ ...issueTracker(), id: d.tables[0]!.id }] }));
  const screen = render(ScreenHarness, { props: { workspace, screen: EntitiesScreen, doc } });
  await fireEvent.click(within(screen.getByRole('list', { name: 'Entities' })).getByRole('button', { name: 'Issue' }));
  await tick();
  const issue = within(screen.getByRole('region', { name: 'Entity Issue' }));
  expect(issue.getByRole('button', { name: /^Values of projectId: auto: reference to Project$/ })).toBeTruthy();
  await fireEvent.click(issue.getByRole('button', { name: /^Values of organizationId: auto: inherited via projectId$/ }));
  await tick();
  const box = issue.getByRole('checkbox', { name: 'organizationId inherited through projectId' }) as HTMLInputElement;
  expect(box.checked).toBe(true);
  expect(issue.getByTestId('inheritance-organizationId').textContent).toMatch(/Inherited through projectId: each item holds its Project's organizationId/);

  await fireEvent.click(box);
  await tick();
  const stored = () => workspace!.active!.design.tables[0]!.entities[2]!.attributes.find((a) => a.name === 'organizationId')!.generator;
  expect(stored()).toEqual({ kind: 'ref', entity: 'e-org', independent: true });
  expect(issue.getByTestId('inheritance-organizationId').textContent).toMatch(/Drawn on its own: not inherited through projectId/);
  await fireEvent.click(issue.getByRole('checkbox', { name: 'organizationId inherited through projectId' }));
  await tick();
  expect(stored()).toEqual({ kind: 'ref', entity: 'e-org' });

  const membership = within(issue.getByRole('region', { name: 'Indexes' })).getByTestId('membership').textContent ?? '';
  expect(membership).toMatch(/^In it: 33% of Issue items/);
  expect(membership).not.toMatch(/assumed unique/);
});
