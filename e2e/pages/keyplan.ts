/** The page object: every locator and action the specs use lives here. */
import { expect, type Locator, type Page } from '@playwright/test';

export class KeyplanPage {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.ready();
  }

  async ready(): Promise<void> {
    // Generous: on a busy two-core CI machine the first load of the built UI can take several seconds.
    await expect(this.page.locator('[data-app-state="ready"]')).toBeVisible({ timeout: 30_000 });
  }

  /** Waits until every edit is stored in IndexedDB (what survives a reload or crash). */
  async storedLocally(): Promise<void> {
    await expect(this.page.locator('[data-autosave="idle"]')).toBeVisible();
  }

  get notice(): Locator {
    return this.page.getByTestId('notice');
  }

  get fileStatus(): Locator {
    return this.page.getByTestId('file-status');
  }

  get designName(): Locator {
    return this.page.getByLabel('Design name');
  }

  openDesigns(): Locator {
    return this.page.getByRole('list', { name: 'Open designs' }).getByRole('listitem');
  }

  async newDesign(): Promise<void> {
    await this.page.getByRole('button', { name: 'New design' }).first().click();
  }

  async openExample(name: string): Promise<void> {
    await this.page.getByRole('button', { name }).click();
  }

  async show(screen: 'Table & indexes' | 'Entities & keys' | 'Access patterns' | 'Costs' | 'Data' | 'Partitions' | 'Raw JSON'): Promise<void> {
    await this.page.getByRole('navigation').getByRole('button', { name: screen }).click();
  }

  // Table & indexes
  get tableName(): Locator {
    return this.page.getByLabel('Table name');
  }

  async addGsi(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add GSI' }).click();
  }

  gsi(name: string): Locator {
    return this.page.getByRole('article', { name: `GSI ${name}` });
  }

  // Entities & keys
  async addEntity(name: string): Promise<void> {
    await this.page.getByLabel('New entity name').fill(name);
    await this.page.getByRole('button', { name: 'Add entity' }).click();
    await expect(this.page.getByLabel('Entity name', { exact: true })).toHaveValue(name);
  }

  entityList(): Locator {
    return this.page.getByRole('list', { name: 'Entities' });
  }

  async addAttribute(name: string, type = 'S'): Promise<void> {
    await this.page.getByRole('button', { name: 'Add attribute' }).click();
    const names = this.page.getByLabel(/^Attribute \d+ name$/);
    const last = names.last();
    await last.fill(name);
    await this.page.getByLabel(`Attribute ${name} type`).selectOption(type);
  }

  template(keyAttribute: string): Locator {
    return this.page.getByLabel(`${keyAttribute} template`, { exact: true });
  }

  keyRow(keyAttribute: string): Locator {
    return this.page.getByTestId(`key-${keyAttribute}`);
  }

  preview(keyAttribute: string): Locator {
    return this.page.getByLabel(`${keyAttribute} preview`, { exact: true });
  }

  // Files
  async save(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save', exact: true }).click();
  }

  async saveAs(fileName: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Save as…' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Save design as' });
    await dialog.getByRole('textbox').fill(fileName);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
  }

  async openFile(fileName: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Open…' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Open a design' });
    await dialog.getByRole('button', { name: new RegExp(fileName.replace(/[.]/g, '\\.')) }).click();
  }

  /** The labels of every screen in the sidebar, in its order (whatever screens this build has). */
  async screenNames(): Promise<string[]> {
    const buttons = this.page.getByRole('navigation').getByRole('list').last().getByRole('button');
    return (await buttons.allInnerTexts()).map((t) => t.split('\n')[0]!.trim());
  }

  /** Shows a screen by its sidebar label, including screens `show` does not list. */
  async showScreen(label: string): Promise<void> {
    const button = this.page.getByRole('navigation').getByRole('button', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
    await button.click();
    await expect(button).toHaveAttribute('aria-current', 'page');
  }

  /** The screen's scroll container (the area right of the sidebar, below the top bar). */
  get content(): Locator {
    return this.page.locator('.content');
  }

  /**
   * What scrolls sideways or sticks out of the window, one line each (empty when nothing does): the
   * page, the content area, every element that scrolls horizontally (scrollWidth > clientWidth + 1),
   * and every element whose box ends past the window's right edge. The code editor of Raw JSON
   * scrolls its own long lines and is left out.
   */
  async horizontalOverflows(): Promise<string[]> {
    return this.page.evaluate(() => {
      const found: string[] = [];
      const name = (el: Element): string => {
        const classes = [...el.classList].filter((c) => !c.startsWith('svelte-')).join('.');
        const label = el.getAttribute('aria-label') ?? el.getAttribute('data-testid');
        return `${el.tagName.toLowerCase()}${classes ? `.${classes}` : ''}${label ? `[${label}]` : ''}`;
      };
      const overflows = (el: Element): boolean => el.scrollWidth > el.clientWidth + 1;
      const page = document.scrollingElement!;
      if (overflows(page)) found.push(`the page scrolls sideways: ${page.scrollWidth} > ${page.clientWidth} px`);
      const content = document.querySelector('.content');
      if (content && overflows(content)) found.push(`the content area scrolls sideways: ${content.scrollWidth} > ${content.clientWidth} px`);
      const width = document.documentElement.clientWidth;
      for (const el of document.querySelectorAll('body *')) {
        if (el.closest('.monaco-editor, .monaco-aria-container')) continue;
        const style = getComputedStyle(el);
        if (el !== content && (style.overflowX === 'auto' || style.overflowX === 'scroll') && overflows(el)) {
          found.push(`${name(el)} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth} px`);
        }
        const box = el.getBoundingClientRect();
        if (box.width > 0 && box.height > 0 && box.right > width + 1 && style.position !== 'fixed') {
          // Clipped on purpose by a box inside the window (an ellipsis; a scroller is checked above) is fine.
          let clipped = false;
          for (let up = el.parentElement; up && !clipped; up = up.parentElement) {
            clipped = getComputedStyle(up).overflowX !== 'visible' && up.getBoundingClientRect().right <= width + 1;
          }
          if (!clipped) found.push(`${name(el)} ends at x = ${Math.round(box.right)}, past the window's ${width} px`);
        }
        // Content spilling out of its table cell (over the next column or the card's edge), unless
        // something inside the cell clips it on purpose (an ellipsis).
        const cell = el.parentElement?.closest('td, th');
        if (cell && box.width > 0 && box.right > cell.getBoundingClientRect().right + 1) {
          let clipped = false;
          for (let up = el.parentElement; up && up !== cell; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') clipped = true;
          if (!clipped) found.push(`${name(el)} spills out of its table cell by ${Math.round(box.right - cell.getBoundingClientRect().right)} px`);
        }
      }
      return found.slice(0, 20);
    });
  }

  async undo(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+z');
  }

  async redo(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+Shift+z');
  }
}

/** The access-patterns and costs screens. */
export class PatternsPage {
  constructor(readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByRole('row', { name: `Pattern ${name}` });
  }

  rows(): Locator {
    return this.page.getByTestId('pattern-row');
  }

  badge(name: string): Locator {
    return this.row(name).getByTestId('plan-badge');
  }

  editor(): Locator {
    return this.page.getByTestId('pattern-editor');
  }

  warnings(): Locator {
    return this.page.getByTestId('warning');
  }

  async add(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add pattern' }).click();
    await expect(this.editor()).toBeVisible();
  }

  async rename(name: string): Promise<void> {
    await this.editor().getByLabel('Name', { exact: true }).fill(name);
  }

  async setEntity(name: string): Promise<void> {
    await this.editor().getByLabel('Entity').selectOption({ label: name });
  }

  async setOperation(label: string): Promise<void> {
    await this.editor().getByLabel('Operation').selectOption({ label });
  }

  async setKnown(attributes: string[]): Promise<void> {
    const boxes = this.editor().getByRole('checkbox');
    for (const box of await boxes.all()) {
      const name = (await box.locator('xpath=..').innerText()).trim();
      if (attributes.includes(name) !== (await box.isChecked())) await box.click();
    }
  }

  /** Opens a pattern's editor and sets its rate. */
  async setRate(name: string, perSecond: number): Promise<void> {
    await this.row(name).getByRole('cell').nth(1).click();
    const rate = this.editor().getByLabel('Requests per second (peak)');
    await rate.fill(String(perSecond));
    await rate.blur();
  }

  /** The per-request number of a row (RCU or WCU), as shown. */
  async perRequest(name: string): Promise<number> {
    const text = await this.row(name).getByRole('button', { name: /RCU|WCU/ }).first().innerText();
    return Number(text.replace(/[^0-9.]/g, ''));
  }

  scanRatio(name: string): Locator {
    return this.row(name).getByTestId('scan-ratio');
  }

  /** The side panel a pattern opens in (its plan, figures and editor). */
  panel(): Locator {
    return this.page.getByTestId('pattern-panel');
  }

  async closePanel(): Promise<void> {
    await this.panel().getByRole('button', { name: 'Close the pattern editor' }).click();
    await expect(this.panel()).toBeHidden();
  }

  async openPattern(name: string): Promise<void> {
    await this.row(name).getByRole('button', { name, exact: true }).click();
    await expect(this.panel()).toBeVisible();
  }

  /** "needs a key design", where a pattern's cost would be. */
  needsKeyDesign(name: string): Locator {
    return this.row(name).getByTestId('needs-key-design');
  }

  /** The note under the list: how many patterns the costs leave out. */
  leftOut(): Locator {
    return this.page.getByTestId('patterns-left-out');
  }

  /** For a pattern with no entity yet: types the names the caller knows. */
  async typeKnown(names: string[]): Promise<void> {
    const field = this.editor().getByLabel(/^The caller knows .*: add a name$/);
    for (const name of names) {
      await field.fill(name);
      await field.press('Enter');
    }
  }

  /** Creates the pattern's entity from its editor. */
  async createEntity(name: string): Promise<void> {
    const editor = this.editor();
    if (await editor.getByLabel('Name of the new entity').isHidden()) await editor.getByRole('button', { name: 'New entity for this pattern…' }).click();
    await editor.getByLabel('Name of the new entity').fill(name);
    await editor.getByRole('button', { name: 'Create entity' }).click();
    await expect(editor.getByRole('combobox', { name: /^Entity/ })).toHaveValue(/.+/);
  }

  /** The header cell of the patterns table labelled `text`. */
  header(text: string): Locator {
    return this.page.getByRole('table', { name: 'Access patterns' }).getByRole('columnheader', { name: text });
  }

  async explainPerRequest(name: string): Promise<Locator> {
    await this.row(name).getByRole('button', { name: /RCU|WCU/ }).first().click();
    return this.page.getByRole('dialog');
  }
}

/** Typing into the Raw JSON editor as a user does (the screen's other parts are in `JsonPage`, pages/formats.ts). */
export class JsonTyping {
  constructor(readonly page: Page) {}

  get editorHost(): Locator {
    return this.page.getByTestId('json-editor');
  }

  /**
   * Puts the cursor at the end of line `line` of the text (from the keyboard: Ctrl+Home, arrows, End;
   * a click can land on a line the editor is still moving) and types `typed` there, key by key.
   */
  async typeAtEndOfLine(line: number, typed: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Design JSON' }).focus();
    await this.page.keyboard.press('ControlOrMeta+Home');
    for (let i = 1; i < line; i += 1) await this.page.keyboard.press('ArrowDown');
    await this.page.keyboard.press('End');
    await this.page.keyboard.type(typed);
  }

  /** Presses Backspace `count` times where the cursor is. */
  async erase(count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) await this.page.keyboard.press('Backspace');
  }

  /** The editor's own undo (Ctrl/Cmd+Z with the text focused), not the design's. */
  async undoInEditor(): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Design JSON' }).focus();
    await this.page.keyboard.press('ControlOrMeta+z');
  }

  /** Selects all the text and pastes `text` over it, as from the clipboard. */
  async pasteOverAll(text: string): Promise<void> {
    const input = this.page.getByRole('textbox', { name: 'Design JSON' });
    await input.focus();
    await this.page.keyboard.press('ControlOrMeta+a');
    await input.evaluate((element, pasted) => {
      const data = new DataTransfer();
      data.setData('text/plain', pasted);
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  }

  /** "Show the current design": drops text that is not applied. */
  get showCurrentDesign(): Locator {
    return this.page.getByRole('button', { name: 'Show the current design' });
  }
}

/** The command palette (Ctrl/Cmd+K): every command and screen, filtered as one types. */
export class Palette {
  constructor(readonly page: Page) {}

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Command palette' });
  }

  get input(): Locator {
    return this.dialog.getByRole('combobox', { name: 'Command or screen' });
  }

  options(): Locator {
    return this.dialog.getByRole('listbox', { name: 'Commands' }).getByRole('option');
  }

  /** The option the arrows have reached (what Enter runs). */
  get activeOption(): Locator {
    return this.dialog.getByRole('option', { selected: true });
  }

  async open(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+k');
    await expect(this.input).toBeFocused();
  }

  /** Types a query, waits for the first option to match `expectFirst`, and chooses it with Enter. */
  async choose(query: string, expectFirst: string | RegExp): Promise<void> {
    await this.open();
    await this.input.fill(query);
    await expect(this.options().first()).toContainText(expectFirst);
    await this.page.keyboard.press('Enter');
  }

  /** `choose`, for a command that runs at once: the palette closes. */
  async run(query: string, expectFirst: string | RegExp): Promise<void> {
    await this.choose(query, expectFirst);
    await expect(this.dialog).toBeHidden();
  }

  /** The field a command that needs a value (a checkpoint's name) asks it in. */
  valueField(label: string): Locator {
    return this.dialog.getByLabel(label);
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await expect(this.dialog).toBeHidden();
  }
}

