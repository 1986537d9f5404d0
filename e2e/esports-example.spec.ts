import { test, expect } from './fixtures/app.ts';
import { DataPage } from './pages/data.ts';
import { KeyplanPage } from './pages/keyplan.ts';

test('the esports example lays out its multi-attribute GSI: a collection per tournament + region, matches only, found by the joined key', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const data = new DataPage(page);
  await app.open(host.url);
  await steps.shot('start-screen-examples');
  await app.openExample('Esports tournament');
  await app.show('Data');

  await data.generate();
  await expect(data.summary()).toContainText('MatchesByTournamentRegion');
  await data.selectView(/MatchesByTournamentRegion/);
  // The partition key is tournamentId and region hashed together: one collection per pair.
  await expect(data.collections().first()).toHaveAttribute('data-pk', /^t-\d{4} \+ (EU|NA|APAC|LATAM)$/);
  // Standings carry tournamentId and region but no round or bracket: only matches are in the index.
  await expect(data.rows().first()).toHaveAttribute('data-entity', 'Match');
  await expect(data.rows().first()).toHaveAttribute('data-sk', /^[1-8] \+ (upper|lower)-[ab]$/);
  await steps.shot('multi-attribute-gsi');

  await data.find('t-0042 + NA');
  await expect(data.collections().filter({ hasText: 't-0042 + NA' })).toBeInViewport();
  await steps.shot('multi-attribute-gsi-found');
});
