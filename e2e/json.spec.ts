import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { JsonTyping, KeyplanPage } from './pages/keyplan.ts';
import { JsonPage } from './pages/formats.ts';

/** The design's name is on line 4 of its JSON (after `{`, formatVersion and id). */
const NAME_LINE = 4;

const data = join(import.meta.dirname, 'data');

async function openOrdersDesign(app: KeyplanPage, workspaceDir: string): Promise<void> {
  await mkdir(workspaceDir, { recursive: true });
  await copyFile(join(data, 'orders-by-date.keyplan.json'), join(workspaceDir, 'orders.keyplan.json'));
  await app.openFile('orders.keyplan.json');
  await expect(app.designName).toHaveValue('Orders by date');
}

test('an edit in the raw JSON reaches the forms and undoes like any other', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const json = new JsonPage(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);
  expect(json.editorRequests).toEqual([]); // start-up and the forms never load the editor

  await json.show();
  await json.inSync();
  expect(json.editorRequests.length).toBeGreaterThan(0);
  await expect(json.visibleText).toContainText('"formatVersion": 1');
  await steps.shot('raw-json');

  await json.replaceAll('"name": "Order"', '"name": "Purchase"');
  await json.inSync();
  await steps.shot('edited');

  await app.show('Entities & keys');
  await expect(app.entityList()).toContainText('Purchase');
  await expect(app.entityList()).not.toContainText('Order');
  await steps.shot('form-shows-edit');

  await app.undo();
  await expect(app.entityList()).toContainText('Order');
  await expect(app.entityList()).not.toContainText('Purchase');

  await json.show();
  await expect(json.visibleText).not.toContainText('Purchase');
  await steps.shot('undone-in-json');

  // While the screen is open, the text follows the design's history.
  await app.redo();
  await expect(json.visibleText).toContainText('"Purchase"');
  await json.undoFromToolbar();
  await expect(json.visibleText).not.toContainText('Purchase');
  await expect(json.visibleText).toContainText('"name": "Order"');
});

test('a DynamoDB rule broken in the raw JSON is marked where it is', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const json = new JsonPage(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);
  await json.show();

  await json.replaceAll('"name": "OrdersByDate"', '"name": "x"');
  await json.inSync();
  await expect(json.markers().filter({ hasText: 'Table name' })).toHaveCount(1);
  await expect(page.getByTestId('problem-count')).not.toHaveText('No problems');
  await steps.shot('rule-marker');
});

test('invalid JSON is marked and changes nothing; the unfinished text survives leaving the screen', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const json = new JsonPage(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);
  await json.show();

  await json.replaceAll('"name": "Order"', '"name": "Purchase",,');
  await expect(json.status).toHaveAttribute('data-state', 'syntax');
  await expect(json.status).toContainText('Not valid JSON');
  await expect(json.markers().first()).toBeVisible();
  await steps.shot('syntax-marker');

  await app.show('Entities & keys');
  await expect(app.entityList()).toContainText('Order');
  await expect(app.entityList()).not.toContainText('Purchase');
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
  await steps.shot('form-unchanged');

  await json.show();
  await expect(json.status).toHaveAttribute('data-state', 'syntax');
  await expect(json.visibleText).toContainText('"Purchase",,');
});

test('the design schema documents, completes and checks what is typed', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const json = new JsonPage(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);
  await json.show();

  await expect(await json.hover('"billing"')).toContainText('ON_DEMAND (pay per request) or PROVISIONED');
  await steps.shot('hover');

  await json.replaceAll('"STANDARD"', '"FAST"');
  await expect(json.status).toHaveAttribute('data-state', 'structure');
  await expect(json.markers().filter({ hasText: 'STANDARD_INFREQUENT_ACCESS' })).toHaveCount(1);

  const suggestions = await json.completeAfter('"tableClass"');
  await expect(suggestions.filter({ hasText: 'pointInTimeRecovery' })).toHaveCount(1);
  await steps.shot('completion');
});

test('the raw JSON never gets stuck: typed back to valid, undone across leaving the screen, pasted, or shown again', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const json = new JsonPage(page);
  const typing = new JsonTyping(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);
  await json.show();

  // Invalid, then valid again by typing: the valid text is applied.
  await typing.typeAtEndOfLine(NAME_LINE, ' oops');
  await expect(json.status).toHaveAttribute('data-state', 'syntax');
  await expect(typing.showCurrentDesign).toBeVisible();
  await typing.erase(' oops'.length);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type(' (v2)');
  await json.inSync();
  await expect(app.designName).toHaveValue('Orders by date (v2)');
  await expect(typing.showCurrentDesign).toBeHidden();

  // Invalid text survives leaving the screen, and the editor's own undo still reaches back past it.
  await typing.typeAtEndOfLine(NAME_LINE, ',');
  await expect(json.status).toHaveAttribute('data-state', 'syntax');
  await app.show('Entities & keys');
  await json.show();
  await expect(json.status).toHaveAttribute('data-state', 'syntax');
  await typing.undoInEditor();
  await json.inSync();
  await expect(json.visibleText).toContainText('"Orders by date (v2)"');
  await typing.undoInEditor();
  await json.inSync();
  await expect(app.designName).toHaveValue('Orders by date');
  await steps.shot('undone-across-leaving');

  // A whole design pasted over the text is applied.
  const pasted = JSON.parse(await readFile(join(data, 'orders-by-date.keyplan.json'), 'utf8')) as { name: string };
  pasted.name = 'Pasted design';
  await typing.pasteOverAll(JSON.stringify(pasted, null, 2));
  await json.inSync();
  await expect(app.designName).toHaveValue('Pasted design');

  // Any invalid state: "Show the current design" brings back the text and the status.
  await typing.pasteOverAll('{ "formatVersion": 1, "name": ');
  await expect(json.status).toHaveAttribute('data-state', 'syntax');
  await steps.shot('invalid-with-show-current');
  await typing.showCurrentDesign.click();
  await json.inSync();
  await expect(json.visibleText).toContainText('"Pasted design"');
  await expect(json.markers()).toHaveCount(0);
  await typing.typeAtEndOfLine(NAME_LINE, ' ');
  await typing.erase(1);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('!');
  await json.inSync();
  await expect(app.designName).toHaveValue('Pasted design!');
  await steps.shot('applied-again');
});
