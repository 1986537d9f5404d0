import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromNoSqlWorkbench } from './nosql-workbench/import.ts';
import { decodeImportText } from './import-text.ts';

const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];

describe('decodeImportText', () => {
  it('gives the text of UTF-8 bytes, which the NoSQL Workbench import reads', () => {
    const bytes = readFileSync(resolve(import.meta.dirname, 'nosql-workbench/__fixtures__/ecommerce.nosql-workbench.golden.json'));
    const text = decodeImportText(new Uint8Array(bytes), 'ecommerce.json');
    expect(text).toEqual({ ok: true, value: bytes.toString('utf8') });
    expect(text.ok && fromNoSqlWorkbench(JSON.parse(text.value)).ok).toBe(true);
  });

  it('refuses a model saved as Latin-1, naming the byte offset', () => {
    // {"ModelName":"Caf is 17 bytes; é in Latin-1 is the single byte 0xE9, which UTF-8 reads as a 3-byte lead.
    const bytes = new Uint8Array([...utf8('{"ModelName":"Caf'), 0xe9, ...utf8('"}')]);
    const result = decodeImportText(bytes, 'model.json');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ code: 'file.notUtf8', path: '', details: { offset: 17, line: 1, column: 18, reason: 'badContinuation' } });
    expect(result.errors[0]?.message).toContain('byte offset 17');
  });
});
