/**
 * The export dialog never drops a setting silently: a format that cannot hold one of the design's
 * settings says so under its tab, one line per setting; a format that holds them all says nothing.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';
import { ExportDialogWithNotes } from './pages/export-notes.ts';

const fixture = join(import.meta.dirname, '../src-shared/formats/__fixtures__/multi-attribute.keyplan.json');

test('a multi-attribute design: NoSQL Workbench and the CLI input list what they leave out, CloudFormation writes it all', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const exporter = new ExportDialogWithNotes(page);
  await app.open(host.url);
  await mkdir(host.workspaceDir, { recursive: true });
  await copyFile(fixture, join(host.workspaceDir, 'tournament.keyplan.json'));
  await app.openFile('tournament.keyplan.json');
  await expect(app.designName).toHaveValue('Tournament matches');

  await exporter.open();
  // The preview shows the file's first lines (the editor renders what is in view).
  await expect(exporter.preview).toContainText('AWS::DynamoDB::Table');
  await expect(exporter.lostNote).toBeHidden();

  await exporter.choose('NoSQL Workbench');
  await expect(exporter.lostNote).toContainText('Not in the NoSQL Workbench model');
  await expect(exporter.lostSettings).toHaveCount(10);
  await expect(exporter.lostSettings.first()).toContainText('GSI ByTournamentRegion (partition key tournamentId + region, sort key round + bracket) is left out');
  await expect(exporter.lostSettings.filter({ hasText: 'warm throughput, 24,000 read / 8,000 write units per second' })).toHaveCount(1);
  await expect(exporter.lostSettings.filter({ hasText: 'point-in-time recovery, 7 days' })).toHaveCount(1);
  await expect(exporter.preview).toContainText('ModelName');
  await steps.shot('nosql-workbench-note');

  await exporter.choose('AWS CLI input');
  await expect(exporter.lostSettings).toHaveText([
    'TournamentMatches: point-in-time recovery, 7 days — aws dynamodb update-continuous-backups',
    'TournamentMatches: Contributor Insights, THROTTLED_KEYS — aws dynamodb update-contributor-insights',
  ]);
  await steps.shot('cli-input-note');

  await exporter.choose('Terraform');
  await expect(exporter.lostNote).toBeHidden();
  await expect(exporter.preview).toContainText('required_providers');
  await steps.shot('terraform');
  await exporter.close();
});
