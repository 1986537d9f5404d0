import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { designBreakingARule, invalidDesign, sampleDesign } from '../test-support/designs.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { createFileService } from './file-service.ts';
import { createWorkspaceLocator } from './workspace-locator.ts';

async function setUp() {
  const workspace = await makeTempDir();
  return { workspace, files: createFileService(createWorkspaceLocator(workspace), () => new Date('2025-01-02T03:04:05Z')) };
}

/** Every file in the folder with its content, to prove a failed call changed nothing. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const entries = await Promise.all(names.map(async (e) => [join(e.parentPath, e.name), await readFile(join(e.parentPath, e.name), 'utf8')]));
  return Object.fromEntries(entries);
}

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('saving over a file another window or program changed', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  test('open and save report the version of the bytes on disk', async () => {
    const { files, workspace } = await setUp();
    const saved = await files.saveAs('orders', sampleDesign(), { overwrite: false });
    const text = await readFile(join(workspace, 'orders.keyplan.json'), 'utf8');
    expect(saved.version?.sha256).toBe(sha256(text));
    const opened = await files.open('orders.keyplan.json');
    expect(opened.version).toEqual(saved.version);
    expect(await files.version('orders.keyplan.json')).toEqual(saved.version);
  });

  test('a save naming the version it started from succeeds while the file is unchanged, and returns the new version', async () => {
    const { files } = await setUp();
    const first = await files.saveAs('orders', sampleDesign('First'), { overwrite: false });
    const second = await files.save('orders.keyplan.json', sampleDesign('Second'), first.version);
    expect(second.version?.sha256).not.toBe(first.version?.sha256);
    await files.save('orders.keyplan.json', sampleDesign('Third'), second.version);
    expect((await files.open('orders.keyplan.json')).design.name).toBe('Third');
  });

  test('a save after another program wrote the file is refused with file.changed and writes nothing', async () => {
    const { files, workspace } = await setUp();
    const opened = await files.saveAs('orders', sampleDesign('Mine'), { overwrite: false });
    const theirs = `${JSON.stringify(sampleDesign('Theirs'), null, 2)}\n`;
    await writeFile(join(workspace, 'orders.keyplan.json'), theirs);
    const before = await snapshot(workspace);
    const error = await errorOf(files.save('orders.keyplan.json', sampleDesign('Mine, edited'), opened.version));
    expect(error.code).toBe('file.changed');
    expect(error.message).toContain('changed on disk since you opened it');
    expect(error.details).toEqual({ version: { mtimeMs: expect.any(Number), sha256: sha256(theirs) } });
    expect(await snapshot(workspace)).toEqual(before);
  });

  test('a file touched but not changed (same bytes, new time) is not a conflict', async () => {
    const { files, workspace } = await setUp();
    const opened = await files.saveAs('orders', sampleDesign(), { overwrite: false });
    const path = join(workspace, 'orders.keyplan.json');
    await utimes(path, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    await expect(files.save('orders.keyplan.json', sampleDesign('Edited'), opened.version)).resolves.toBeDefined();
  });

  test('a deleted file is a conflict too (version null); without a version the save recreates it', async () => {
    const { files, workspace } = await setUp();
    const opened = await files.saveAs('orders', sampleDesign(), { overwrite: false });
    await rm(join(workspace, 'orders.keyplan.json'));
    expect(await files.version('orders.keyplan.json')).toBeNull();
    const error = await errorOf(files.save('orders.keyplan.json', sampleDesign(), opened.version));
    expect(error).toMatchObject({ code: 'file.changed', details: { version: null } });
    expect(error.message).toContain('moved or deleted');
    await files.save('orders.keyplan.json', sampleDesign('Recreated'));
    expect((await files.open('orders.keyplan.json')).design.name).toBe('Recreated');
  });

  test('two saves from one version at the same moment: one lands, the other is refused', async () => {
    const { files } = await setUp();
    const opened = await files.saveAs('orders', sampleDesign(), { overwrite: false });
    const results = await Promise.allSettled([
      files.save('orders.keyplan.json', sampleDesign('Window A'), opened.version),
      files.save('orders.keyplan.json', sampleDesign('Window B'), opened.version),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = results[0]!.status === 'fulfilled' ? 'Window A' : 'Window B';
    expect((await files.open('orders.keyplan.json')).design.name).toBe(winner);
    const loser = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect((loser.reason as AppError).code).toBe('file.changed');
  });
});

describe('save', () => {
  test('writes the design and reads it back the same', async () => {
    const { files } = await setUp();
    const saved = await files.saveAs('orders', sampleDesign(), { overwrite: false });
    expect(saved).toEqual({
      ref: 'orders.keyplan.json',
      name: 'orders.keyplan.json',
      savedAt: '2025-01-02T03:04:05.000Z',
      version: { mtimeMs: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect((await files.open('orders.keyplan.json')).design).toEqual(sampleDesign());
  });

  test('keeps the previous version as <file>.bak and leaves no temporary file', async () => {
    const { files, workspace } = await setUp();
    await files.saveAs('orders', sampleDesign('First'), { overwrite: false });
    const saved = await files.save('orders.keyplan.json', sampleDesign('Second'));
    expect(saved.backupRef).toBe('orders.keyplan.json.bak');
    expect(JSON.parse(await readFile(join(workspace, 'orders.keyplan.json.bak'), 'utf8'))).toMatchObject({ name: 'First' });
    expect(JSON.parse(await readFile(join(workspace, 'orders.keyplan.json'), 'utf8'))).toMatchObject({ name: 'Second' });
    expect((await readdir(workspace)).sort()).toEqual(['orders.keyplan.json', 'orders.keyplan.json.bak']);
    expect((await files.open('orders.keyplan.json.bak')).design.name).toBe('First');
  });

  test('refuses an invalid design with every problem and changes nothing on disk', async () => {
    const { files, workspace } = await setUp();
    await files.saveAs('orders', sampleDesign(), { overwrite: false });
    const before = await snapshot(workspace);
    const error = await errorOf(files.save('orders.keyplan.json', invalidDesign()));
    expect(error.code).toBe('file.invalidDesign');
    expect(error.details).toEqual([expect.objectContaining({ code: 'model.schema', path: 'tables[0].entities[0].itemCount' })]);
    expect(error.message).toContain('orders.keyplan.json');
    expect(await snapshot(workspace)).toEqual(before);
  });

  test('saves and reopens work in progress that breaks a DynamoDB rule (the editor shows the problem)', async () => {
    const { files } = await setUp();
    await files.saveAs('draft', designBreakingARule() as Design, { overwrite: false });
    expect((await files.open('draft.keyplan.json')).design.tables[0]!.name).toBe('x');
  });

  test('save-as refuses to replace an existing file unless told to overwrite', async () => {
    const { files } = await setUp();
    await files.saveAs('orders', sampleDesign('First'), { overwrite: false });
    expect((await errorOf(files.saveAs('orders.keyplan.json', sampleDesign('Second'), { overwrite: false }))).code).toBe('file.exists');
    await files.saveAs('orders', sampleDesign('Second'), { overwrite: true });
    expect((await files.open('orders')).design.name).toBe('Second');
  });

  test('saves into an existing subfolder; a missing one is file.notFound', async () => {
    const { files, workspace } = await setUp();
    await mkdir(join(workspace, 'team'));
    expect((await files.saveAs('team/orders', sampleDesign(), { overwrite: false })).ref).toBe('team/orders.keyplan.json');
    expect((await errorOf(files.saveAs('nowhere/orders', sampleDesign(), { overwrite: false }))).code).toBe('file.notFound');
  });
});

describe('open', () => {
  test.each([
    ['corrupt JSON', '{\n  "formatVersion": 1,\n  "name": }', 'file.notJson'],
    ['JSON that is not a design', '{ "hello": "world" }', 'file.notDesign'],
    ['a JSON array', '[1, 2]', 'file.notDesign'],
    ['a newer format version', JSON.stringify({ ...sampleDesign(), formatVersion: 99 }), 'file.unsupportedVersion'],
    ['a design with a broken shape', JSON.stringify(invalidDesign()), 'file.invalidDesign'],
  ])('%s gives %s, names the file and changes nothing', async (_what, content, code) => {
    const { files, workspace } = await setUp();
    await writeFile(join(workspace, 'broken.keyplan.json'), content);
    const before = await snapshot(workspace);
    const error = await errorOf(files.open('broken.keyplan.json'));
    expect(error.code).toBe(code);
    expect(error.message).toContain('broken.keyplan.json');
    expect(await snapshot(workspace)).toEqual(before);
  });

  test('corrupt JSON reports its line and column', async () => {
    const { files, workspace } = await setUp();
    await writeFile(join(workspace, 'broken.keyplan.json'), '{\n  "formatVersion": 1,\n  "name": }');
    const error = await errorOf(files.open('broken'));
    expect(error.details).toEqual({ line: 3, column: 11 });
  });

  test('a missing file is file.notFound', async () => {
    const { files } = await setUp();
    expect((await errorOf(files.open('missing.keyplan.json'))).code).toBe('file.notFound');
  });

  test('an older format version is migrated and says from which', async () => {
    const { files, workspace } = await setUp();
    const { tables, ...rest } = sampleDesign();
    await writeFile(join(workspace, 'old.keyplan.json'), JSON.stringify({ ...rest, formatVersion: 0, table: tables[0] }));
    const opened = await files.open('old.keyplan.json');
    expect(opened.migratedFrom).toBe(0);
    expect(opened.design).toEqual(sampleDesign());
  });
});

describe('workspace confinement', () => {
  test.each([
    ['a parent-folder path', '../outside.keyplan.json'],
    ['a parent folder in the middle', 'team/../../outside.keyplan.json'],
    ['an absolute path', '/etc/passwd'],
    ['a Windows drive path', 'C:/Windows/win.ini'],
  ])('refuses %s with file.outsideWorkspace', async (_what, ref) => {
    const { files } = await setUp();
    expect((await errorOf(files.open(ref))).code).toBe('file.outsideWorkspace');
    expect((await errorOf(files.save(ref, sampleDesign()))).code).toBe('file.outsideWorkspace');
  });

  test.each([
    ['a hidden name', '.keyplan/recent'],
    ['a control character', 'a\u0007b'],
    ['a reserved character', 'what?'],
    ['a backslash', 'team\\orders'],
    ['an empty name', ''],
    ['only the suffix', '.keyplan.json'],
  ])('refuses %s with file.badName', async (_what, name) => {
    const { files } = await setUp();
    expect((await errorOf(files.saveAs(name, sampleDesign(), { overwrite: false }))).code).toBe('file.badName');
  });

  test('refuses a link that leads outside the workspace, for reading and writing', async () => {
    const { files, workspace } = await setUp();
    const outside = await makeTempDir();
    await writeFile(join(outside, 'secret.keyplan.json'), JSON.stringify(sampleDesign('Secret')));
    await symlink(join(outside, 'secret.keyplan.json'), join(workspace, 'link.keyplan.json'));
    await symlink(outside, join(workspace, 'elsewhere'));
    expect((await errorOf(files.open('link.keyplan.json'))).code).toBe('file.outsideWorkspace');
    expect((await errorOf(files.open('elsewhere/secret.keyplan.json'))).code).toBe('file.outsideWorkspace');
    expect((await errorOf(files.save('link.keyplan.json', sampleDesign()))).code).toBe('file.outsideWorkspace');
    expect((await errorOf(files.saveAs('elsewhere/new', sampleDesign(), { overwrite: false }))).code).toBe('file.outsideWorkspace');
    expect(await readdir(outside)).toEqual(['secret.keyplan.json']);
    expect(await files.list()).toEqual([]);
  });

  test('a link inside the workspace never makes an export replace a design, nor a design save replace another file', async () => {
    const { files, workspace } = await setUp();
    await files.saveAs('b', sampleDesign('Precious'), { overwrite: false });
    await writeFile(join(workspace, 'notes.txt'), 'my notes');
    await symlink('b.keyplan.json', join(workspace, 'z.yaml'));
    await symlink('notes.txt', join(workspace, 'n.keyplan.json'));
    const exported = await errorOf(files.writeExport('z.yaml', 'PWNED', { overwrite: true }));
    expect(exported.code).toBe('file.badName');
    expect(exported.message).toContain('"b.keyplan.json", which is a design file');
    expect((await errorOf(files.save('n.keyplan.json', sampleDesign()))).code).toBe('file.badName');
    expect((await files.open('b.keyplan.json')).design.name).toBe('Precious');
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('my notes');
  });

  test('lists design files in the workspace and its subfolders, not hidden folders or other files', async () => {
    const { files, workspace } = await setUp();
    await mkdir(join(workspace, 'team'));
    await mkdir(join(workspace, '.keyplan'));
    await files.saveAs('b', sampleDesign(), { overwrite: false });
    await files.saveAs('team/a', sampleDesign(), { overwrite: false });
    await files.save('b', sampleDesign()); // leaves b.keyplan.json.bak
    await writeFile(join(workspace, 'notes.json'), '{}');
    await writeFile(join(workspace, '.keyplan', 'hidden.keyplan.json'), '{}');
    const listed = await files.list();
    expect(listed.map((f) => f.ref)).toEqual(['b.keyplan.json', 'team/a.keyplan.json']);
    expect(listed[0]).toMatchObject({ name: 'b.keyplan.json', sizeBytes: expect.any(Number), modifiedAt: expect.any(String) });
  });
});

describe('exports', () => {
  test('writes the text under the name as given, with no backup, and refuses to replace unless told to', async () => {
    const { files, workspace } = await setUp();
    const saved = await files.writeExport('shop.cloudformation.yaml', 'Resources: {}\n', { overwrite: false });
    expect(saved).toEqual({ ref: 'shop.cloudformation.yaml', name: 'shop.cloudformation.yaml', savedAt: '2025-01-02T03:04:05.000Z' });
    expect(await readFile(join(workspace, 'shop.cloudformation.yaml'), 'utf8')).toBe('Resources: {}\n');
    const error = await errorOf(files.writeExport('shop.cloudformation.yaml', 'other', { overwrite: false }));
    expect(error).toMatchObject({ code: 'file.exists', path: 'name' });
    await files.writeExport('shop.cloudformation.yaml', 'replaced', { overwrite: true });
    expect(await readdir(workspace)).toEqual(['shop.cloudformation.yaml']);
    expect(await readFile(join(workspace, 'shop.cloudformation.yaml'), 'utf8')).toBe('replaced');
    expect(await files.list()).toEqual([]);
  });

  test.each([
    ['a design file name', 'orders.keyplan.json'],
    ['a backup name', 'orders.keyplan.json.bak'],
    ['a hidden name', '.env'],
    ['a reserved character', 'what?.yaml'],
  ])('refuses %s with file.badName and writes nothing', async (_what, name) => {
    const { files, workspace } = await setUp();
    expect((await errorOf(files.writeExport(name, 'x', { overwrite: true }))).code).toBe('file.badName');
    expect(await readdir(workspace)).toEqual([]);
  });

  test('stays inside the workspace', async () => {
    const { files } = await setUp();
    expect((await errorOf(files.writeExport('../outside.yaml', 'x', { overwrite: true }))).code).toBe('file.outsideWorkspace');
    expect((await errorOf(files.writeExport('/tmp/outside.yaml', 'x', { overwrite: true }))).code).toBe('file.outsideWorkspace');
  });
});
