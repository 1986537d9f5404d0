import { describe, expect, it, vi } from 'vitest';
import { addEntity, createDesign } from '../../src-shared/model/index.ts';
import { EXPORT_FORMATS, exportBaseName } from '../../src-shared/formats/index.ts';
import { ExportDialogState, renderExport, requestExportFormat, type ExportHost, type ExportSaveResult } from './export.svelte.ts';

const empty = createDesign('My Shop: v2');
const design = addEntity(empty, empty.tables[0]!.id, 'User');

function host(results: ExportSaveResult[]) {
  const saveExport = vi.fn<ExportHost['saveExport']>(async () => results.shift()!);
  return { host: { design, saveExport }, saveExport };
}

describe('export formats', () => {
  it('names files after the design', () => {
    expect(exportBaseName('My Shop: v2')).toBe('my-shop-v2');
    expect(exportBaseName('  ...  ')).toBe('design');
  });

  it.each(EXPORT_FORMATS.map((f) => [f.label, f] as const))('%s renders the design', (_label, format) => {
    const rendered = renderExport(format, design);
    expect(rendered.ok).toBe(true);
    if (!rendered.ok) return;
    expect(rendered.files.length).toBeGreaterThan(0);
    for (const file of rendered.files) {
      expect(file.name.startsWith('my-shop-v2')).toBe(true);
      expect(file.content.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['cloudformation', 'my-shop-v2.cloudformation.yaml'],
    ['cloudformation-json', 'my-shop-v2.cloudformation.json'],
    ['terraform', 'my-shop-v2.tf'],
    ['cdk', 'my-shop-v2-stack.ts'],
    ['cli-input', 'my-shop-v2.AppTable.create-table.json'],
    ['nosql-workbench', 'my-shop-v2.nosql-workbench.json'],
    ['markdown', 'my-shop-v2.design-sheet.md'],
    ['html', 'my-shop-v2.design-sheet.html'],
  ] as const)('%s is saved as %s by default', (id, name) => {
    const state = new ExportDialogState(host([]).host);
    state.choose(id);
    expect(state.saveName).toBe(name);
  });
});

describe('the export dialog', () => {
  it("offers the registry's formats, in its order (the formats keyplan export --to takes)", () => {
    const state = new ExportDialogState(host([]).host);
    expect(state.formats.map((f) => f.id)).toEqual(EXPORT_FORMATS.map((f) => f.id));
    expect(state.formats.map((f) => f.label)).toContain('Design sheet (Markdown)');
  });

  it('opens on the format a screen asked for, once', () => {
    requestExportFormat('markdown');
    const asked = new ExportDialogState(host([]).host);
    expect(asked.format.id).toBe('markdown');
    expect(asked.file?.content).toMatch(/^# Design sheet: My Shop: v2\n/);
    expect(asked.saveName).toBe('my-shop-v2.design-sheet.md');
    expect(new ExportDialogState(host([]).host).format.id).toBe('cloudformation');
  });

  it('starts on CloudFormation YAML with its default name', () => {
    const state = new ExportDialogState(host([]).host);
    expect(state.file?.content).toContain('AWS::DynamoDB::Table');
    expect(state.saveName).toBe('my-shop-v2.cloudformation.yaml');
    state.choose('terraform');
    expect(state.saveName).toBe('my-shop-v2.tf');
  });

  it('asks before replacing an existing file, then replaces it', async () => {
    const { host: h, saveExport } = host([{ kind: 'exists', name: 'a' }, { kind: 'saved', name: 'a' }]);
    const state = new ExportDialogState(h);
    await state.save();
    expect(state.confirmReplace).toBe(true);
    await state.save();
    expect(saveExport.mock.calls.map((c) => c[2])).toEqual([false, true]);
    expect(state.message).toEqual({ kind: 'info', text: 'Saved a.' });
  });

  it('says why a save failed', async () => {
    const state = new ExportDialogState(host([{ kind: 'failed', message: 'Could not save: disk full' }]).host);
    await state.save();
    expect(state.message).toEqual({ kind: 'error', text: 'Could not save: disk full' });
  });
});
