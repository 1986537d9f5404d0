/**
 * NoSQL Workbench import, step two: entities and key templates. Entities come from the table's facets
 * (with table-level items assigned to them), else from its items grouped by a type attribute or by
 * the literal prefix of the partition key. Key templates are inferred from the items' key values,
 * split at `#`. See `import.ts` for the rules in full.
 */
import { formatKeyTemplate, PLACEHOLDER_NAME, type KeyTemplatePart, joinPath } from '../../model/index.ts';
import type { Attribute, AttributeType, KeyAttributeType, KeyBinding } from '../../model/index.ts';
import { WORD } from './sample-items.ts';
import { uniqueName } from '../common/table-spec.ts';
import { setOwn } from '../common/values.ts';
import { textOf, typeOf, type Row, type TableRead } from './model-shape.ts';

/** Attribute names that mark an item's entity type, compared in lower case. */
const TYPE_ATTRIBUTE_NAMES = ['type', 'entitytype', 'entity_type', '_type', '__type', '__typename', '_et', '__edb_e__'];

/** `USER` → `userId`, `order_item` → `orderItemId`, `c` → `cId`. */
function idNameFor(word: string): string {
  const words = word.split(/[_-]+/).filter((w) => w !== '');
  return `${words.map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())).join('')}Id`;
}

/** A name a placeholder can hold: invalid characters become `_`, a leading digit gets `_` before it. */
function placeholderName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

interface AttributeDraft {
  name: string;
  type: AttributeType;
  /** Value text per row of the entity (for matching key parts), undefined where the row has none. */
  values: Array<string | undefined>;
  /** Made up for a key part; `isKeyNamed`: named like a key attribute of the table. */
  isSynthetic: boolean;
  isKeyNamed: boolean;
  /** For a new attribute named after the word before its key part (`c#…` → `cId`): that word. */
  word?: string;
}

/** An entity before inference: its name, where it came from in the model, and its items. */
export interface EntityDraft {
  name: string;
  path: string;
  rows: Row[];
  /** Attribute names the model declares for the entity (facet NonKeyAttributes, or what its items hold). */
  declared: string[];
  partitionKeyAlias?: string;
  sortKeyAlias?: string;
  /** The facet's NonKeyAttributes with key attributes: which GSIs an entity without items is in. */
  listed?: Set<string>;
}

/** Which attribute name marks the entity type in every row, if one does. */
function typeAttributeOf(rows: readonly Row[], keyNames: ReadonlySet<string>): string | undefined {
  if (rows.length === 0) return undefined;
  const names: string[] = [];
  for (const row of rows) for (const n of row.values.keys()) if (!names.includes(n)) names.push(n);
  for (const candidate of TYPE_ATTRIBUTE_NAMES) {
    const name = names.find((n) => n.toLowerCase() === candidate && !keyNames.has(n));
    if (name === undefined) continue;
    if (rows.every((row) => { const v = row.values.get(name); return v !== undefined && 'S' in v && v.S.trim() !== ''; })) return name;
  }
  return undefined;
}

const prefixOf = (row: Row, pk: string): string | undefined => {
  const v = row.values.get(pk);
  const m = v && 'S' in v ? /^([A-Za-z][A-Za-z0-9_]*)#/.exec(v.S) : null;
  return m ? m[1] : undefined;
};

/** Non-key attribute names the rows hold: declared ones in the table's order, then others as first seen. */
function attributesHeld(rows: readonly Row[], table: TableRead, keyNames: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const n of row.values.keys()) if (!keyNames.has(n)) seen.add(n);
  return [...[...table.declared.keys()].filter((n) => seen.has(n)), ...[...seen].filter((n) => !table.declared.has(n))];
}

