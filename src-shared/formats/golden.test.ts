/**
 * Golden files: every export of the e-commerce example and of the all-settings, auto-scaling and
 * multi-attribute fixtures (`__fixtures__/<design>.keyplan.json`), byte for byte, each golden file in
 * its format's folder (`<format>/__fixtures__/<design>.<format>.golden.<ext>`). A change to an
 * exporter shows up here as a diff to review; after reviewing, regenerate with
 * `KEYPLAN_UPDATE_GOLDEN=1 npx vitest run src-shared/formats/golden.test.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design } from '../model/index.ts';
import {
  toCdk,
  toCliInputs,
  toCloudFormation,
  toCloudFormationJson,
  toDesignSheetHtml,
  toDesignSheetMarkdown,
  toDynamoDbJson,
  toNoSqlWorkbench,
  toOneTable,
  toTerraform,
} from './index.ts';

const root = resolve(import.meta.dirname, '../..');
const fixtures = resolve(import.meta.dirname, '__fixtures__');
/** The golden files of `format`: in its own folder, beside its exporter. */
const goldensOf = (format: string): string => resolve(import.meta.dirname, format, '__fixtures__');
const isUpdating = process.env.KEYPLAN_UPDATE_GOLDEN === '1';

const DESIGNS: Record<string, string> = {
  ecommerce: resolve(root, 'examples/ecommerce.keyplan.json'),
  'all-settings': resolve(fixtures, 'all-settings.keyplan.json'),
  'auto-scaling': resolve(fixtures, 'auto-scaling.keyplan.json'),
  'multi-attribute': resolve(fixtures, 'multi-attribute.keyplan.json'),
};

/** A fixed date for the Workbench model's metadata, so that the golden file is stable. */
const DATE_MS = Date.UTC(2026, 2, 14, 21, 5);

const FORMATS: Array<[format: string, extension: string, exporter: (d: Design) => string]> = [
  ['cloudformation', 'yaml', toCloudFormation],
  ['cloudformation', 'json', toCloudFormationJson],
  ['terraform', 'tf', toTerraform],
  ['cdk', 'ts', toCdk],
  ['cli-input', 'json', (d) => toCliInputs(d).map((f) => f.content).join('')],
  ['nosql-workbench', 'json', (d) => toNoSqlWorkbench(d, { maxItemsPerEntity: 3, dateMs: DATE_MS })],
  ['onetable', 'json', toOneTable],
  ['dynamodb-json', 'jsonl', (d) => toDynamoDbJson(d, { maxItemsPerTable: 12, seed: 7 })],
  ['design-sheet', 'md', toDesignSheetMarkdown],
  ['design-sheet', 'html', toDesignSheetHtml],
];

describe.each(Object.entries(DESIGNS))('golden exports of %s', (name, file) => {
  const design = JSON.parse(readFileSync(file, 'utf8')) as Design;

  it.each(FORMATS)('%s (.%s) matches its golden file', (format, extension, exporter) => {
    const golden = resolve(goldensOf(format), `${name}.${format}.golden.${extension}`);
    const actual = exporter(design);
    if (isUpdating || !existsSync(golden)) writeFileSync(golden, actual);
    expect(actual).toBe(readFileSync(golden, 'utf8'));
  });

  it.each(FORMATS)('%s (.%s) is the same on every call and does not change the design', (_, __, exporter) => {
    const before = JSON.stringify(design);
    expect(exporter(design)).toBe(exporter(JSON.parse(before) as Design));
    expect(JSON.stringify(design)).toBe(before);
  });
});
