/**
 * Multi-attribute GSI keys: the Table & indexes screen's key editor (each part an ordered list of
 * attributes) and the Entities & keys screen's Indexes block (what an entity writes into each key
 * attribute, and whether its items are in the index).
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type KeyPart = 'Partition key' | 'Sort key';

/** One GSI's card on the Table & indexes screen. */
export class GsiKeyEditor {
  constructor(
    readonly page: Page,
    public name: string,
  ) {}

  get card(): Locator {
    return this.page.getByRole('article', { name: `GSI ${this.name}` });
  }

  async rename(name: string): Promise<void> {
    await this.card.getByLabel('Index name').fill(name);
    this.name = name;
    await expect(this.card).toBeVisible();
  }

  part(part: KeyPart): Locator {
    return this.page.getByRole('article', { name: `GSI ${this.name}` }).getByRole('group', { name: part });
  }

  /** The name field of attribute `n` (1-based) of a part; `count` is how many the part has (a part of one has no number). */
  attribute(part: KeyPart, n: number, count: number): Locator {
    return this.part(part).getByRole('combobox', { name: count > 1 ? `${part} attribute ${n}` : part, exact: true });
  }

  typeOf(part: KeyPart, n: number, count: number): Locator {
    return this.part(part).getByRole('combobox', { name: `${count > 1 ? `${part} attribute ${n}` : part} type`, exact: true });
  }

  /**
   * Makes the part exactly `names`, in that order, through the list editor: the first field renamed,
   * then "Add … attribute" and the new field (focused, its suggested name selected) typed over.
   * Types follow the entities' attributes of the same name; `types` sets the others.
   */
  async setPart(part: KeyPart, names: string[], types: Record<string, 'S' | 'N' | 'B'> = {}): Promise<void> {
    const [first, ...rest] = names;
    if (first === undefined) throw new Error('a key part needs an attribute');
    await this.attribute(part, 1, 1).fill(first);
    for (const [i, name] of rest.entries()) {
      await this.part(part).getByRole('button', { name: `Add ${part.toLowerCase()} attribute` }).click();
      const field = this.attribute(part, i + 2, i + 2);
      await expect(field).toBeFocused();
      await this.page.keyboard.type(name);
      await expect(field).toHaveValue(name);
    }
    for (const [i, name] of names.entries()) {
      const type = types[name];
      if (type) await this.typeOf(part, i + 1, names.length).selectOption(type);
    }
  }

  /** The names and types of a part's attributes as shown, in key order: `round:N`. */
  async shown(part: KeyPart): Promise<string[]> {
    const names = this.part(part).getByRole('combobox').filter({ hasNot: this.page.locator('option') });
    const types = this.part(part).getByRole('combobox').filter({ has: this.page.locator('option') });
    const n = await names.count();
    const out: string[] = [];
    for (let i = 0; i < n; i += 1) out.push(`${await names.nth(i).inputValue()}:${await types.nth(i).inputValue()}`);
    return out;
  }

  /** "Carried by Match (N)" under an attribute. */
  carriedNotes(part: KeyPart): Locator {
    return this.part(part).getByText(/^Carried by /);
  }

  explanation(part: KeyPart): Locator {
    return this.part(part).locator('p.explain');
  }
}

/** The Indexes block of the selected entity on the Entities & keys screen. */
export class EntityIndexesBlock {
  constructor(readonly page: Page) {}

  get block(): Locator {
    return this.page.getByRole('region', { name: 'Indexes', exact: true });
  }

  index(entity: string, index: string): Locator {
    return this.block.getByRole('listitem', { name: `${index} for ${entity}` });
  }

  /** "Every Match item is in it", "In it: 80% of Match items — those that carry bracket …", "Not in it: …". */
  membership(entity: string, index: string): Locator {
    return this.index(entity, index).getByTestId('membership');
  }

  derivation(entity: string, index: string): Locator {
    return this.index(entity, index).getByTestId('membership-derivation');
  }

  /** The attributes written for the partition key and the sort key, as read. */
  parts(entity: string, index: string): Locator {
    return this.index(entity, index).getByRole('definition');
  }
}
