/**
 * Key bindings compiled against an entity's columns: which items carry a key attribute (its `when`
 * condition holds, its padded placeholders fit, it is not empty, it is within DynamoDB's key size
 * limit), the rendered key value, and its size, computed from the parts' sizes without rendering when
 * the key is a string.
 */
import { base64DecodedLength, numberValueBytes, parseDecimal } from '../capacity/index.ts';
import {
  evaluateCondition,
  parseCondition,
  type Condition,
  parseKeyTemplate,
  utf8ByteLength,
  type KeyTemplatePart,
} from '../model/index.ts';
import type { KeyAttribute, KeyBinding } from '../model/index.ts';
import { hashFraction } from '../hash/index.ts';
import type { Column } from './columns.ts';
import { DigitKeyHasher } from './key-hash.ts';
import { deriveSeed, hash2 } from './random.ts';
import { digitCount } from './sizes.ts';

/**
 * How to group items by a string key without rendering it: items whose keys have equal shapes
 * (`head`, `source`, `detail`) and equal `identity(row)` have equal key strings, and different
 * identities mean different strings. Keys of different shapes can still render the same string
 * when one head is a prefix of the other; the store checks that.
 */
export interface KeyStructure {
  head: string;
  /** The column the only placeholder shows (references followed), or null for a constant. */
  source: object | null;
  detail: string;
  /** Identities are integers in 0 … bound − 1. */
  bound: number;
  identity: (row: number) => number;
  /** When `identity(row)` is `codes[row]` (or `row`, for null): the codes, for a loop to read directly. */
  codes: Uint32Array | null | undefined;
}

interface Placeholder {
  column: Column;
  /** Zero-padded width; 0 for none. */
  pad: number;
  /** The literal text after the placeholder. */
  after: string;
}

/**
 * DynamoDB's size limit a key's values must keep (docs/dynamodb-rules.md §7): 2,048 bytes for a
 * partition key, 1,024 for a sort key, UTF-8 bytes of an S value or raw bytes of a B value.
 */
export interface KeySizeLimit {
  bytes: number;
  role: 'partition' | 'sort';
}

/**
 * A GSI key attribute an entity carries under the key's own name, with no template: the attribute is
 * the key (a natural key, as multi-attribute GSI keys use; docs/dynamodb-rules.md §11).
 */
export interface NaturalKey {
  natural: string;
}

/** One key attribute as one entity fills it: from its template, or the attribute itself (`NaturalKey`). */
export class CompiledKey {
  readonly name: string;
  readonly type: KeyAttribute['type'];
  readonly nameBytes: number;
  /** Why no item carries the key (the template does not parse, names a missing attribute …). */
  readonly failure: string | undefined;
  /** Why the key's condition is ignored (it does not parse). */
  readonly ignoredCondition: string | undefined;
  /** Whether every item carries the key, so `carries` need not be asked. */
  readonly isAlways: boolean;

  readonly #head: string;
  readonly #placeholders: Placeholder[] = [];
  readonly #literalBytes: number;
  readonly #hasPadding: boolean;
  readonly #condition: Condition | undefined;
  readonly #conditionColumns: Column[] = [];
  readonly #record: Record<string, unknown> = {};
  readonly #shards: { count: number; seed: number; from: Column | undefined } | undefined;
  /**
   * A natural key whose attribute has the key's own type: its values are the column's, so whether an
   * item carries it and its size are the column's too, with no rendering (a number column's values
   * are always valid numbers).
   */
  readonly #natural: Column | undefined;
  /** Condition results by the value identity of its only column (−1: not known yet). */
  readonly #memo: Int8Array | undefined;
  /** `valueBytes` when it is the same for every item that carries the key. */
  readonly fixedValueBytes: number | undefined;
  /** The limit items are checked against, when some value could pass it (see the constructor). */
  readonly sizeLimit: KeySizeLimit | undefined;
  /** Items `carriedMask` left out because their value is over `sizeLimit`. */
  overLimitItems = 0;
  /** The key's digit hasher (see `hashFractions`), null when it has none; undefined until first asked. */
  #digits: DigitKeyHasher | null | undefined;

