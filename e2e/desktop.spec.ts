/**
 * Desktop conventions: the command palette (Ctrl/Cmd+K) over every command and screen, the dark
 * theme and its toggle, and screens that open at their top.
 */
import { test, expect } from './fixtures/app.ts';
import { Appearance, JsonTyping, KeyplanPage, Palette } from './pages/keyplan.ts';
import { JsonPage } from './pages/formats.ts';

/** The design's name is on line 4 of its JSON (after `{`, formatVersion and id). */
const NAME_LINE = 4;

test('the command palette finds commands and screens by a few letters, and is driven from the keyboard', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const palette = new Palette(page);
  await app.open(host.url);
  await app.openExample('E-commerce');
  await expect(app.designName).not.toHaveValue('');

  await palette.open();
  await expect(palette.dialog).toBeVisible();
  // Shortcut hints beside the commands that have one.
  await expect(palette.options().filter({ hasText: /^Save as…/ })).toContainText('Ctrl+Shift+S');
  await palette.input.fill('gtc');
  await expect(palette.options().first()).toHaveText(/^Go to Costs/);
  await expect(palette.activeOption).toHaveText(/^Go to Costs/);
  await steps.shot('palette-gtc');

  // Arrows move the active option; the combobox names it (aria-activedescendant).
  await page.keyboard.press('ArrowDown');
  const second = palette.options().nth(1);
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(palette.input).toHaveAttribute('aria-activedescendant', (await second.getAttribute('id'))!);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(palette.dialog).toBeHidden();
  await expect(page.getByRole('navigation').getByRole('button', { name: 'Costs' })).toHaveAttribute('aria-current', 'page');

  // Escape closes it and gives the focus back.
  await app.designName.focus();
  await palette.open();
  await palette.close();
  await expect(app.designName).toBeFocused();

  // A command that needs a value asks for it.
  await palette.choose('checkpoint', /^Keep a checkpoint/);
  await expect(palette.valueField('Checkpoint name')).toBeFocused();
  await page.keyboard.type('Before GSI3');
  await page.keyboard.press('Enter');
  await expect(palette.dialog).toBeHidden();
  await expect(app.notice).toContainText('Checkpoint "Before GSI3" kept.');

  // Actions too: duplicate the design as an alternative, then switch back to the original by name.
  await palette.run('duplicate', /^Duplicate as an alternative/);
  await expect(app.designName).toHaveValue(/\(alternative\)$/);
  await palette.run('switch e-commerce single table', /^Switch to E-commerce single table Open designs/);
  await expect(app.designName).toHaveValue('E-commerce single table');

  // Nothing matches: the palette says so.
  await palette.open();
  await palette.input.fill('zzzqqq');
  await expect(palette.options()).toHaveCount(0);
  await expect(palette.dialog.getByRole('status')).toContainText('No command matches');
  await palette.close();
});

test('Ctrl/Cmd+K opens the palette from inside the Raw JSON editor too', async ({ page, host }) => {
  const app = new KeyplanPage(page);
  const json = new JsonPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce');
  await json.show();
  await new JsonTyping(page).typeAtEndOfLine(NAME_LINE, '');
  await new Palette(page).run('go to data', /^Go to Data/);
  await expect(page.getByRole('navigation').getByRole('button', { name: 'Data' })).toHaveAttribute('aria-current', 'page');
});

test('the theme follows the system, a chosen one is kept after a reload, and the palette toggles it', async ({ page, host, steps }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const app = new KeyplanPage(page);
  const appearance = new Appearance(page);
  const theme = appearance.picker;
  await app.open(host.url);
  await appearance.expectShown('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await appearance.expectShown('light');

  await theme.selectOption({ label: 'Dark' });
  await appearance.expectShown('dark');
  await app.openExample('E-commerce');
  await steps.shot('dark');
  await page.reload();
  await app.ready();
  await appearance.expectShown('dark');
  await expect(theme).toHaveValue('dark');

  await new Palette(page).run('toggle dark', /^Toggle dark mode/);
  await appearance.expectShown('light');
  await expect(theme).toHaveValue('light');
  await new Palette(page).run('theme system', /^Theme: follow the system/);
  await expect(theme).toHaveValue('system');
});

test('each screen opens scrolled to its top', async ({ page, host }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce');
  await app.show('Entities & keys');
  const content = app.content;
  await content.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect.poll(() => content.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
  await app.show('Costs');
  await expect.poll(() => content.evaluate((el) => el.scrollTop)).toBe(0);
  await content.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect.poll(() => content.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
  await app.show('Entities & keys');
  await expect.poll(() => content.evaluate((el) => el.scrollTop)).toBe(0);
});
