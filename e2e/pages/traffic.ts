/** A pattern's traffic in its editor (average, daily profile, hottest-key share, spikes), and its on-demand cost on the Costs screen. */
import { type Locator, type Page } from '@playwright/test';

export class TrafficPage {
  constructor(readonly page: Page) {}

  get fieldset(): Locator {
    return this.page.getByTestId('pattern-traffic');
  }

  get shape(): Locator {
    return this.fieldset.getByLabel('Daily shape');
  }

  get average(): Locator {
    return this.fieldset.getByLabel('Average requests per second');
  }

  get hotKeyShare(): Locator {
    return this.fieldset.getByLabel('Share on the hottest key (%)');
  }

  get hottestDefault(): Locator {
    return this.page.getByTestId('hottest-key-default');
  }

  get summary(): Locator {
    return this.page.getByTestId('traffic-summary');
  }

  /** The 24 hourly multipliers: one cell per hour, 00 first. */
  hours(): Locator {
    return this.page.getByTestId('profile-hours').locator('.hour');
  }

  /** A custom profile's field for hour `hour`. */
  hourField(hour: number): Locator {
    return this.page.getByLabel(`Multiplier at ${String(hour).padStart(2, '0')}:00`);
  }

  spike(n: number): Locator {
    return this.fieldset.getByRole('group', { name: `Spike ${n}` });
  }

  /** Scrolls the traffic fields into view (before a screenshot). */
  async reveal(): Promise<void> {
    await this.fieldset.scrollIntoViewIfNeeded();
  }

  async setAverage(perSecond: number): Promise<void> {
    await this.average.fill(String(perSecond));
    await this.average.blur();
  }

  async addSpike(): Promise<void> {
    await this.fieldset.getByRole('button', { name: 'Add spike' }).click();
  }

  /** The on-demand dollars of a pattern in the Costs screen's table, as shown. */
  onDemand(pattern: string): Locator {
    return this.page.getByTestId('pattern-cost-row').filter({ has: this.page.getByRole('cell', { name: pattern, exact: true }) }).getByRole('cell').nth(3);
  }
}