/** The table's entities: one per facet (with table-level items assigned), else groups of its items. */
export function entityDrafts(table: TableRead, keyNames: ReadonlySet<string>): EntityDraft[] {
  if (table.facets && table.facets.length > 0) {
    const drafts: EntityDraft[] = table.facets.map((f) => {
      const d: EntityDraft = { name: f.name, path: f.path, rows: [...f.rows], declared: f.nonKeyAttributes.filter((n) => !keyNames.has(n)), listed: new Set(f.nonKeyAttributes) };
      if (f.partitionKeyAlias !== undefined) d.partitionKeyAlias = f.partitionKeyAlias;
      if (f.sortKeyAlias !== undefined) d.sortKeyAlias = f.sortKeyAlias;
      return d;
    });
    // Table-level items go to the facet their type attribute names, else to the best-fitting one.
    const typeAttribute = typeAttributeOf(table.rows, keyNames);
    for (const row of table.rows) {
      const typeValue = typeAttribute ? textOf(row.values.get(typeAttribute))?.toLowerCase() : undefined;
      let target = typeValue === undefined ? undefined : drafts.find((d) => d.name.toLowerCase() === typeValue);
      if (!target) {
        const held = [...row.values.keys()].filter((n) => !keyNames.has(n));
        let best = -Infinity;
        for (const d of drafts) {
          const fit = held.filter((n) => d.declared.includes(n)).length - held.filter((n) => !d.declared.includes(n)).length;
          if (fit > best) {
            best = fit;
            target = d;
          }
        }
      }
      target?.rows.push(row);
    }
    return drafts;
  }
  if (table.rows.length === 0) return [];
  const groups = new Map<string, Row[]>();
  const typeAttribute = typeAttributeOf(table.rows, keyNames);
  const pk = table.keys.partitionKey.name;
  const fallback = table.name;
  for (const row of table.rows) {
    const group = typeAttribute ? textOf(row.values.get(typeAttribute))! : (prefixOf(row, pk) ?? fallback);
    const list = groups.get(group);
    if (list) list.push(row);
    else groups.set(group, [row]);
  }
  return [...groups].map(([name, rows]) => ({ name, path: joinPath(table.path, 'TableData'), rows, declared: attributesHeld(rows, table, keyNames) }));
}

/** The key attribute names of one GSI or LSI (an LSI's include the table's partition key). */
interface IndexKeys {
  names: string[];
}

/** Infers one entity's attributes and key templates from its rows. */
class EntityInference {
  readonly attributes: AttributeDraft[] = [];
  readonly keys = new Map<string, KeyBinding>();
  /** The key attributes the entity gets a template for (set before `infer`). */
  carried: ReadonlySet<string> = new Set();

  constructor(
    private readonly draft: EntityDraft,
    private readonly table: TableRead,
    private readonly keyNames: ReadonlySet<string>,
    private readonly keyTypes: ReadonlyMap<string, KeyAttributeType>,
  ) {
    for (const name of draft.declared) this.attributes.push(this.declaredAttribute(name));
  }

  private declaredAttribute(name: string): AttributeDraft {
    const seen: AttributeType[] = [];
    const values = this.draft.rows.map((row) => {
      const v = row.values.get(name);
      if (v !== undefined) {
        const t = typeOf(v);
        if (!seen.includes(t)) seen.push(t);
      }
      return textOf(v);
    });
    const declaredType = this.table.declared.get(name);
    const type = seen.length === 1 ? seen[0]! : declaredType !== undefined && (seen.length === 0 || seen.includes(declaredType)) ? declaredType : (seen[0] ?? 'S');
    return { name, type, values, isSynthetic: false, isKeyNamed: false };
  }

  private find(name: string): AttributeDraft | undefined {
    return this.attributes.find((a) => a.name === name);
  }

  /** A name for a new attribute: `base`, or `base2`, `base3` … when another attribute or key has it. */
  private freshName(base: string, key: string): string {
    const taken = new Set([...this.attributes.map((a) => a.name), ...[...this.keyNames].filter((k) => k !== key)]);
    return uniqueName(base, taken);
  }

