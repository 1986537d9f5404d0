import { describe, expect, it } from 'vitest';
import { createDesign } from '../../../src-shared/model/edits.ts';
import { detectFormat, readImport } from './read-import.ts';
import workbench from '../../../e2e/data/an-online-shop.nosql-workbench.json?raw';

describe('reading an import', () => {
  it('reads a NoSQL Workbench model with a summary of what opens', () => {
    const reading = readImport(workbench, 'shop.json');
    expect(reading.format).toBe('nosql-workbench');
    expect(reading.problems).toEqual([]);
    expect(reading.summary).toMatchObject({ tables: 1, entities: 9, patterns: 0 });
    expect(reading.summary!.contents[0]!.entities).toContain('warehouseItem');
  });

  it('reads a Keyplan design; one that breaks a rule opens with the rule listed', () => {
    const design = createDesign('Shop');
    expect(readImport(JSON.stringify(design), 'a').design?.name).toBe('Shop');
    const broken = { ...design, tables: [{ ...design.tables[0]!, name: 'x' }] };
    const reading = readImport(JSON.stringify(broken), 'b');
    expect(reading.design).toBeDefined();
    expect(reading.problems).toEqual([expect.objectContaining({ code: 'model.invalidName', path: 'tables[0].name' })]);
  });

  it('refuses what cannot open, with every problem and its path', () => {
    const reading = readImport(JSON.stringify({ ModelName: 'M', DataModel: [{ TableName: 5 }] }), 'm');
    expect(reading.design).toBeUndefined();
    expect(reading.problems.map((p) => p.path)).toContain('DataModel[0].TableName');
    expect(readImport('{"formatVersion": 1,', 'x').problems).toEqual([expect.objectContaining({ code: 'file.notJson', path: '' })]);
    expect(readImport('  ', 'x').problems).toHaveLength(1);
    expect(readImport('{"hello": 1}', 'x').problems).toEqual([expect.objectContaining({ code: 'model.notKeyplanDesign' })]);
  });

  it('tells the formats apart by their top-level fields', () => {
    expect(detectFormat({ formatVersion: 1 })).toBe('keyplan');
    expect(detectFormat({ DataModel: [] })).toBe('nosql-workbench');
    expect(detectFormat([1])).toBeUndefined();
    expect(detectFormat('text')).toBeUndefined();
  });
});
