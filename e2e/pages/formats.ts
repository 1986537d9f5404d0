/** Page objects for the Raw JSON screen and the export and import dialogs. */
import { expect, type Locator, type Page } from '@playwright/test';

/** The Raw JSON screen: the design in Monaco, its status line and the list of markers under it. */
export class JsonPage {
  readonly #editorRequests: string[] = [];

  constructor(readonly page: Page) {
    // Monaco is its own chunks (editor.api, the lib/monaco module, workers), fetched on first use only.
    page.on('request', (request) => {
      if (/\/assets\/(editor\.api|monaco|jsonMode|editor\.worker|json\.worker)-/.test(request.url())) this.#editorRequests.push(request.url());
    });
  }

  /** The editor's files the page has fetched so far. */
  get editorRequests(): readonly string[] {
    return this.#editorRequests;
  }

  async show(): Promise<void> {
    await this.page.getByRole('navigation').getByRole('button', { name: 'Raw JSON' }).click();
    await expect(this.editorHost).toHaveAttribute('data-ready', 'true');
  }

  get editorHost(): Locator {
    return this.page.getByTestId('json-editor');
  }

  /** Monaco's text area (what has keyboard focus while typing). */
  get editor(): Locator {
    return this.page.getByRole('textbox', { name: 'Design JSON' });
  }

  get status(): Locator {
    return this.page.getByTestId('json-status');
  }

  markers(): Locator {
    return this.page.getByRole('list', { name: 'Markers' }).getByRole('listitem');
  }

  /** The visible lines of the editor (Monaco renders only what is on screen). */
  get visibleText(): Locator {
    return this.editorHost.locator('.view-lines');
  }

  /** Replaces every occurrence of `find` with `replacement`, as a user does with the editor's find and replace. */
  async replaceAll(find: string, replacement: string): Promise<void> {
    await this.editorHost.locator('.view-lines').click();
    await this.page.keyboard.press('Control+h');
    const findInput = this.editorHost.getByRole('textbox', { name: 'Find' });
    const replaceInput = this.editorHost.getByRole('textbox', { name: 'Replace' });
    await findInput.fill(find);
    await replaceInput.fill(replacement);
    await this.editorHost.getByRole('button', { name: /^Replace All/ }).click();
    await this.page.keyboard.press('Escape');
  }

  /** Rests the mouse on the first visible `text` in the editor; returns the hover it opens. */
  async hover(text: string): Promise<Locator> {
    await this.editorHost.getByText(text, { exact: true }).first().hover();
    return this.page.getByRole('tooltip');
  }

  /** Opens completion on a new line after the line showing `text`; returns the suggestions. */
  async completeAfter(text: string): Promise<Locator> {
    await this.editorHost.getByText(text, { exact: true }).first().click();
    await this.page.keyboard.press('End');
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('Control+Space');
    return this.page.getByRole('listbox', { name: 'Suggest' }).getByRole('option');
  }

  /** The toolbar's Undo (the design's history; Ctrl+Z inside the editor undoes its text). */
  async undoFromToolbar(): Promise<void> {
    await this.page.getByRole('button', { name: 'Undo', exact: true }).click();
  }

  /** Waits until the text is valid and has reached the design. */
  async inSync(): Promise<void> {
    await expect(this.status).toHaveAttribute('data-state', 'design');
  }
}

/** The export dialog: one tab per format, a read-only preview, Copy and Save. */
export class ExportDialog {
  constructor(readonly page: Page) {}

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Export design' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'Export…' }).click();
    await expect(this.dialog).toBeVisible();
    await expect(this.preview).toHaveAttribute('data-ready', 'true');
  }

  tab(label: string): Locator {
    return this.dialog.getByRole('tab', { name: label });
  }

  async choose(label: string): Promise<void> {
    await this.tab(label).click();
    await expect(this.tab(label)).toHaveAttribute('aria-selected', 'true');
  }

  get preview(): Locator {
    return this.dialog.getByTestId('export-preview');
  }

  get fileName(): Locator {
    return this.dialog.getByLabel('Export file name');
  }

  get message(): Locator {
    return this.dialog.getByTestId('export-message');
  }

  get problemsNote(): Locator {
    return this.dialog.getByTestId('export-problems-note');
  }

  async save(): Promise<void> {
    await this.dialog.getByRole('button', { name: /^(Save|Replace)/ }).click();
  }

  async close(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Close' }).click();
    await expect(this.dialog).toBeHidden();
  }
}

