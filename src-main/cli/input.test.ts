/**
 * What commands do with bytes that are not UTF-8 text, JSON nested deeper than the error scanner can
 * follow, error messages holding long runs of white space, and how a problem's path and message are listed.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { parseJson, problemLine, readText } from './input.ts';
import { errorLine } from './io.ts';

async function keyplan(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd });
  return { code, stdout, stderr };
}

async function tempBytes(name: string, bytes: Uint8Array): Promise<string> {
  const dir = await makeTempDir('keyplan-input-');
  await writeFile(join(dir, name), bytes);
  return dir;
}

const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];

describe('readText', () => {
  test('reads UTF-8 text, keeping a byte-order mark for the JSON parser to drop', async () => {
    const dir = await tempBytes('a.json', new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"name":"José"}')]));
    const text = await readText('a.json', dir);
    expect(text).toEqual({ ok: true, value: '\uFEFF{"name":"José"}' });
    expect(parseJson(text.ok ? text.value : '', 'a.json')).toEqual({ ok: true, value: { name: 'José' } });
  });

  test('refuses bytes that are not UTF-8, naming the byte offset, line and column', async () => {
    // `{\n  "name": "Jos` is 16 bytes, then 0xE9 (é in Latin-1) followed by `"`.
    const dir = await tempBytes('latin1.json', new Uint8Array([...utf8('{\n  "name": "Jos'), 0xe9, ...utf8('"\n}')]));
    expect(await readText('latin1.json', dir)).toEqual({
      ok: false,
      errors: ['"latin1.json" is not UTF-8 text: byte offset 16 (line 2, column 15): 0xE9 0x22, a multi-byte sequence that the next byte does not continue; expected a file saved as UTF-8.'],
    });
  });
});

describe('commands on a file that is not UTF-8', () => {
  test.each([['check'], ['cost'], ['size'], ['export', '--to', 'cloudformation'], ['import', '--from', 'nosql-workbench']])(
    '%s: one line with the byte offset, exit 1',
    async (command, ...rest) => {
      const dir = await tempBytes('bad.json', new Uint8Array([...utf8('{"a":"'), 0xc0, 0xaf, ...utf8('"}')]));
      const run = await keyplan([command, 'bad.json', ...rest], dir);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe('keyplan: "bad.json" is not UTF-8 text: byte offset 6 (line 1, column 7): 0xC0, a byte that never appears in UTF-8; expected a file saved as UTF-8.\n');
    },
  );
});

describe('parseJson', () => {
  test('JSON nested deeper than the stack is reported without a position, never a crash', () => {
    const result = parseJson('['.repeat(1_000_000), 'deep.json');
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.errors[0]).toMatch(/^"deep\.json" is not valid JSON: /);
  });

  test('drops V8\'s quote of the text when it is cut with "..."', () => {
    const result = parseJson(`{"a": ${'x'.repeat(1000)}`, 'long.json');
    expect(result.ok ? '' : result.errors[0]).toBe('"long.json" is not valid JSON (line 1, column 7): Unexpected token \'x\'.');
  });
});

describe('errorLine', () => {
  test('turns every run of white space holding a line break into one space, as before', () => {
    const spaces = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', 'a', 'b');
    fc.assert(
      fc.property(fc.array(spaces, { maxLength: 30 }), (chars) => {
        const message = chars.join('');
        expect(errorLine(message)).toBe(`keyplan: ${message.replace(/\s*\n\s*/g, ' ')}`);
      }),
    );
  });

  test('keeps a long run of spaces without a line break as it is', () => {
    const message = `a${' '.repeat(200_000)}b\n  c`;
    expect(errorLine(message)).toBe(`keyplan: a${' '.repeat(200_000)}b c`);
  });
});

describe('problemLine', () => {
  test('puts the path before a message that does not name it, once before one that does', () => {
    expect(problemLine({ path: 'tables[0].name', message: 'must be 3–255 characters.' })).toBe('tables[0].name: must be 3–255 characters.');
    expect(problemLine({ path: 'tables[0].name', message: 'tables[0].name: must be 3–255 characters.' })).toBe('tables[0].name: must be 3–255 characters.');
    expect(problemLine({ path: 'Resources.T.Properties.AttributeDefinitions[0].AttributeType', message: 'Resources.T.Properties.AttributeDefinitions[0].AttributeType is the text "X"; expected S, N or B.' })).toBe(
      'Resources.T.Properties.AttributeDefinitions[0].AttributeType is the text "X"; expected S, N or B.',
    );
    // A longer path that merely starts like it is a different place: prefixed.
    expect(problemLine({ path: 'tables[0]', message: 'tables[0].name is empty.' })).toBe('tables[0]: tables[0].name is empty.');
    expect(problemLine({ path: '', message: 'The file is empty.' })).toBe('The file is empty.');
  });
});
