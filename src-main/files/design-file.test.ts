import { describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { Problem } from '../../src-shared/model/index.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { checkDesign, parseDesignText, readDesignFile } from './design-file.ts';

/** The error `parseDesignText` throws for `text`. */
function errorOf(text: string): AppError {
  try {
    parseDesignText(text, 'broken.keyplan.json');
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`expected ${text} to fail`);
}

/** What the UI shows for an error: its message, then the message of each problem in `details`. */
const shown = (error: AppError): string =>
  [error.message, ...(Array.isArray(error.details) ? (error.details as Problem[]).map((p) => p.message) : [])].join('\n');

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('checkDesign', () => {
  it.each([
    ['an object that is not a design', '{ "hello": "world" }', 'not a Keyplan design'],
    ['a JSON array', '[1,2]', 'must be a JSON object'],
    ['a newer format version', '{ "formatVersion": 99, "tables": [] }', 'format version 99'],
  ])('says what is wrong with %s once, naming the file', (_what, text, sentence) => {
    const error = errorOf(text);
    expect(error.message).toContain('"broken.keyplan.json"');
    expect(count(shown(error), sentence)).toBe(1);
  });

  it('gives not-a-design errors the file.notDesign code', () => {
    expect(errorOf('{ "hello": "world" }').code).toBe('file.notDesign');
    expect(errorOf('[1,2]').code).toBe('file.notDesign');
  });

  it('keeps every problem of a design with a broken shape in details', () => {
    let error: unknown;
    try {
      checkDesign({ formatVersion: 1, id: 'd', name: 'x', tables: 'no' }, 'a.keyplan.json', 'was not saved');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('file.invalidDesign');
    expect((error as AppError).details).toEqual([expect.objectContaining({ code: 'model.schema', path: 'tables' })]);
  });
});

describe('a file that is not JSON', () => {
  it('says where and why in one line, without quoting the whole text', () => {
    let message = '';
    try {
      parseDesignText('{\n  "a": ,\n}', 'broken.keyplan.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('"broken.keyplan.json" is not valid JSON (line 2, column');
    expect(message).not.toContain('\n');
  });
});

describe('readDesignFile', () => {
  it('refuses bytes that are not UTF-8 with the byte offset, line and column, instead of opening replacement characters', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'latin1.keyplan.json');
    // "Café" written as Latin-1: E9 followed by a quote is no UTF-8 sequence. Byte 28 is the E9.
    const head = Buffer.from('{"formatVersion":1,\n"name":"Caf', 'latin1');
    await writeFile(path, Buffer.concat([head, Buffer.from([0xe9]), Buffer.from('","tables":[]}')]));
    const error = await readDesignFile(path, 'latin1.keyplan.json').then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(error?.code).toBe('file.notUtf8');
    expect(error?.details).toEqual({ offset: head.length, line: 2, column: 12 });
    expect(error?.message).toContain(`byte offset ${head.length}`);
    expect(error?.message).toContain('"latin1.keyplan.json"');
  });
});
