import { describe, expect, test } from 'vitest';
import type { ErrorData } from '../errors.ts';
import { channels, type ApiHandlers, type Channel } from './contract.ts';
import { dispatchRequest } from './dispatch.ts';
import { checkChannelOutput, checkEventPayload, MAX_REPORTED_FIELDS } from './validate.ts';

/** Handlers that record what reached them and answer `{}`: the check is dispatch's, not theirs. */
function recordingHandlers() {
  const reached: { channel: Channel; input: unknown }[] = [];
  const handlers = Object.fromEntries(
    channels.map((channel) => [channel, async (input: unknown) => (reached.push({ channel, input }), {})]),
  ) as unknown as ApiHandlers;
  return { handlers, reached };
}

async function refusal(channel: Channel, input: unknown): Promise<ErrorData> {
  const { handlers, reached } = recordingHandlers();
  const envelope = await dispatchRequest(handlers, channel, input);
  if (envelope.ok) throw new Error(`expected ${channel} to refuse ${JSON.stringify(input)?.slice(0, 200)}`);
  expect(reached, 'the handler never runs on a refused input').toEqual([]);
  return envelope.error;
}

const design = { formatVersion: 1, name: 'Any object: the handler checks a design in depth' };
const version = { mtimeMs: 1_700_000_000_000, sha256: 'a'.repeat(64) };
const task = { runId: 'r', design, tableId: 't' };

