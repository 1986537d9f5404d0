import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { createApiClient } from '../../src-shared/ipc/index.ts';
import { createMemoryTransport } from '../../src-shared/ipc/host.ts';
import { createElectronHandlers } from '../host.ts';
import { invalidDesign, sampleDesign } from '../test-support/designs.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import type { Dialogs } from './deps.ts';

/** Real handlers and files; only the native dialog is scripted: each call takes the next answer. */
async function setUp(answers: (string | undefined)[] = []) {
  const dir = await makeTempDir();
  const documents = join(dir, 'documents');
  await mkdir(documents);
  const asked: string[] = [];
  const dialogs: Dialogs = {
    chooseFileToOpen: async () => (asked.push('open'), answers.shift()),
    chooseFileToSave: async (suggested) => (asked.push(`save ${suggested}`), answers.shift()),
    chooseExportFile: async (suggested) => (asked.push(`export ${suggested}`), answers.shift()),
  };
  const options = { version: '1.2.3', platform: 'linux', userDataDir: join(dir, 'userData'), examplesDir: join(dir, 'examples'), log: () => {} };
  const handlers = createElectronHandlers({ ...options, dialogs });
  return { client: createApiClient(createMemoryTransport(handlers)), documents, asked, answers, options };
}

const noDialogs: Dialogs = { chooseFileToOpen: async () => undefined, chooseFileToSave: async () => undefined, chooseExportFile: async () => undefined };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error.code;
}

describe('Electron handlers', () => {
  test('app.info says electron and names no workspace', async () => {
    const { client } = await setUp();
    expect(await client.call('app.info', {})).toEqual({ mode: 'electron', version: '1.2.3', platform: 'linux' });
    expect(await client.call('file.list', {})).toEqual({ files: [] });
  });

  test('a path the user never picked is refused, even if it exists', async () => {
    const { client, documents } = await setUp();
    const path = join(documents, 'orders.keyplan.json');
    await writeFile(path, JSON.stringify(sampleDesign()));
    expect(await codeOf(client.call('file.open', { ref: path }))).toBe('file.outsideWorkspace');
    expect(await codeOf(client.call('file.save', { ref: path, design: sampleDesign('Overwritten') }))).toBe('file.outsideWorkspace');
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ name: 'Sample' });
  });

  test('the open dialog grants the picked file, which then opens and saves by its ref', async () => {
    const { client, documents, answers } = await setUp();
    const path = join(documents, 'orders.keyplan.json');
    await writeFile(path, JSON.stringify(sampleDesign()));
    answers.push(path);
    expect(await client.call('file.openDialog', {})).toMatchObject({ ref: path, name: 'orders.keyplan.json' });
    await client.call('file.save', { ref: path, design: sampleDesign('Saved') });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ name: 'Saved' });
    expect((await client.call('recent.list', {})).files.map((f) => f.ref)).toEqual([path]);
  });

  test('a file in the recent list stays granted in a later session', async () => {
    const first = await setUp();
    const path = join(first.documents, 'orders.keyplan.json');
    await writeFile(path, JSON.stringify(sampleDesign()));
    first.answers.push(path);
    await first.client.call('file.openDialog', {});
    const later = createApiClient(createMemoryTransport(createElectronHandlers({ ...first.options, dialogs: noDialogs })));
    expect((await later.call('file.open', { ref: path })).design.name).toBe('Sample');
  });

  test('canceling a dialog is file.canceled', async () => {
    const { client } = await setUp([undefined, undefined]);
    expect(await codeOf(client.call('file.openDialog', {}))).toBe('file.canceled');
    expect(await codeOf(client.call('file.saveAs', { name: 'orders', design: sampleDesign() }))).toBe('file.canceled');
  });

  test('save as suggests the name with its suffix, saves where the user chose, and adds the suffix', async () => {
    const { client, documents, asked, answers } = await setUp();
    const picked = join(documents, 'chosen');
    answers.push(picked);
    const saved = await client.call('file.saveAs', { name: 'orders', design: sampleDesign() });
    expect(asked).toEqual(['save orders.keyplan.json']);
    expect(saved.ref).toBe(`${picked}.keyplan.json`);
    expect(JSON.parse(await readFile(`${picked}.keyplan.json`, 'utf8'))).toMatchObject({ name: 'Sample' });
  });

  test('save as does not replace a file the dialog did not ask about (suffix added)', async () => {
    const { client, documents, answers } = await setUp();
    await writeFile(join(documents, 'chosen.keyplan.json'), JSON.stringify(sampleDesign('Existing')));
    answers.push(join(documents, 'chosen'));
    expect(await codeOf(client.call('file.saveAs', { name: 'orders', design: sampleDesign() }))).toBe('file.exists');
  });

  test('an export is saved where the save dialog says, under the name picked, and not listed as recent', async () => {
    const { client, documents, asked, answers } = await setUp();
    const picked = join(documents, 'stack.yaml');
    await writeFile(picked, 'old');
    answers.push(picked, undefined);
    const saved = await client.call('file.export', { name: 'shop.cloudformation.yaml', content: 'Resources: {}\n' });
    expect(asked).toEqual(['export shop.cloudformation.yaml']);
    expect(saved).toMatchObject({ ref: picked, name: 'stack.yaml' });
    expect(await readFile(picked, 'utf8')).toBe('Resources: {}\n');
    expect((await client.call('recent.list', {})).files).toEqual([]);
    expect(await codeOf(client.call('file.export', { name: 'x.tf', content: '' }))).toBe('file.canceled');
  });

  test('save as refuses an invalid design before asking where', async () => {
    const { client, asked } = await setUp(['/tmp/never.keyplan.json']);
    expect(await codeOf(client.call('file.saveAs', { name: 'bad', design: invalidDesign() as never }))).toBe('file.invalidDesign');
    expect(asked).toEqual([]);
  });
});
