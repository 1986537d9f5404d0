/**
 * Accessibility: every screen, in the light and the dark theme, passes axe-core's WCAG 2.1 A and AA
 * rules with no serious or critical violation, and so do the window's own dialogs and the command
 * palette. The dark theme is reached the way most users reach it: the system asks for it
 * (`prefers-color-scheme: dark`) and the theme follows.
 *
 * Two designs: the e-commerce example (five entities, two GSIs) and one whose hot key raises
 * warnings, so the warning and error colours are checked too.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { Appearance, JsonTyping, KeyboardWalk, KeyplanPage, Palette, PatternsPage } from './pages/keyplan.ts';
import { ImportDialog, JsonPage } from './pages/formats.ts';

/** The design's name is on line 4 of its JSON (after `{`, formatVersion and id). */
const NAME_LINE = 4;

interface Violation {
  where: string;
  rule: string;
  impact: string;
  targets: string[];
  summary: string;
}

async function seriousViolations(page: Page, where: string): Promise<Violation[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      where,
      rule: v.id,
      impact: v.impact ?? '',
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      summary: v.nodes[0]?.failureSummary?.split('\n').slice(0, 3).join(' ') ?? v.help,
    }));
}

const data = join(import.meta.dirname, 'data');

/**
 * Each scheme's pages in three tests (the window's dialogs, the example's screens, a design with a
 * hot key), so that they run side by side and each stays well inside its time: axe takes seconds a page.
 */
for (const scheme of ['light', 'dark'] as const) {
  /** Opens the app in `scheme` and returns its page object and a checker that collects violations. */
  const start = async (page: Page, url: string) => {
    await page.emulateMedia({ colorScheme: scheme });
    const app = new KeyplanPage(page);
    await app.open(url);
    await new Appearance(page).expectShown(scheme);
    const found: Violation[] = [];
    const check = async (where: string) => found.push(...(await seriousViolations(page, `${where} (${scheme})`)));
    return { app, found, check };
  };

  test(`the start screen and the window's dialogs pass axe with no serious or critical violation (${scheme})`, async ({ page, host }) => {
    const { found, check } = await start(page, host.url);
    await check('Start');
    await page.getByRole('button', { name: 'Open…' }).click();
    await expect(page.getByRole('dialog', { name: 'Open a design' })).toBeVisible();
    await check('Open dialog');
    await page.keyboard.press('Escape');
    const importDialog = new ImportDialog(page);
    await importDialog.open();
    await importDialog.paste('{ "ModelName": ');
    await expect(importDialog.result).toBeVisible();
    await check('Import dialog with a problem');
    await importDialog.cancel();
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  });

  test(`every screen of the e-commerce example passes axe with no serious or critical violation (${scheme})`, async ({ page, host, steps }) => {
    test.setTimeout(180_000);
    const { app, found, check } = await start(page, host.url);
    await app.openExample('E-commerce');
    await expect(app.designName).not.toHaveValue('');
    for (const screen of await app.screenNames()) {
      await app.showScreen(screen);
      await check(`${screen}, e-commerce example`);
    }
    await steps.shot(`last-screen-${scheme}`);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  });

  test(`warnings, a derivation, Raw JSON with invalid text and the palette pass axe with no serious or critical violation (${scheme})`, async ({ page, host, steps }) => {
    test.setTimeout(120_000);
    const { app, found, check } = await start(page, host.url);
    // A hot key: warnings on Access patterns and Costs, a hot partition, and a derivation to open.
    await mkdir(host.workspaceDir, { recursive: true });
    await copyFile(join(data, 'orders-by-date.keyplan.json'), join(host.workspaceDir, 'orders.keyplan.json'));
    await app.openFile('orders.keyplan.json');
    await expect(app.designName).toHaveValue('Orders by date');
    for (const screen of ['Partitions', 'Costs', 'Access patterns']) {
      await app.showScreen(screen);
      await check(`${screen}, a design with a hot key`);
    }
    const derivation = await new PatternsPage(page).explainPerRequest('Place an order');
    await expect(derivation).toBeVisible();
    await check('Derivation dialog');
    await page.keyboard.press('Escape');
    await expect(derivation).toBeHidden();

    // Raw JSON holding text that is not applied: the status and the bar that offers the current design.
    const json = new JsonPage(page);
    await json.show();
    await new JsonTyping(page).typeAtEndOfLine(NAME_LINE, ',');
    await expect(json.status).toHaveAttribute('data-state', 'syntax');
    await check('Raw JSON with invalid text');
    await new JsonTyping(page).showCurrentDesign.click();
    await json.inSync();

    const palette = new Palette(page);
    await palette.open();
    await palette.input.fill('go');
    await check('Command palette');
    await palette.close();
    await steps.shot(`after-palette-${scheme}`);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  });
}

test('every control of every screen is reached with Tab and shows where the focus is', async ({ page, host }) => {
  test.setTimeout(180_000);
  const app = new KeyplanPage(page);
  const keyboard = new KeyboardWalk(page);
  await app.open(host.url);
  const found: Array<{ screen: string; unreachable: string[]; noVisibleFocus: string[] }> = [];
  const walk = async (screen: string) => {
    const { controls, unreachable, noVisibleFocus } = await keyboard.walk();
    expect(controls, `${screen}: no controls found`).toBeGreaterThan(0);
    if (unreachable.length > 0 || noVisibleFocus.length > 0) found.push({ screen, unreachable, noVisibleFocus });
  };
  await walk('Start');
  await app.openExample('E-commerce');
  await expect(app.designName).not.toHaveValue('');
  for (const screen of await app.screenNames()) {
    await app.showScreen(screen);
    await walk(screen);
  }
  expect(found, JSON.stringify(found, null, 2)).toEqual([]);
});
