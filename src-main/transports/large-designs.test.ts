/**
 * Large designs through the real browser-mode host over its WebSocket (issue 27, findings 6 and 8):
 * a design of 20 MB is saved and opened again (a WebSocket frame is at most 8 MB, so both the
 * request and the reply travel as chunks); a file over the 64 MB maximum is refused at open, naming
 * the maximum, before it is read.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { createApiClient, type ApiClient } from '../../src-shared/ipc/index.ts';
import { MAX_DESIGN_BYTES } from '../../src-shared/model/index.ts';
import { createBrowserHandlers } from '../host.ts';
import { TASK_WORKER_SOURCE, taskWorkerSpawner } from '../tasks/spawn.ts';
import { createTaskHost } from '../tasks/task-host.ts';
import { designOfAtLeast } from '../test-support/big-design.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { MAX_FRAME_BYTES, PRINTED_LINK_TTL_MS, startWebHost } from './websocket.ts';
import { connectWebSocketTransport } from './websocket-client.ts';

const MB = 1024 * 1024;

async function realHost(): Promise<{ client: ApiClient; workspaceDir: string }> {
  const dir = await makeTempDir();
  const workspaceDir = join(dir, 'workspace');
  const tasks = createTaskHost({ emit: () => undefined, spawn: taskWorkerSpawner(TASK_WORKER_SOURCE), log: () => {} });
  onTestFinished(() => tasks.dispose());
  const handlers = await createBrowserHandlers({ tasks, workspaceDir, dataDir: join(dir, 'data'), examplesDir: join(dir, 'examples'), version: '9.9.9', log: () => {} });
  const host = await startWebHost({ handlers, log: () => {} });
  onTestFinished(() => host.close());
  const transport = await connectWebSocketTransport(host.issueLink(PRINTED_LINK_TTL_MS));
  onTestFinished(() => transport.close());
  return { client: createApiClient(transport), workspaceDir };
}

describe('large designs in browser mode', () => {
  test('a 20 MB design is saved and opened again, each way in frames of at most 8 MB', { timeout: 180_000 }, async () => {
    const { client, workspaceDir } = await realHost();
    const design = designOfAtLeast(20 * MB, 'Twenty');
    expect(JSON.stringify(design).length).toBeGreaterThan(20 * MB);
    expect(MAX_FRAME_BYTES).toBe(8 * MB);

    const saved = await client.call('file.saveAs', { name: 'twenty.keyplan.json', design });
    const onDisk = await stat(join(workspaceDir, 'twenty.keyplan.json'));
    expect(onDisk.size).toBeGreaterThan(20 * MB);
    expect(JSON.parse(await readFile(join(workspaceDir, 'twenty.keyplan.json'), 'utf8'))).toEqual(design);

    const opened = await client.call('file.open', { ref: saved.ref });
    expect(opened.design).toEqual(design);
    expect(opened.version).toEqual(saved.version);
  });

  test('a design file over 64 MB is refused at open with file.tooLarge naming the maximum, before it is read', { timeout: 60_000 }, async () => {
    const { client, workspaceDir } = await realHost();
    expect(MAX_DESIGN_BYTES).toBe(64 * MB);
    // One byte over the maximum (sparse: the host must refuse it by its size, not by reading it).
    const handle = await open(join(workspaceDir, 'huge.keyplan.json'), 'w');
    await handle.truncate(MAX_DESIGN_BYTES + 1);
    await handle.close();

    const refusal = await client.call('file.open', { ref: 'huge.keyplan.json' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'file.tooLarge', details: { bytes: MAX_DESIGN_BYTES + 1, maxBytes: MAX_DESIGN_BYTES } });
    expect((refusal as AppError).message).toContain('at most 64 MB (67,108,864 bytes)');
  });
});