  /**
   * The attribute whose value text equals `parts[i]` in every member row (`rows` are indexes into the
   * entity's rows): an entity attribute, else another key attribute the rows hold (which then becomes
   * an attribute of the entity).
   */
  private match(parts: ReadonlyArray<string>, rows: readonly number[], keyType: KeyAttributeType, key: string, word?: string): AttributeDraft | undefined {
    const fits = (values: ReadonlyArray<string | undefined>): boolean => rows.every((r, i) => values[r] === parts[i]);
    const typeFits = (t: AttributeType): boolean => (keyType === 'S' ? t === 'S' || t === 'N' || t === 'BOOL' : t === keyType);
    for (const a of this.attributes) {
      // A part made up for `c#…` is not reused after another word (`o#…`), even when the sample values agree.
      if (a.word !== undefined && a.word !== word) continue;
      if (PLACEHOLDER_NAME.test(a.name) && typeFits(a.type) && fits(a.values)) return a;
    }
    for (const k of this.keyNames) {
      // Only keys the entity will carry: an item of it holds no other key attribute.
      if (k === key || !this.carried.has(k) || this.find(k) || !PLACEHOLDER_NAME.test(k)) continue;
      const type = this.keyTypes.get(k)!;
      if (!typeFits(type)) continue;
      const values = this.draft.rows.map((row) => {
        const v = row.values.get(k);
        return v !== undefined && typeOf(v) === type ? textOf(v) : undefined;
      });
      if (!fits(values)) continue;
      const a: AttributeDraft = { name: k, type, values, isSynthetic: true, isKeyNamed: true };
      this.attributes.push(a);
      return a;
    }
    return undefined;
  }

  private synthetic(base: string, key: string, type: AttributeType, rows: readonly number[], parts: readonly string[], word?: string): AttributeDraft {
    const name = this.freshName(base, key);
    const values: Array<string | undefined> = this.draft.rows.map(() => undefined);
    rows.forEach((r, i) => (values[r] = parts[i]));
    const a: AttributeDraft = { name, type, values, isSynthetic: true, isKeyNamed: this.keyNames.has(name) };
    if (word !== undefined) a.word = word;
    this.attributes.push(a);
    return a;
  }

  /** The alias the facet gives this key, when it can name a placeholder. */
  private aliasFor(key: string): string | undefined {
    const alias =
      key === this.table.keys.partitionKey.name ? this.draft.partitionKeyAlias : key === this.table.keys.sortKey?.name ? this.draft.sortKeyAlias : undefined;
    return alias !== undefined && alias !== key && PLACEHOLDER_NAME.test(alias) && !this.keyNames.has(alias) ? alias : undefined;
  }

  /** Infers the template of key attribute `key` from the member rows' values. */
  infer(key: string, keyType: KeyAttributeType, memberRows: readonly number[]): void {
    const rows: number[] = [];
    const texts: string[] = [];
    for (const r of memberRows) {
      const v = this.draft.rows[r]!.values.get(key);
      const text = v !== undefined && typeOf(v) === keyType ? textOf(v) : undefined;
      if (text !== undefined && text !== '') {
        rows.push(r);
        texts.push(text);
      }
    }
    const ownName = PLACEHOLDER_NAME.test(key) ? key : placeholderName(key);
    if (texts.length === 0) {
      // No item holds this key: the key attribute holds a value of its own.
      const a = this.find(ownName) ?? this.synthetic(ownName, key, keyType, [], []);
      this.keys.set(key, { template: `{${a.name}}` });
      return;
    }
    if (keyType !== 'S') {
      const a = this.match(texts, rows, keyType, key) ?? this.synthetic(this.aliasFor(key) ?? ownName, key, keyType, rows, texts);
      this.keys.set(key, { template: `{${a.name}}` });
      return;
    }
    const split = texts.map((t) => t.split('#'));
    const count = split[0]!.length;
    let segments: string[][];
    if (split.every((s) => s.length === count)) {
      segments = Array.from({ length: count }, (_, j) => split.map((s) => s[j]!));
    } else {
      // Different shapes: the leading words all items share stay literal, the rest is one part.
      const shortest = Math.min(...split.map((s) => s.length));
      let lead = 0;
      while (lead < shortest - 1 && split.every((s) => s[lead] === split[0]![lead]) && WORD.test(split[0]![lead]!)) lead += 1;
      segments = [...Array.from({ length: lead }, (_, j) => split.map((s) => s[j]!)), split.map((s) => s.slice(lead).join('#'))];
    }
    const isLiteral = segments.map((seg) => seg.every((x) => x === seg[0]) && (seg[0] === '' || WORD.test(seg[0]!)));
    const varying = isLiteral.filter((x) => !x).length;
    const keyNameParts = key.split('#');
    const parts: KeyTemplatePart[] = [];
    segments.forEach((seg, j) => {
      if (j > 0) parts.push({ kind: 'literal', text: '#' });
      if (isLiteral[j]) {
        if (seg[0] !== '') parts.push({ kind: 'literal', text: seg[0]! });
        return;
      }
      const before = j > 0 && isLiteral[j - 1] && segments[j - 1]![0] !== '' ? segments[j - 1]![0]! : undefined;
      let a = this.match(seg, rows, 'S', key, before);
      if (!a) {
        const alias = varying === 1 ? this.aliasFor(key) : undefined;
        const fromKeyName = keyNameParts.length === segments.length && keyNameParts[j] !== '' ? placeholderName(keyNameParts[j]!) : undefined;
        const base = alias ?? (before !== undefined ? idNameFor(before) : undefined) ?? fromKeyName ?? ownName;
        a = this.synthetic(base, key, 'S', rows, seg, alias === undefined ? before : undefined);
      }
      parts.push({ kind: 'attribute', name: a.name });
    });
    const merged: KeyTemplatePart[] = [];
    for (const p of parts) {
      const last = merged.at(-1);
      if (p.kind === 'literal' && last?.kind === 'literal') last.text += p.text;
      else merged.push({ ...p });
    }
    this.keys.set(key, { template: formatKeyTemplate(merged) });
  }