describe('dispatchRequest checks the input against the channel schema', () => {
  test.each<[string, Channel, unknown, string | undefined, RegExp]>([
    ['null for an input', 'app.info', null, undefined, /the input must be an object, received null/],
    ['an array for an input', 'file.list', [], undefined, /received an array/],
    ['a field of a channel that takes none', 'file.list', { extra: true }, 'extra', /unknown field "extra"; expected no fields/],
    ['an unknown field', 'file.open', { ref: 'a', mode: 'r' }, 'mode', /unknown field "mode"; expected only "ref"/],
    ['a number for a string', 'file.open', { ref: 42 }, 'ref', /"ref" must be a string, received the number 42/],
    ['a missing design', 'file.save', { ref: 'a' }, 'design', /"design" is missing; expected an object/],
    ['a list for a design', 'file.saveAs', { name: 'a', design: [] }, 'design', /"design" must be an object, received an array/],
    ['a text for a flag', 'file.export', { name: 'a', content: '', overwrite: 'yes' }, 'overwrite', /"overwrite" must be true or false/],
    ['a file version with an unknown field', 'file.save', { ref: 'a', design, expected: { ...version, size: 1 } }, 'expected.size', /unknown field "expected.size"/],
    ['a file version of NaN time', 'file.save', { ref: 'a', design, expected: { ...version, mtimeMs: Number.NaN } }, 'expected.mtimeMs', /must be a number, received the number NaN/],
    ['a file version of infinite time', 'file.save', { ref: 'a', design, expected: { ...version, mtimeMs: Infinity } }, 'expected.mtimeMs', /must be a number/],
    ['a digest in capitals', 'file.save', { ref: 'a', design, expected: { ...version, sha256: 'A'.repeat(64) } }, 'expected.sha256', /must be 64 lowercase hex digits/],
    ['a digest too long', 'file.save', { ref: 'a', design, expected: { ...version, sha256: 'a'.repeat(65) } }, 'expected.sha256', /must be 64 lowercase hex digits/],
    ['a negative offset', 'sample.page', { runId: 'r', view: 'table', offset: -1, limit: 5 }, 'offset', /"offset" must be a whole number ≥ 0, received the number -1/],
    ['a fractional limit', 'sample.page', { runId: 'r', view: 'table', offset: 0, limit: 1.5 }, 'limit', /"limit" must be a whole number ≥ 0/],
    ['a seed that is not a number', 'simulation.run', { ...task, seed: 'one' }, 'seed', /"seed" must be a number, received the string "one"/],
    ['a start that is neither cold nor warm', 'simulation.run', { ...task, start: 'hot' }, 'start', /"start" must be "cold" or "warm", received the string "hot"/],
    ['limits that are neither independent nor linear', 'simulation.run', { ...task, limits: 'shared' }, 'limits', /"independent" or "linear"/],
    ['a headroom below 1', 'simulation.run', { ...task, headroom: 0.5 }, 'headroom', /"headroom" must be a number ≥ 1, received the number 0.5/],
    ['a document id over 200 characters', 'sample.generate', { ...task, documentId: 'd'.repeat(201) }, 'documentId', /a string of at most 200 characters, received a string of 201 characters/],
    ['a run id that is not a string', 'task.cancel', { runId: null }, 'runId', /"runId" must be a string, received null/],
  ])('refuses %s as ipc.badInput naming the field', async (_what, channel, input, path, message) => {
    const error = await refusal(channel, input);
    expect(error.code).toBe('ipc.badInput');
    expect(error.path).toBe(path);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(new RegExp(`^Bad input to "${channel.replace('.', '\\.')}"`));
  });

  test.each<[string, Channel, unknown]>([
    ['no fields', 'app.info', {}],
    ['a save naming the version it started from', 'file.save', { ref: 'a', design, expected: version }],
    ['an optional field left undefined', 'file.saveAs', { name: 'a', design, overwrite: undefined }],
    ['a page at offset 0 of 0 lines', 'sample.page', { runId: 'r', view: 'table', offset: 0, limit: 0 }],
    ['every simulation option', 'simulation.run', { ...task, seed: 3, documentId: 'd'.repeat(200), start: 'warm', limits: 'linear', headroom: 1 }],
  ])('passes %s to the handler unchanged', async (_what, channel, input) => {
    const { handlers, reached } = recordingHandlers();
    expect(await dispatchRequest(handlers, channel, input)).toEqual({ ok: true, value: {} });
    expect(reached).toEqual([{ channel, input }]);
  });

  test('names every failing field in details, the first in path', async () => {
    const error = await refusal('sample.page', { runId: 1, view: 2, offset: -1, limit: 'all', extra: true });
    expect(error.path).toBe('extra');
    const fields = (error.details as { fields: { path: string }[] }).fields.map((f) => f.path);
    expect(fields.sort()).toEqual(['extra', 'limit', 'offset', 'runId', 'view']);
    expect(error.message).toContain('and 4 more');
  });

  test('lists at most MAX_REPORTED_FIELDS failing fields however many are sent', async () => {
    const input = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`field${i}`, i]));
    const error = await refusal('recent.list', input);
    expect((error.details as { fields: unknown[] }).fields).toHaveLength(MAX_REPORTED_FIELDS);
    expect(JSON.stringify(error).length).toBeLessThan(5_000);
  });

  test('quotes at most 80 characters of a value or a field name it refuses', async () => {
    const long = 'x'.repeat(100_000);
    const badValue = await refusal('simulation.run', { ...task, start: long });
    expect(badValue.message).toContain(`"${'x'.repeat(79)}…"`);
    expect(badValue.message).not.toContain('x'.repeat(81));
    expect(badValue.message).toContain('100000 characters');
    const badName = await refusal('file.list', { [long]: 1 });
    expect(badName.path).toBe(`${'x'.repeat(79)}…`);
    expect(JSON.stringify(badName)).not.toContain('x'.repeat(81));
  });

  test('an unknown channel is refused before any input check', async () => {
    const { handlers } = recordingHandlers();
    expect(await dispatchRequest(handlers, 'file.delete', null)).toMatchObject({ ok: false, error: { code: 'ipc.unknownChannel' } });
  });
});

describe('the output schemas (checked in the contract suite, not at run time)', () => {
  test('name the field of a reply or an event payload that does not fit', () => {
    expect(checkChannelOutput('app.info', { mode: 'electron', version: '1', platform: 'linux' })).toEqual([]);
    expect(checkChannelOutput('app.info', { mode: 'cloud', version: '1', platform: 'linux' }).map((f) => f.path)).toEqual(['mode']);
    expect(checkChannelOutput('file.version', { version: { mtimeMs: 1, sha256: 'short' } }).map((f) => f.path)).toEqual(['version']);
    expect(checkChannelOutput('sample.find', { offset: null })).toEqual([]);
    expect(checkEventPayload('task.progress', { runId: 'r', done: 1, total: 2, label: 'x', state: 'paused' }).map((f) => f.path)).toEqual(['state']);
  });
});