/** The import dialog: a file picker, a paste area, what the input reads as, and accepting it. */
export class ImportDialog {
  constructor(readonly page: Page) {}

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Import a design' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'Import…' }).click();
    await expect(this.dialog).toBeVisible();
  }

  async openWithShortcut(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+i');
    await expect(this.dialog).toBeVisible();
  }

  async pick(path: string): Promise<void> {
    await this.dialog.getByLabel('File').setInputFiles(path);
  }

  async paste(text: string): Promise<void> {
    await this.dialog.getByLabel('Or paste the text').fill(text);
    await this.dialog.getByRole('button', { name: 'Read pasted text' }).click();
  }

  /** Drops a file on the window, as from the desktop. */
  async dropOnWindow(name: string, content: string): Promise<void> {
    await this.dropFilesOnWindow([{ name, content }]);
  }

  /** Drops several files on the window at once, as a selection from the desktop. */
  async dropFilesOnWindow(files: readonly { name: string; content: string }[]): Promise<void> {
    const transfer = await this.page.evaluateHandle((list) => {
      const data = new DataTransfer();
      for (const f of list) data.items.add(new File([f.content], f.name, { type: f.name.endsWith('.json') ? 'application/json' : 'application/yaml' }));
      return data;
    }, files);
    await this.page.dispatchEvent('body', 'dragover', { dataTransfer: transfer });
    await this.page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
    await expect(this.dialog).toBeVisible();
  }

  get result(): Locator {
    return this.dialog.getByTestId('import-result');
  }

  get summary(): Locator {
    return this.dialog.getByTestId('import-summary');
  }

  problems(): Locator {
    return this.dialog.getByRole('list', { name: 'Import problems' }).getByRole('listitem');
  }

  /** The notes of one kind: skipped (malformed in the source), not imported, or inferred. */
  notes(kind: 'warning' | 'dropped' | 'inferred'): Locator {
    return this.dialog.getByTestId(`import-notes-${kind}`);
  }

  /** The items of one kind of notes (its list opened first). */
  async noteItems(kind: 'warning' | 'dropped' | 'inferred'): Promise<Locator> {
    const group = this.notes(kind);
    if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
    return group.getByRole('listitem');
  }

  get accept(): Locator {
    return this.dialog.getByRole('button', { name: 'Open as new design' });
  }

  async cancel(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(this.dialog).toBeHidden();
  }
}

/** The Design sheet screen: the entity chart, the access-pattern chart and the table settings. */
export class DesignSheetPage {
  constructor(readonly page: Page) {}

  async show(): Promise<void> {
    await this.page.getByRole('navigation').getByRole('button', { name: 'Design sheet' }).click();
    await expect(this.page.getByTestId('design-sheet')).toBeVisible();
  }

  entityChart(table: string): Locator {
    return this.page.getByRole('table', { name: `Entity chart of table ${table}` });
  }

  entity(table: string, name: string): Locator {
    return this.entityChart(table).getByRole('row', { name: `Entity ${name}`, exact: true });
  }

  patternChart(table: string): Locator {
    return this.page.getByRole('table', { name: `Access-pattern chart of table ${table}` });
  }

  patterns(): Locator {
    return this.page.getByTestId('sheet-pattern');
  }

  pattern(name: string): Locator {
    return this.page.getByRole('row', { name: `Pattern ${name}`, exact: true });
  }

  servedBy(name: string): Locator {
    return this.pattern(name).getByTestId('sheet-served-by');
  }

  keyCondition(name: string): Locator {
    return this.pattern(name).getByTestId('sheet-key-condition');
  }

  onDemand(name: string): Locator {
    return this.pattern(name).getByTestId('sheet-on-demand');
  }

  provisioned(name: string): Locator {
    return this.pattern(name).getByTestId('sheet-provisioned');
  }

  /** The sheet's "Export Markdown…" (the export dialog, on the Markdown tab). */
  async exportMarkdown(): Promise<void> {
    await this.page.getByRole('button', { name: 'Export Markdown…' }).click();
  }

  /** How far the screen's content scrolls sideways, in pixels (0: it fits). */
  async sidewaysOverflow(): Promise<number> {
    return this.page.getByTestId('design-sheet').evaluate((sheet) => {
      const content = sheet.closest('.content') ?? document.documentElement;
      return Math.max(content.scrollWidth - content.clientWidth, document.documentElement.scrollWidth - document.documentElement.clientWidth);
    });
  }
}

/** The costs screen's per-pattern table: the figures the design sheet repeats. */
export class PatternCostsTable {
  constructor(readonly page: Page) {}

  row(table: string, pattern: string): Locator {
    return this.page
      .getByRole('table', { name: `Pattern costs of table ${table}` })
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell', { name: pattern, exact: true }) });
  }

  /** The on-demand dollars per month of a pattern (the fourth column). */
  onDemand(table: string, pattern: string): Locator {
    return this.row(table, pattern).getByRole('cell').nth(3);
  }

  /** The provisioned dollars per month of a pattern (the fifth column). */
  provisioned(table: string, pattern: string): Locator {
    return this.row(table, pattern).getByRole('cell').nth(4);
  }
}
