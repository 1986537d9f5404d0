/** Links in the workspace, as a save meets them: written through when they stay inside, refused when not. */
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { sampleDesign } from '../test-support/designs.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { createFileService } from './file-service.ts';
import { createWorkspaceLocator } from './workspace-locator.ts';

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('saving through a link in the workspace', () => {
  test('a link to a file inside the workspace is written through: the link stays, its target gets the design, the backup the old one', async () => {
    const workspace = await makeTempDir();
    await mkdir(join(workspace, 'team'));
    const target = join(workspace, 'team', 'orders.keyplan.json');
    await writeFile(target, JSON.stringify(sampleDesign('Before')));
    await symlink('team/orders.keyplan.json', join(workspace, 'mine.keyplan.json'));
    const files = createFileService(createWorkspaceLocator(workspace));

    const saved = await files.save('mine.keyplan.json', sampleDesign('After'));
    expect(saved).toMatchObject({ ref: 'mine.keyplan.json', name: 'mine.keyplan.json', backupRef: 'mine.keyplan.json.bak' });
    expect((await lstat(join(workspace, 'mine.keyplan.json'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(workspace, 'mine.keyplan.json'))).toBe('team/orders.keyplan.json');
    expect(JSON.parse(await readFile(target, 'utf8'))).toMatchObject({ name: 'After' });
    expect((await files.open('mine.keyplan.json.bak')).design.name).toBe('Before');
    expect((await files.open('mine.keyplan.json')).design.name).toBe('After');
    expect(await readdir(join(workspace, 'team'))).toEqual(['orders.keyplan.json']);
  });

  test('a link to a file outside the workspace is refused with file.outsideWorkspace naming both, and nothing is written', async () => {
    const workspace = await makeTempDir();
    const outside = await makeTempDir();
    const secret = join(outside, 'secret.keyplan.json');
    await writeFile(secret, 'untouched');
    await symlink(secret, join(workspace, 'link.keyplan.json'));
    const files = createFileService(createWorkspaceLocator(workspace));

    const error = await errorOf(files.save('link.keyplan.json', sampleDesign()));
    expect(error.code).toBe('file.outsideWorkspace');
    expect(error.message).toContain('"link.keyplan.json"');
    expect(error.message).toContain(secret);
    await symlink(secret, join(workspace, 'link.yaml'));
    expect((await errorOf(files.writeExport('link.yaml', 'x', { overwrite: true }))).code).toBe('file.outsideWorkspace');
    expect(await readFile(secret, 'utf8')).toBe('untouched');
    expect(await readdir(outside)).toEqual(['secret.keyplan.json']);
    expect((await readdir(workspace)).sort()).toEqual(['link.keyplan.json', 'link.yaml']);
  });
});