/** Walking the window with the Tab key, as a keyboard user does. */
export class KeyboardWalk {
  constructor(readonly page: Page) {}

  /**
   * Presses Tab from the top of the page until the focus comes back round, and compares what it
   * reached with every visible, enabled control (buttons, links, fields, summaries, tab stops).
   * Returns the controls never reached and those reached without a visible focus mark (an outline or
   * a box shadow). In the code editor, Tab indents: the walk presses Ctrl+M there, the editor's
   * "Tab moves focus" switch the screen tells users about.
   */
  async walk(maxPresses = 400): Promise<{ controls: number; unreachable: string[]; noVisibleFocus: string[] }> {
    const controls = await this.page.evaluate(() => {
      const all = document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, summary, [tabindex]');
      let n = 0;
      const found: string[] = [];
      for (const el of all) {
        const box = el.getBoundingClientRect();
        if (el.closest('.monaco-editor, [inert]') || (el as HTMLButtonElement).disabled || el.getAttribute('tabindex') === '-1') continue;
        // A radio group is one Tab stop (its checked radio); the arrow keys move within it.
        if (el instanceof HTMLInputElement && el.type === 'radio' && !el.checked && el.name && document.querySelector(`input[type="radio"][name="${CSS.escape(el.name)}"]:checked`)) continue;
        if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        el.dataset.walk = String((n += 1));
        const label = el.getAttribute('aria-label');
        const text = (el.textContent || (el as HTMLInputElement).value || el.getAttribute('placeholder') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
        found.push(`${el.dataset.walk}:${el.tagName.toLowerCase()}${label ? `[${label}]` : ''}${text ? ` "${text}"` : ''}`);
      }
      (document.activeElement as HTMLElement | null)?.blur();
      return found;
    });
    const reached = new Set<string>();
    const noVisibleFocus: string[] = [];
    for (let i = 0; i < maxPresses; i += 1) {
      await this.page.keyboard.press('Tab');
      const focused = await this.page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return undefined;
        const style = getComputedStyle(el);
        return {
          walk: el.dataset.walk,
          inEditor: el.closest('.monaco-editor') !== null,
          isVisible: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none',
        };
      });
      if (!focused) continue;
      if (focused.inEditor) {
        await this.page.keyboard.press(process.platform === 'darwin' ? 'Control+Shift+m' : 'Control+m');
        continue;
      }
      if (focused.walk === undefined) continue;
      if (reached.has(focused.walk)) break;
      reached.add(focused.walk);
      if (!focused.isVisible) noVisibleFocus.push(controls.find((c) => c.startsWith(`${focused.walk}:`)) ?? focused.walk);
    }
    const unreachable = controls.filter((c) => !reached.has(c.slice(0, c.indexOf(':'))));
    return { controls: controls.length, unreachable, noVisibleFocus };
  }
}

/** The colour theme: the sidebar's picker and what the page shows. */
export class Appearance {
  constructor(readonly page: Page) {}

  /** System, Light or Dark (values `system`, `light`, `dark`). */
  get picker(): Locator {
    return this.page.getByRole('combobox', { name: 'Theme' });
  }

  /** `<html data-theme>`: the theme shown, `light` or `dark`. */
  async expectShown(theme: 'light' | 'dark'): Promise<void> {
    await expect(this.page.locator('html')).toHaveAttribute('data-theme', theme);
  }
}