  /**
   * `sizeLimit`: check each item's value against DynamoDB's key size limit and leave out the items
   * over it (counted in `overLimitItems`). Pass it when some value could be over the limit: checking
   * costs a pass over the items that keys of a known, small width do not need.
   */
  constructor(attribute: KeyAttribute, binding: KeyBinding | NaturalKey, columns: ReadonlyMap<string, Column>, seed: number, entityId: string, sizeLimit?: KeySizeLimit) {
    this.name = attribute.name;
    this.type = attribute.type;
    this.nameBytes = utf8ByteLength(attribute.name);
    let failure: string | undefined;
    let head = '';
    const template = 'natural' in binding ? undefined : binding.template;
    const parsed = template === undefined ? undefined : parseKeyTemplate(template);
    // A natural key is its attribute alone: no template to parse, whatever characters the name holds.
    const parts: KeyTemplatePart[] = 'natural' in binding ? [{ kind: 'attribute', name: binding.natural }] : parsed?.ok ? parsed.value.parts : [];
    const shown = template === undefined ? attribute.name : `${attribute.name} = ${template}`;
    if (parsed && !parsed.ok) failure = parsed.errors[0]?.message ?? `Key template ${JSON.stringify(template)} does not parse.`;
    for (const part of failure === undefined ? parts : []) {
      if (part.kind === 'literal') {
        const last = this.#placeholders.at(-1);
        if (last) last.after += part.text;
        else head += part.text;
        continue;
      }
      const column = columns.get(part.name);
      if (!column) {
        failure = `${shown}: no attribute ${JSON.stringify(part.name)}`;
        break;
      }
      if (column.type !== 'S' && column.type !== 'N' && column.type !== 'B' && column.type !== 'BOOL') {
        failure = `${shown}: ${part.name} is a ${column.type}, which a key cannot hold`;
        break;
      }
      this.#placeholders.push({ column, pad: part.pad ?? 0, after: '' });
    }
    this.failure = failure;
    this.#head = head;
    this.#literalBytes = utf8ByteLength(head) + this.#placeholders.reduce((s, p) => s + utf8ByteLength(p.after), 0);
    this.#hasPadding = this.#placeholders.some((p) => p.pad > 0);

    let ignoredCondition: string | undefined;
    const when = 'natural' in binding ? undefined : binding.when;
    if (when !== undefined && when.trim() !== '') {
      const c = parseCondition(when);
      if (c.ok) {
        this.#condition = c.value;
        const names = new Set(c.value.clauses.map((x) => x.attribute));
        for (const n of names) {
          const column = columns.get(n);
          if (column) this.#conditionColumns.push(column);
        }
      } else ignoredCondition = `${attribute.name}: the condition ${JSON.stringify(when)} does not parse; it is ignored`;
    }
    this.ignoredCondition = ignoredCondition;

    const shards = 'natural' in binding ? undefined : binding.shards;
    if (shards && shards.count >= 2) {
      const from = shards.method === 'calculated' && shards.from !== undefined ? columns.get(shards.from) : undefined;
      this.#shards = { count: Math.floor(shards.count), seed: deriveSeed(seed, `${entityId}\u0000${attribute.name}\u0000shard`), from };
    }

    const only = this.#conditionColumns.length === 1 ? this.#conditionColumns[0] : undefined;
    this.#memo = only && only.identityBound > 0 && only.identityBound <= 65_536 ? new Int8Array(only.identityBound).fill(-1) : undefined;

    const naturalColumn = 'natural' in binding && failure === undefined ? this.#placeholders[0]?.column : undefined;
    this.#natural = naturalColumn?.type === this.type ? naturalColumn : undefined;

    let fixed: number | undefined = failure === undefined && this.type === 'S' && !this.#shards ? this.#literalBytes : undefined;
    for (const p of this.#placeholders) {
      const b = p.column.fixedTextBytes;
      fixed = fixed === undefined || b === undefined ? undefined : fixed + Math.max(b, p.pad);
    }
    this.fixedValueBytes = this.#natural?.type === 'N' ? this.#natural.fixedBytes : fixed;

    this.sizeLimit = this.type === 'N' ? undefined : sizeLimit;
    this.isAlways =
      this.sizeLimit === undefined &&
      failure === undefined &&
      this.#placeholders.every((p) => p.column.present === null) &&
      this.#condition === undefined &&
      !this.#hasPadding &&
      ((this.type === 'S' && (this.#literalBytes > 0 || this.#shards !== undefined)) || this.#natural?.type === 'N');
  }

  /** The literal text before the first placeholder. */
  get head(): string {
    return this.#head;
  }

  /** The key's structure, when it is a string key of at most one injective placeholder. */
  structure(): KeyStructure | undefined {
    if (this.failure !== undefined || this.type !== 'S' || this.#placeholders.length > 1) return undefined;
    const shards = this.#shards;
    const span = shards ? shards.count + 1 : 1;
    const detail = shards ? `${shards.count}:${shards.from ? 'calculated' : 'random'}` : '';
    const only = this.#placeholders[0];
    if (!only) return { head: this.#head, source: null, detail, bound: span, identity: (row) => this.#shard(row), codes: undefined };
    const column = only.column;
    if (!column.isInjective || column.identityBound <= 0) return undefined;
    return {
      head: this.#head,
      source: column.source,
      detail: `${only.pad}\u0000${only.after}\u0000${detail}`,
      bound: column.identityBound * span,
      identity: span === 1 ? (row) => column.identity(row) : (row) => column.identity(row) * span + this.#shard(row),
      codes: span === 1 ? column.identityCodes : undefined,
    };
  }

  /** Whether item `row` has this key attribute. */
  carries(row: number): boolean {
    return this.#carries(row) && !this.isOverLimit(row);
  }

  /** Whether item `row`'s value is over `sizeLimit` (false when there is none to check). */
  isOverLimit(row: number): boolean {
    const limit = this.sizeLimit;
    if (limit === undefined) return false;
    return (this.type === 'S' ? this.#textBytes(row) : this.valueBytes(row)) > limit.bytes;
  }

  #carries(row: number): boolean {
    if (this.failure !== undefined) return false;
    const natural = this.#natural;
    if (natural !== undefined) {
      if (!natural.isPresent(row)) return false;
      // An empty string or binary is no key value (DynamoDB refuses it); a number column's values are valid numbers.
      return this.type === 'N' || (this.type === 'S' ? natural.textBytes(row) > 0 : natural.valueBytes(row) > 0);
    }
    // An item without an attribute the key is built from has no key: it is not in that index (sparse).
    for (const p of this.#placeholders) if (!p.column.isPresent(row)) return false;
    if (this.#condition && !this.#holds(this.#condition, row)) return false;
    if (this.#hasPadding) {
      for (const p of this.#placeholders) {
        if (p.pad === 0) continue;
        const v = p.column.value(row);
        const isWhole = typeof v === 'number' ? Number.isSafeInteger(v) && v >= 0 : typeof v === 'string' && /^[0-9]+$/.test(v);
        if (!isWhole || p.column.textBytes(row) > p.pad) return false;
      }
    }
    if (this.type === 'S') return this.#textBytes(row) > 0;
    const text = this.render(row);
    return this.type === 'N' ? parseDecimal(text) !== undefined : (base64DecodedLength(text) ?? 0) > 0;
  }

  /**
   * 1 for each of the first `rows` items that carries the key, else 0; null when every item does.
   */
  carriedMask(rows: number): Uint8Array | null {
    if (this.isAlways) return null;
    const mask = new Uint8Array(rows);
    if (this.failure !== undefined) return mask;
    let over = 0;
    for (let r = 0; r < rows; r += 1) {
      if (!this.#carries(r)) continue;
      // An over-limit value is one DynamoDB refuses: the item cannot be written with it, so it is left out and counted.
      if (this.isOverLimit(r)) over += 1;
      else mask[r] = 1;
    }
    this.overLimitItems = over;
    return mask;
  }

  /** Adds the attribute's size (name + value) to `out[row]` for rows `from` … `to − 1` that carry it. */
  addBytes(out: Uint32Array, mask: Uint8Array | null, from: number, to: number): void {
    const fixed = this.fixedValueBytes;
    if (fixed !== undefined) {
      const b = this.nameBytes + fixed;
      if (mask === null) for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + b;
      else for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + (mask[r] as number) * b;
      return;
    }
    for (let r = from; r < to; r += 1) {
      if (mask === null || mask[r] === 1) out[r] = (out[r] as number) + this.nameBytes + this.valueBytes(r);
    }
  }

  #holds(condition: Condition, row: number): boolean {
    const memo = this.#memo;
    if (memo && (this.#conditionColumns[0] as Column).isPresent(row)) {
      const column = this.#conditionColumns[0] as Column;
      const id = column.identity(row);
      const known = memo[id] as number;
      if (known >= 0) return known === 1;
      const holds = evaluateCondition(condition, { [column.name]: column.value(row) });
      memo[id] = holds ? 1 : 0;
      return holds;
    }
    const record = this.#record;
    for (const c of this.#conditionColumns) record[c.name] = c.isPresent(row) ? c.value(row) : undefined;
    return evaluateCondition(condition, record);
  }

  /**
   * The partition simulator's hash fraction of the key's value (`hashFraction(render(row))`) for
   * the items `members[first[i]]` (`first[i]` itself when `members` is null), i = from … to − 1
   * (global item numbers, this entity's row plus `offset`), into `out[at + i − from]`. A key of one placeholder holding a padded number (`USER#{userId}`
   * with ids, or references to ids) is hashed from the FNV state of its literal prefix plus its
   * digits, without rendering it; any other key from its rendered text.
   */
  hashFractions(members: Uint32Array | null, first: Uint32Array, offset: number, from: number, to: number, out: Float64Array, at: number): void {
    const digits = this.#digitHasher();
    const column = this.#placeholders[0]?.column;
    for (let i = from; i < to; i += 1) {
      const row = (members === null ? first[i]! : members[first[i]!]!) - offset;
      if (digits === undefined || column === undefined) out[at + i - from] = hashFraction(this.render(row));
      else digits.fractionInto(column.digitNumber(row), this.#shards === undefined ? 0 : this.#shard(row), out, at + i - from);
    }
  }

  /** The digit hasher of a key `head{placeholder}after` whose placeholder is a padded number; undefined for other keys. */
  #digitHasher(): DigitKeyHasher | undefined {
    if (this.#digits === undefined) {
      const only = this.#placeholders.length === 1 ? this.#placeholders[0]! : undefined;
      const form = only?.column.digitText;
      // Key padding pads the column's whole text: digits only when the column has no prefix.
      this.#digits =
        this.failure === undefined && only !== undefined && form !== undefined && (only.pad === 0 || form.prefix === '')
          ? new DigitKeyHasher(this.#head + form.prefix, Math.max(form.width, only.pad), only.after)
          : null;
    }
    return this.#digits ?? undefined;
  }

  /** The key's value for item `row` (call only when it `carries` the key). */
  render(row: number): string {
    let s = this.#head;
    for (const p of this.#placeholders) {
      const t = p.column.text(row);
      s += (p.pad > t.length ? '0'.repeat(p.pad - t.length) + t : t) + p.after;
    }
    const shard = this.#shard(row);
    return shard === 0 ? s : `${s}.${shard}`;
  }

  /** Bytes DynamoDB stores for the key's value (UTF-8 for S, the number's size for N, decoded bytes for B). */
  valueBytes(row: number): number {
    if (this.#natural !== undefined) return this.#natural.valueBytes(row);
    if (this.type === 'S') return this.#textBytes(row);
    const text = this.render(row);
    return this.type === 'N' ? numberValueBytes(text) : (base64DecodedLength(text) ?? 0);
  }

  #textBytes(row: number): number {
    let bytes = this.#literalBytes;
    for (const p of this.#placeholders) {
      const b = p.column.textBytes(row);
      bytes += p.pad > b ? p.pad : b;
    }
    const shard = this.#shard(row);
    return shard === 0 ? bytes : bytes + 1 + digitCount(shard);
  }

  /** The write-sharding suffix 1 … N of item `row`, or 0 when the key is not sharded. */
  #shard(row: number): number {
    const s = this.#shards;
    if (!s) return 0;
    if (s.from) {
      const text = s.from.text(row);
      return 1 + (deriveSeed(0, text) % s.count);
    }
    return 1 + (hash2(s.seed, row) % s.count);
  }
}
