import { describe, expect, it } from 'vitest';
import { createDesign } from '../../src-shared/model/index.ts';
import { detectFormat, readFileTexts, readImport } from './read-import.ts';
import { aliasBomb, deepJsonTemplate, deepWorkbenchModel } from '../../src-shared/formats/__fixtures__/hostile-imports.ts';
import workbench from '../../e2e/data/an-online-shop.nosql-workbench.json?raw';
import describeTable from '../../tests/fixtures/describe-table/shop-orders.describe-table.json?raw';
import timeToLive from '../../tests/fixtures/describe-table/shop-orders.describe-time-to-live.json?raw';
import backups from '../../tests/fixtures/describe-table/shop-orders.describe-continuous-backups.json?raw';

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
    expect(readImport('{"hello": 1}', 'x').problems).toEqual([expect.objectContaining({ code: 'import.unknownFormat', message: expect.stringContaining('found a JSON object with "hello"') })]);
    expect(readImport('hello: world', 'x').problems).toEqual([expect.objectContaining({ code: 'file.notJson' })]);
  });

  it('tells the formats apart by their top-level fields', () => {
    expect(detectFormat({ formatVersion: 1 })).toBe('keyplan');
    expect(detectFormat({ DataModel: [] })).toBe('nosql-workbench');
    expect(detectFormat([1])).toBeUndefined();
    expect(detectFormat('text')).toBeUndefined();
  });

  it('reads describe-table output with its companions given as further files, in any order', () => {
    const alone = readFileTexts(['orders.json'], [describeTable]);
    expect(alone.format).toBe('describe-table');
    expect(alone.design!.tables[0]!.ttlAttribute).toBeUndefined();
    expect(alone.notes.filter((n) => n.kind === 'dropped').map((n) => n.message).join(' ')).toContain('describe-time-to-live');

    const withCompanions = readFileTexts(['ttl.json', 'orders.json', 'backups.json'], [timeToLive, describeTable, backups]);
    expect(withCompanions.source).toBe('ttl.json, orders.json, backups.json');
    expect(withCompanions.problems).toEqual([]);
    const table = withCompanions.design!.tables[0]!;
    expect(table.ttlAttribute).toBe(JSON.parse(timeToLive).TimeToLiveDescription.AttributeName);
    expect(table.pointInTimeRecovery?.enabled).toBe(true);
  });

  it('refuses several files at once unless one is describe-table output', () => {
    const reading = readFileTexts(['a.json', 'b.json'], [workbench, workbench]);
    expect(reading.design).toBeUndefined();
    expect(reading.problems).toEqual([expect.objectContaining({ code: 'import.severalFiles', message: expect.stringContaining('2 files were given at once (a.json, b.json)') })]);
  });

  it('answers hostile texts with one problem each, never an exception (issue 27: the dialog stayed empty)', () => {
    const template = readImport(deepJsonTemplate(50_000), 'deep.json');
    expect(template.design).toBeUndefined();
    expect(template.problems).toEqual([expect.objectContaining({ code: 'import.tooDeep', path: `Resources.T.Properties.TableName${'["Fn::If"][0]'.repeat(48)}` })]);
    expect(readImport(deepWorkbenchModel(100_000), 'model.json').problems).toEqual([expect.objectContaining({ code: 'import.tooDeep', path: `DataModel[0].TableData[0]${'.a'.repeat(96)}` })]);
    expect(readImport(aliasBomb(99, 1000), 'Pasted text').problems).toEqual([expect.objectContaining({ code: 'import.aliasExpansion', path: '' })]);
  });
});
