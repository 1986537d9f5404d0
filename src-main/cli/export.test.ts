/**
 * `keyplan export` reads the one registry of export formats the export dialog reads
 * (`src-shared/formats/registry.ts`): every format the dialog offers, `--to` takes under the same id
 * (the dialog's side is `src-renderer/state/export.test.ts`), and the design sheet prints as it exports.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  EXPORT_FORMATS,
  exportNotes,
  findExportFormat,
  toCloudFormation,
  toDesignSheetHtml,
  toDesignSheetMarkdown,
} from '../../src-shared/formats/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(root, 'examples/ecommerce.keyplan.json');
const MULTI_ATTRIBUTE = join(root, 'src-shared/formats/__fixtures__/multi-attribute.keyplan.json');

async function keyplan(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd });
  return { code, stdout, stderr };
}

const example = async (): Promise<Design> => JSON.parse(await readFile(EXAMPLE, 'utf8')) as Design;

describe('keyplan export and the export dialog read one list of formats', () => {
  test('--help lists the registry\'s formats, in its order, and its aliases', async () => {
    const help = (await keyplan(['export', '--help'])).stdout;
    const block = help.slice(help.indexOf('Formats (--to)'), help.indexOf('Aliases:'));
    const listed = block.split('\n').slice(1).filter((l) => l.trim() !== '').map((l) => l.trim().split(/\s+/)[0]);
    expect(listed).toEqual(EXPORT_FORMATS.map((f) => f.id));
    expect(help).toMatch(/^ {2}cloudformation-yaml\s+the same as cloudformation$/m);
  });

  test.each(EXPORT_FORMATS.map((f) => [f.id] as const))('--to %s exports the example, with on stderr only what the file leaves out', async (id) => {
    const run = await keyplan(['export', EXAMPLE, '--to', id, '--items', '5']);
    const notes = exportNotes(findExportFormat(id)!, await example());
    expect(run.stderr).toBe(notes ? `keyplan: note: ${notes.heading}\n${notes.lines.map((l) => `  ${l}\n`).join('')}` : '');
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
  });

  test('an unknown format lists every format --to takes', async () => {
    const run = await keyplan(['export', EXAMPLE, '--to', 'pdf']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`unknown format "pdf" for --to; expected one of: ${EXPORT_FORMATS.map((f) => f.id).join(', ')}`);
  });

  test('cloudformation-yaml, the dialog\'s old id, is the same as cloudformation', async () => {
    const run = await keyplan(['export', EXAMPLE, '--to', 'cloudformation-yaml']);
    expect(run).toEqual({ code: 0, stdout: toCloudFormation(await example()), stderr: '' });
  });
});

describe('keyplan export --to markdown and --to html', () => {
  test('print the design sheet the export dialog saves', async () => {
    const design = await example();
    expect(await keyplan(['export', EXAMPLE, '--to', 'markdown'])).toEqual({ code: 0, stdout: toDesignSheetMarkdown(design), stderr: '' });
    expect(await keyplan(['export', EXAMPLE, '--to', 'md'])).toEqual({ code: 0, stdout: toDesignSheetMarkdown(design), stderr: '' });
    expect(await keyplan(['export', EXAMPLE, '--to', 'html'])).toEqual({ code: 0, stdout: toDesignSheetHtml(design), stderr: '' });
  });

  test('the Markdown holds the entity chart and the access-pattern chart with the costs', async () => {
    const { stdout } = await keyplan(['export', EXAMPLE, '--to', 'markdown']);
    expect(stdout).toMatch(/^# Design sheet: E-commerce single table\n/);
    expect(stdout).toContain('| Order | `USER#{userId}` | `ORDER#{orderDate}#{orderId}` | `ORDER#{orderId}` | `ORDER` |');
    expect(stdout).toMatch(/^\| 6 \| Get order by id — Order · query · 150\/s · eventual \| Query on GSI GSI1 \| `GSI1PK = "ORDER#\{orderId\}" AND GSI1SK = "ORDER"` \| — \| 75 RCU\/s .* \| \$24\.64 \| \$7\.12 \|$/m);
  });

  test('--out writes the file', async () => {
    const dir = await makeTempDir('keyplan-sheet-');
    const run = await keyplan(['export', EXAMPLE, '--to', 'html', '--out', 'sheet.html'], dir);
    expect(run).toEqual({ code: 0, stdout: 'Wrote sheet.html\n', stderr: '' });
    expect(await readFile(join(dir, 'sheet.html'), 'utf8')).toBe(toDesignSheetHtml(await example()));
  });
});

describe('keyplan export says what a format cannot hold', () => {
  test('--to nosql-workbench prints one line per lost setting on stderr, naming the table, index and value', async () => {
    const dir = await makeTempDir('keyplan-export-notes-');
    const out = join(dir, 'model.json');
    const run = await keyplan(['export', MULTI_ATTRIBUTE, '--to', 'nosql-workbench', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Wrote');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('keyplan: note: Not in the NoSQL Workbench model, which has no place for them:');
    expect(lines.slice(1)).toEqual([
      "  TournamentMatches: GSI ByTournamentRegion (partition key tournamentId + region, sort key round + bracket) is left out, a model's index key has one attribute per part; with it, its warm throughput 15,000 read / 5,000 write units per second",
      '  TournamentMatches: on-demand maximum, at most 30,000 read / 10,000 write request units per second',
      '  TournamentMatches: warm throughput, 24,000 read / 8,000 write units per second',
      '  TournamentMatches, GSI ByPlayer: on-demand maximum, at most 2,000 read / 800 write request units per second',
      '  TournamentMatches: point-in-time recovery, 7 days',
      '  TournamentMatches: encryption with the customer managed KMS key arn:aws:kms:us-east-1:123456789012:key/5678efgh-56ef-78gh-90ij-5678901234cd',
      '  TournamentMatches: deletion protection on',
      '  TournamentMatches: Contributor Insights, THROTTLED_KEYS',
      '  TournamentMatches: tags env=prod, team=esports',
      '  TournamentMatches: 3 access patterns',
    ]);
    const model = JSON.parse(await readFile(out, 'utf8')) as { DataModel: Array<{ GlobalSecondaryIndexes: Array<{ IndexName: string }> }> };
    expect(model.DataModel[0]!.GlobalSecondaryIndexes.map((g) => g.IndexName)).toEqual(['ByPlayer']);
  });

  test('--to cli-input names the settings create-table cannot take, with the call that sets each', async () => {
    const run = await keyplan(['export', MULTI_ATTRIBUTE, '--to', 'cli-input']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'keyplan: note: Not in the create-table input, which has no parameter for them: set each with its call once the table is ACTIVE.\n' +
        '  TournamentMatches: point-in-time recovery, 7 days — aws dynamodb update-continuous-backups\n' +
        '  TournamentMatches: Contributor Insights, THROTTLED_KEYS — aws dynamodb update-contributor-insights\n',
    );
  });

  test('--to cloudformation leaves nothing out, so prints no note', async () => {
    const run = await keyplan(['export', MULTI_ATTRIBUTE, '--to', 'cloudformation']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('ContributorInsightsSpecification:');
  });
});
