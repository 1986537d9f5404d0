import { test, expect } from './fixtures/app.ts';
import { KeyplanPage, PatternsPage } from './pages/keyplan.ts';
import { TrafficPage } from './pages/traffic.ts';

// "Get user profile" in the example: a GetItem of a 174 B user, 0.5 RCU eventually consistent, at 500/s peak.
// On-demand: 0.5 × rate × 3,600 s × 730 h ÷ 1,000,000 × $0.125 per million read request units.
/** The dollars a figure shows, followed by the * that marks its assumptions. */
const usd = (dollars: string) => new RegExp(`^\\$${dollars.replace('.', '\\.')}\\*?$`);
const onDemandUsd = (ratePerSecond: number) => (0.5 * ratePerSecond * 3600 * 730 * 0.125) / 1e6;

test('a pattern’s average rate and daily profile price its on-demand requests; the peak sizes capacity', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  const traffic = new TrafficPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');

  // At the peak all month: 250 RRU/s × 2,628,000 s = 657,000,000 RRU × $0.125 per million = $82.125.
  expect(onDemandUsd(500)).toBeCloseTo(82.125, 9);
  await app.show('Costs');
  await expect(traffic.onDemand('Get user profile')).toHaveText(usd('82.13'));

  // An average of 200/s below the 500/s peak: 0.5 × 200 × 2,628,000 ÷ 10^6 × $0.125 = $32.85, $49.275 less.
  await app.show('Access patterns');
  await patterns.openPattern('Get user profile');
  await expect(traffic.average).toHaveAttribute('placeholder', 'the peak, 500');
  await traffic.setAverage(200);
  await expect(traffic.summary).toContainText('priced from the average rate, 200/s');
  await expect(traffic.summary).toContainText('sized from the peak, 500/s');
  // The hottest key's default share: 100,000 users, even: each takes 0.001 %, shown as <0.1%.
  await expect(traffic.hotKeyShare).toHaveAttribute('placeholder', 'default <0.1%');
  await expect(traffic.hottestDefault).toContainText('USER#');
  await traffic.reveal();
  await steps.shot('average-set');
  await app.show('Costs');
  expect(onDemandUsd(500) - onDemandUsd(200)).toBeCloseTo(49.275, 9);
  await expect(traffic.onDemand('Get user profile')).toHaveText(usd('32.85'));
  // Its derivation says which rate it is priced from.
  await traffic.onDemand('Get user profile').getByRole('button').click();
  await expect(page.getByRole('dialog')).toContainText('Priced from the average rate 200/s');
  await page.keyboard.press('Escape');

  // Business hours instead: 24 multipliers shown; their mean 11.8 ÷ 24 gives 245.83/s, $40.378125 a month.
  await app.show('Access patterns');
  await patterns.openPattern('Get user profile');
  await traffic.shape.selectOption({ label: 'Business hours (09–17)' });
  await expect(traffic.hours()).toHaveCount(24);
  await expect(traffic.hours().nth(0)).toContainText('00');
  await expect(traffic.hours().nth(0)).toContainText('0.1');
  await expect(traffic.hours().nth(12)).toContainText('1');
  await expect(traffic.average).toBeHidden();
  await expect(traffic.summary).toContainText('245.83/s');
  await traffic.reveal();
  await steps.shot('business-hours');
  await app.show('Costs');
  expect(onDemandUsd((500 * 11.8) / 24)).toBeCloseTo(40.378125, 9);
  await expect(traffic.onDemand('Get user profile')).toHaveText(usd('40.38'));

  // Custom, from the same hours: 03:00 raised from 0.1 to 1 adds 0.9 ÷ 24 of the peak: 264.58/s, $43.4578125.
  await app.show('Access patterns');
  await patterns.openPattern('Get user profile');
  await traffic.shape.selectOption({ label: 'Custom' });
  await expect(traffic.hourField(3)).toHaveValue('0.1');
  await traffic.hourField(3).fill('1');
  await expect(traffic.summary).toContainText('264.58/s');
  // A spike of 2× for 15 minutes at the busiest hour: the peak becomes 1,000/s.
  await traffic.addSpike();
  await expect(traffic.spike(1)).toBeVisible();
  await expect(traffic.summary).toContainText('sized from the peak, 1,000/s');
  await steps.shot('custom-with-spike');
  // 264.583… + 500 × 15 ÷ 1,440 (the spike's extra) = 269.79/s.
  await expect(traffic.summary).toContainText('269.79/s');
  await traffic.spike(1).getByRole('button', { name: 'Remove spike 1' }).click();
  await expect(traffic.spike(1)).toHaveCount(0);
  await app.show('Costs');
  expect(onDemandUsd((500 * 12.7) / 24)).toBeCloseTo(43.4578125, 9);
  await expect(traffic.onDemand('Get user profile')).toHaveText(usd('43.46'));
  await steps.shot('costs-after-profile');
});