  /** The entity's attributes: declared ones, then new ones for key parts, then those named like key attributes. */
  orderedAttributes(): Attribute[] {
    const ordered = [...this.attributes.filter((a) => !a.isSynthetic), ...this.attributes.filter((a) => a.isSynthetic && !a.isKeyNamed), ...this.attributes.filter((a) => a.isKeyNamed)];
    return ordered.map((a) => ({ name: a.name, type: a.type }));
  }
}

/** The keys of every GSI and LSI, for which items are in which index. */
function indexKeysOf(table: TableRead): IndexKeys[] {
  const pk = table.keys.partitionKey.name;
  return [
    ...table.gsis.map((g) => ({ names: [g.keys.partitionKey.name, ...(g.keys.sortKey ? [g.keys.sortKey.name] : [])] })),
    ...table.lsis.map((l) => ({ names: [pk, (l.keys.sortKey ?? l.keys.partitionKey).name] })),
  ];
}

/** Infers one entity's attributes and key templates (one per key attribute it carries) from its items. */
export function inferEntity(draft: EntityDraft, table: TableRead, keyNames: ReadonlySet<string>, keyTypes: ReadonlyMap<string, KeyAttributeType>): { attributes: Attribute[]; keys: Record<string, KeyBinding> } {
  const inference = new EntityInference(draft, table, keyNames, keyTypes);
  const tableKeys = new Set([table.keys.partitionKey.name, ...(table.keys.sortKey ? [table.keys.sortKey.name] : [])]);
  const holds = (row: Row, name: string): boolean => {
    const v = row.values.get(name);
    const text = v !== undefined && typeOf(v) === keyTypes.get(name) ? textOf(v) : undefined;
    return text !== undefined && text !== '';
  };
  const indexes = indexKeysOf(table);
  const all = draft.rows.map((_, i) => i);
  // Which keys the entity carries, and from which of its items: all items for the table's keys; for
  // an index's keys, the items that hold every key of an index using it.
  const carried = new Map<string, number[]>();
  for (const name of keyTypes.keys()) {
    if (tableKeys.has(name)) {
      carried.set(name, all);
      continue;
    }
    const using = indexes.filter((ix) => ix.names.includes(name));
    const members = all.filter((r) => using.some((ix) => ix.names.every((n) => tableKeys.has(n) || holds(draft.rows[r]!, n))));
    const isListed = draft.rows.length === 0 && draft.listed !== undefined && using.some((ix) => ix.names.every((n) => tableKeys.has(n) || draft.listed!.has(n)));
    if (members.length > 0 || isListed) carried.set(name, members);
  }
  inference.carried = new Set(carried.keys());
  for (const [name, members] of carried) inference.infer(name, keyTypes.get(name)!, members);
  const keys: Record<string, KeyBinding> = {};
  for (const [k, binding] of inference.keys) setOwn(keys, k, binding);
  return { attributes: inference.orderedAttributes(), keys };
}
