/**
 * A modeler's first session, end to end, at 1280×800: a small ticketing application modeled from
 * nothing, access patterns first; the design sheet exported as Markdown; everything reached through
 * the command palette; the dark theme, checked by axe. The fixture fails the test on any page error,
 * console error or Svelte warning along the way.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { DesignSheetPage, ExportDialog } from './pages/formats.ts';
import { Appearance, KeyplanPage, Palette, PatternsPage } from './pages/keyplan.ts';

test.use({ viewport: { width: 1280, height: 800 } });

test('a ticketing app from nothing: patterns first, the design sheet as Markdown, the palette, dark mode that passes axe', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  const palette = new Palette(page);
  const sheet = new DesignSheetPage(page);
  const exporter = new ExportDialog(page);
  await app.open(host.url);

  // A new design, from the palette: it opens on Access patterns.
  await palette.run('new design', /^New design/);
  await expect(page.getByRole('heading', { name: 'Access patterns' })).toBeVisible();
  await app.designName.fill('Ticketing');
  await app.designName.blur();

  // The first pattern is written before any entity exists; its entity is created from it.
  await patterns.add();
  await patterns.rename('Get ticket');
  await patterns.setOperation('get one item');
  await patterns.typeKnown(['ticketId']);
  await expect(patterns.badge('Get ticket')).toHaveText('Needs key design');
  await patterns.createEntity('Ticket');
  await expect(patterns.needsKeyDesign('Get ticket')).toHaveCount(0);
  expect(await patterns.perRequest('Get ticket')).toBeGreaterThan(0);
  await patterns.closePanel();

  // A second pattern about the same entity, picked from the list.
  await patterns.add();
  await patterns.rename('Cancel ticket');
  await patterns.setOperation('write: delete');
  await patterns.typeKnown(['ticketId']);
  await patterns.setEntity('Ticket');
  await expect(patterns.needsKeyDesign('Cancel ticket')).toHaveCount(0);
  await patterns.closePanel();
  await expect(patterns.rows()).toHaveCount(2);
  await expect(page.getByTestId('problem-count')).toHaveText('No problems');
  await expect.poll(() => app.horizontalOverflows()).toEqual([]);
  await steps.shot('two-patterns');

  // The design sheet, from the palette: both patterns, each with its operation; exported as Markdown.
  await palette.run('sheet', /^Go to Design sheet/);
  await expect(sheet.patterns()).toHaveCount(2);
  await expect(sheet.servedBy('Get ticket')).toContainText('GetItem');
  await expect(sheet.servedBy('Cancel ticket')).toContainText('DeleteItem');
  expect(await sheet.sidewaysOverflow()).toBe(0);
  await steps.shot('design-sheet');
  await sheet.exportMarkdown();
  await expect(exporter.preview).toHaveAttribute('data-ready', 'true');
  await expect(exporter.fileName).toHaveValue('ticketing.design-sheet.md');
  await exporter.save();
  await expect(exporter.message).toContainText('Saved ticketing.design-sheet.md');
  await exporter.close();
  const markdown = await readFile(join(host.workspaceDir, 'ticketing.design-sheet.md'), 'utf8');
  expect(markdown).toMatch(/^# Design sheet: Ticketing\n/);
  expect(markdown).toContain('| Ticket |');
  expect(markdown).toMatch(/\| 1 \| Get ticket — .*\| GetItem on table \|/);

  // Dark mode from the palette; the sheet and the patterns screen pass axe in it.
  await palette.run('dark mode', /^Toggle dark mode/);
  await new Appearance(page).expectShown('dark');
  for (const screen of ['Design sheet', 'Access patterns'] as const) {
    await app.showScreen(screen);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${screen}: ${v.id} ${v.nodes[0]?.target.join(' ')}`);
    expect(serious).toEqual([]);
    await expect.poll(() => app.horizontalOverflows()).toEqual([]);
    await steps.shot(`dark-${screen}`);
  }
});
