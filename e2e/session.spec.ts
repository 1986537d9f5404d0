/**
 * The browser-mode session as a user meets it: a link opens Keyplan once; the same link opened again
 * in that browser (a reload, the window reopened after a crash) goes on with the token the first
 * opening stored, without spending the link again; in another browser, where nothing is stored, the
 * spent link is refused with what to do instead.
 */
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';

test('a link opened again in the same browser goes on; in another browser it is refused with what to do', async ({ page, context, browser, host, consoleGuard }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  // The spent ticket leaves the address bar once it is used.
  expect(page.url()).not.toContain('ticket=');

  const again = new KeyplanPage(await context.newPage());
  await again.open(host.url);
  await expect(again.page.locator('[data-app-state="offline"]')).toHaveCount(0);
  expect(again.page.url()).not.toContain('ticket=');

  // Another browser profile holds no token: the spent link is refused (the host answers 403, which the browser logs).
  consoleGuard.allow(/status of 403 \(Forbidden\).*\/session/);
  const other = await browser.newContext();
  const stranger = await other.newPage();
  consoleGuard.watch(stranger);
  await stranger.goto(host.url);
  await expect(stranger.locator('[data-app-state="offline"]')).toContainText('This link has already been used or has expired');
  await expect(stranger.locator('[data-app-state="offline"]')).toContainText('press Enter in that terminal for a fresh one');
  await other.close();
});
