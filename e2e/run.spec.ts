/**
 * The Run screen against the real host and its embedded engine (dynalite, started by the host): the
 * e-commerce example run with 5 items per entity and 2 calls per pattern, every pattern measured
 * with its agreement mark, the transactional write marked as needing a fuller engine, a request
 * copied as SDK code; a cancel that leaves no table behind; and a table an earlier run left on
 * DynamoDB Local offered for removal at start. At 1280×800, a common laptop window.
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runTableName } from '../src-shared/run/index.ts';
import { workspaceDataDir } from '../src-main/files/data-folder.ts';
import { runTags } from '../src-main/run/engine.ts';
import { createRunJournal, newRunToken } from '../src-main/run/journal.ts';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';
import { RunPage } from './pages/run.ts';

test.use({ viewport: { width: 1280, height: 800 } });

const PATTERNS = [
  'Get user profile',
  'Find user by email (sign-in)',
  'Get product',
  'List products in a category',
  "List a user's orders, newest first",
  'Get order by id',
  'List the items of an order',
  'List open orders by status, oldest first',
  'List reviews for a product, newest first',
  'Place order',
  'Update order status',
];

test('the e-commerce example runs on the embedded engine: every pattern measured and marked, a request copied as SDK code', async ({ page, context, host, steps }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const app = new KeyplanPage(page);
  const run = new RunPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await run.show();

  // The embedded engine is the default: no setup.
  await expect(run.engine('Embedded')).toBeChecked();
  await expect(run.itemsPerEntity).toHaveValue('20');
  await expect(run.repeat).toHaveValue('5');

  // A size out of range is refused at its field, and the run waits for a valid one.
  await run.itemsPerEntity.fill('0');
  await expect(run.itemsPerEntity).toHaveAccessibleDescription('Must be from 1 to 1000; got 0.');
  await expect(run.runButton).toBeDisabled();

  await run.setSizes(5, 2);
  await expect(run.runButton).toBeEnabled();
  await run.run();
  await run.finished();

  // One row per pattern, each with one of the five marks.
  await expect(run.rows()).toHaveCount(PATTERNS.length);
  for (const name of PATTERNS) {
    await expect(run.agreement(name), name).toHaveAttribute('data-agreement', /^(agrees|explained|unexplained|notRun|failed)$/);
  }
  // dynalite has no TransactWriteItems: the transactional write is not sent, and says where it runs.
  await expect(run.agreement('Place order')).toHaveAttribute('data-agreement', 'notRun');
  await expect(run.agreement('Place order')).toContainText('Not run');
  await expect(run.row('Place order')).toContainText('needs DynamoDB Local 3.3 or later, or AWS');
  // Every other pattern is measured, and agrees or differs only for a known cause.
  for (const name of PATTERNS.filter((n) => n !== 'Place order')) {
    await expect(run.agreement(name), name).toHaveAttribute('data-agreement', /^(agrees|explained)$/);
  }
  await expect(run.summary).toContainText('1 not run');

  // The prediction carries its derivation: a profile is one 4 KB block, read eventually consistent.
  const derivation = run.row('Get user profile').getByTestId('run-derivation');
  await derivation.getByText('How 0.5 RCU is predicted').click();
  await expect(derivation.getByRole('listitem').last()).toContainText('1 × 0.5 = 0.5 RCU');

  // The request as the run sent it, as SDK code naming the run's own table.
  const tableName = await run.tableName();
  expect(tableName).toMatch(/^keyplan-run-/);
  await run.copyRequest('Get user profile', 'Copy as SDK code');
  const code = await page.evaluate(() => navigator.clipboard.readText());
  expect(code).toMatch(/QueryCommand|GetItemCommand/);
  expect(code).toContain(tableName);

  // Nothing sticks out of the window at 1280×800, with a request open.
  await expect.poll(() => app.horizontalOverflows()).toEqual([]);
  await run.report.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/run-screen.png', fullPage: true });
  await steps.shot('run-report');

  // The report stays while the user looks at another screen.
  await app.show('Costs');
  await run.show();
  await expect(run.rows()).toHaveCount(PATTERNS.length);
});

test('a canceled run says its tables were removed, and leaves no table behind', async ({ page, host, steps }) => {
  test.setTimeout(120_000);
  const app = new KeyplanPage(page);
  const run = new RunPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await run.show();
  // Enough work that the cancel lands while the run is on its way.
  await run.setSizes(1000, 100);
  await run.run();
  await run.hostReports();
  await run.cancel();
  await expect(run.notice).toHaveText("Canceled; the run's tables were removed.", { timeout: 60_000 });
  await expect(run.problem).toBeHidden();
  await expect(run.report).toBeHidden();
  await steps.shot('canceled');

  // Opening the screen again asks the host for leftover tables: there are none.
  await app.show('Costs');
  await run.show();
  await run.leftoversChecked();
  await expect(run.leftovers).toBeHidden();
});

test('a table an earlier run left on DynamoDB Local is offered for removal when Keyplan starts, and removed', async ({ page, host, steps }) => {
  // A second engine stands in for the user's DynamoDB Local, holding a table a crashed run left.
  const { default: dynalite } = await import('dynalite');
  const { DynamoDBClient, CreateTableCommand, DescribeTableCommand, ListTablesCommand, TagResourceCommand } = await import('@aws-sdk/client-dynamodb');
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const runId = 'crashed-run';
    const left = runTableName(runId, 'Shop');
    const token = newRunToken();
    for (const name of [left, 'Shop']) {
      await client.send(
        new CreateTableCommand({
          TableName: name,
          AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
          // The tags a run sets (dynalite keeps only TagResource's, so they are set again below).
          ...(name === left ? { Tags: runTags(runId, token) } : {}),
        }),
      );
    }
    const arn = (await client.send(new DescribeTableCommand({ TableName: left }))).Table!.TableArn!;
    await client.send(new TagResourceCommand({ ResourceArn: arn, Tags: runTags(runId, token) }));
    // The host's run journal, in the user's data folder, as a run that never finished left it; the
    // embedded entry went with the process that held it and is not offered.
    const earlier = new Date(Date.now() - 3_600_000).toISOString();
    const root = await realpath(host.dataDir);
    const folder = workspaceDataDir(root, await realpath(host.workspaceDir));
    const journal = createRunJournal(join(folder, 'run-journal'), { keyPath: join(root, 'run-journal.key'), scope: `workspace:${folder}` });
    await journal.add({ name: left, runId, token, engine: { kind: 'local', endpoint }, engineLabel: `DynamoDB Local at ${endpoint}`, createdAt: earlier });
    await journal.add({ name: runTableName('gone-run', 'Shop'), runId: 'gone-run', token: newRunToken(), engine: { kind: 'embedded' }, engineLabel: 'Embedded engine (dynalite 4.0.0)', createdAt: earlier });
    // A journal committed in the workspace, the old place, naming the user's own table: never read.
    await mkdir(join(host.workspaceDir, '.keyplan'), { recursive: true });
    await writeFile(
      join(host.workspaceDir, '.keyplan', 'run-journal.json'),
      JSON.stringify({ formatVersion: 1, tables: [{ name: 'Shop', engine: { kind: 'local', endpoint }, engineLabel: 'DynamoDB Local', createdAt: earlier }] }),
    );

    const app = new KeyplanPage(page);
    await app.open(host.url);
    const notice = page.getByTestId('leftover-tables');
    await expect(notice).toContainText('A table created by an earlier run was not removed');
    await expect(notice).toContainText(left);
    await expect(notice).not.toContainText(runTableName('gone-run', 'Shop'));
    await expect(notice).not.toContainText(/(^|\s)Shop\b/);
    await steps.shot('leftover-offered');

    await notice.getByRole('button', { name: 'Remove them' }).click();
    await expect(notice).toContainText(`Removed ${left}.`);
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual(['Shop']);
    await expect(notice.getByRole('button', { name: 'Remove them' })).toBeHidden();
    expect(await journal.list()).toEqual([]);
  } finally {
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
