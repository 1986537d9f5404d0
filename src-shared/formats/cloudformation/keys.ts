/**
 * A table resource's keys: its `AttributeDefinitions` (each key attribute's type), the `KeySchema` of
 * the table and of each GSI and LSI, and each index's `Projection`. A key attribute without a
 * definition, or a key schema that breaks DynamoDB's rules, is a problem: the table would change.
 * A GSI's key may list several HASH and RANGE elements (a multi-attribute key); they become a list.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-table-keyschema.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-table-projection.html
 */
import { storedKeyPart, joinPath, quote } from '../../model/index.ts';
import type {
  GlobalSecondaryIndex,
  KeyAttribute,
  KeyAttributeType,
  LocalSecondaryIndex,
  Projection,
} from '../../model/index.ts';
import { slug as idSlug } from '../common/ids.ts';
import type { PathMap } from '../common/source-paths.ts';
import { indexId, KEY_ATTRIBUTE_TYPES, PROJECTION_TYPES } from '../common/dynamodb-table.ts';
import { gotOf, type Reader } from './reader.ts';
import type { Json } from './template.ts';

/** `Order Items` → `order-items`, at most 60 characters (a template's logical ids and names can be long). */
export const slug = (text: string): string => idSlug(text).slice(0, 60);

interface KeyElement {
  name: string;
  /** The KeySchema element's path. */
  path: string;
}

/** A GSI with its keys and projection read; the reader of its resource type adds its throughput. */
export interface GsiRead {
  /** The GlobalSecondaryIndex object of the template, and its path. */
  raw: Json;
  path: string;
  /** `tables[i].globalSecondaryIndexes[k]` */
  designPath: string;
  gsi: GlobalSecondaryIndex;
}

/** What every index has: its name, key schema and projection, read from a list item. */
interface IndexRead {
  value: Json;
  path: string;
  name: string;
  keys: { hash: KeyElement[]; range: KeyElement[] };
  projection: Projection;
}

/** Reads the keys of one table resource, keeping which attribute definitions they use. */
export class TableKeys {
  private readonly definitions = new Map<string, { type: KeyAttributeType; path: string }>();
  private readonly used = new Set<string>();

  constructor(
    private readonly r: Reader,
    private readonly map: PathMap,
    private readonly ids: Set<string>,
    /** `tables[i]` */
    private readonly tp: string,
    /** `Resources.X.Properties` */
    private readonly pp: string,
    private readonly tableSlug: string,
  ) {}

  /** `AttributeDefinitions`: each key attribute's type. */
  readDefinitions(props: Json): void {
    const items = this.r.list(props, 'AttributeDefinitions', this.pp, 'strict', 'a list of {AttributeName, AttributeType}') ?? [];
    for (const item of items) {
      const value = this.r.object(item, '{AttributeName, AttributeType}');
      if (!value) continue;
      const name = this.r.requiredString(value, 'AttributeName', item.path, 'an attribute name');
      const type = this.r.requiredString(value, 'AttributeType', item.path, 'S, N or B', KEY_ATTRIBUTE_TYPES) as KeyAttributeType | undefined;
      if (name === undefined || type === undefined) continue;
      const first = this.definitions.get(name);
      if (first === undefined) this.definitions.set(name, { type, path: item.path });
      else if (first.type !== type) {
        this.r.problem(
          'cloudformation.attributeDefinition',
          joinPath(item.path, 'AttributeType'),
          `${item.path} defines ${quote(name)} as ${type}, but ${first.path} defines it as ${first.type}; expected each attribute defined once.`,
          type,
          first.type,
        );
      } else this.r.note('warning', item.path, `AttributeDefinitions defines ${quote(name)} a second time (first at ${first.path}); the repeat was skipped.`);
    }
  }

  /** Attribute definitions no key uses: a warning each (DynamoDB and cfn-lint E3039 reject them; the design needs none). */
  reportUnused(): void {
    for (const [name, d] of this.definitions) {
      if (this.used.has(name)) continue;
      this.r.note('warning', d.path, `AttributeDefinitions defines ${quote(name)}, which no key of the table or its indexes uses; it was skipped (AttributeDefinitions lists only key attributes).`);
    }
  }

  /** The table's own key: one HASH element and at most one RANGE element. */
  readTableKey(props: Json): { partitionKey: KeyAttribute; sortKey?: KeyAttribute } | undefined {
    const keys = this.readKeySchema(props, this.pp);
    if (!keys) return undefined;
    const ks = joinPath(this.pp, 'KeySchema');
    if (keys.hash.length !== 1 || keys.range.length > 1) {
      const found = `${keys.hash.length} HASH and ${keys.range.length} RANGE elements`;
      this.r.problem('cloudformation.schema', ks, `${ks} has ${found}; expected one HASH element and at most one RANGE element (only a GSI's key has several attributes).`, found, 'one HASH and at most one RANGE element');
      return undefined;
    }
    const partitionKey = this.keyAttribute(keys.hash[0]!, joinPath(this.tp, 'partitionKey'));
    const sortKey = keys.range[0] ? this.keyAttribute(keys.range[0], joinPath(this.tp, 'sortKey')) : undefined;
    if (!partitionKey || (keys.range[0] && !sortKey)) return undefined;
    return sortKey ? { partitionKey, sortKey } : { partitionKey };
  }

  /** The GSIs' names, keys and projections (throughput is read by the resource's own reader). */
  readGsis(props: Json, known: readonly string[], owner: string): GsiRead[] {
    const out: GsiRead[] = [];
    this.readIndexes(props, 'GlobalSecondaryIndexes', 'GlobalSecondaryIndex', known, `a GlobalSecondaryIndex of ${owner}`, () => joinPath(joinPath(this.tp, 'globalSecondaryIndexes'), out.length), (index, gp) => {
      const partitionKey = this.keyPart(index.keys.hash, joinPath(gp, 'partitionKey'));
      const sortKey = this.keyPart(index.keys.range, joinPath(gp, 'sortKey'));
      if (!partitionKey || !sortKey) return;
      const gsi: GlobalSecondaryIndex = {
        id: indexId('gsi', this.tableSlug, slug(index.name), this.ids),
        name: index.name,
        partitionKey: storedKeyPart(partitionKey) as GlobalSecondaryIndex['partitionKey'],
        projection: index.projection,
      };
      if (sortKey.length > 0) gsi.sortKey = storedKeyPart(sortKey);
      out.push({ raw: index.value, path: index.path, designPath: gp, gsi });
    });
    return out;
  }

  /** The LSIs: the table's partition key with another sort key. */
  readLsis(props: Json, tablePartitionKey: string): LocalSecondaryIndex[] {
    const out: LocalSecondaryIndex[] = [];
    this.readIndexes(props, 'LocalSecondaryIndexes', 'LocalSecondaryIndex', ['IndexName', 'KeySchema', 'Projection'], 'a LocalSecondaryIndex', () => joinPath(joinPath(this.tp, 'localSecondaryIndexes'), out.length), (index, lp) => {
      const { keys } = index;
      const ks = joinPath(index.path, 'KeySchema');
      const hash = keys.hash[0]!;
      if (keys.hash.length !== 1 || keys.range.length !== 1) {
        const found = `${keys.hash.length} HASH and ${keys.range.length} RANGE elements`;
        this.r.problem('cloudformation.schema', ks, `${ks} has ${found}; expected the table's partition key (HASH) and one sort key (RANGE).`, found, 'one HASH and one RANGE element');
        return;
      }
      if (hash.name !== tablePartitionKey) {
        const p = joinPath(hash.path, 'AttributeName');
        this.r.problem('cloudformation.schema', p, `${p} is ${quote(hash.name)}; expected the table's partition key ${quote(tablePartitionKey)}, which an LSI shares.`, quote(hash.name), quote(tablePartitionKey));
        return;
      }
      this.used.add(hash.name);
      const sortKey = this.keyAttribute(keys.range[0]!, joinPath(lp, 'sortKey'));
      if (sortKey) out.push({ id: indexId('lsi', this.tableSlug, slug(index.name), this.ids), name: index.name, sortKey, projection: index.projection });
    });
    return out;
  }

  /**
   * Each index of the list `key`: an object with IndexName, KeySchema and Projection (anything else
   * is a problem), mapped to its design path, given to `use` when all three are read.
   */
  private readIndexes(props: Json, key: string, kind: string, known: readonly string[], owner: string, designPathOf: () => string, use: (index: IndexRead, designPath: string) => void): void {
    const items = this.r.list(props, key, this.pp, 'strict', `a list of ${kind}`) ?? [];
    for (const item of items) {
      const value = this.r.object(item, `a ${kind} object`);
      if (!value) continue;
      const dp = designPathOf();
      this.map.push([dp, item.path]);
      this.r.unknownProperties(value, item.path, known, owner);
      const name = this.r.requiredString(value, 'IndexName', item.path, 'an index name');
      if (name !== undefined) this.map.push([joinPath(dp, 'name'), joinPath(item.path, 'IndexName')]);
      const keys = this.readKeySchema(value, item.path);
      const projection = this.readProjection(value, item.path, joinPath(dp, 'projection'));
      if (name !== undefined && keys && projection) use({ value, path: item.path, name, keys, projection }, dp);
    }
  }

  /** A key element's attribute with its type from `AttributeDefinitions` (a problem when it has none). */
  private keyAttribute(e: KeyElement, designPath: string): KeyAttribute | undefined {
    const d = this.definitions.get(e.name);
    this.used.add(e.name);
    if (!d) {
      const p = joinPath(e.path, 'AttributeName');
      const expected = `an AttributeDefinitions entry for ${quote(e.name)} with AttributeType S, N or B`;
      this.r.problem('cloudformation.attributeDefinition', p, `${p} is the key attribute ${quote(e.name)}, which AttributeDefinitions does not define; expected ${expected}.`, quote(e.name), expected);
      return undefined;
    }
    this.map.push([designPath, e.path], [joinPath(designPath, 'name'), joinPath(e.path, 'AttributeName')], [joinPath(designPath, 'type'), joinPath(d.path, 'AttributeType')]);
    return { name: e.name, type: d.type };
  }

  /** A GSI key part's attributes in key order (each at `designPath[k]` when there are several); undefined when one has no definition. */
  private keyPart(elements: readonly KeyElement[], designPath: string): KeyAttribute[] | undefined {
    const attributes = elements.map((e, k) => this.keyAttribute(e, elements.length > 1 ? joinPath(designPath, k) : designPath));
    return attributes.every((a) => a !== undefined) ? (attributes as KeyAttribute[]) : undefined;
  }

  /** A `KeySchema`: its HASH and RANGE elements in order. */
  private readKeySchema(obj: Json, path: string): { hash: KeyElement[]; range: KeyElement[] } | undefined {
    const items = this.r.list(obj, 'KeySchema', path, 'required', 'a list of {AttributeName, KeyType}');
    if (!items) return undefined;
    const hash: KeyElement[] = [];
    const range: KeyElement[] = [];
    let isBroken = false;
    for (const item of items) {
      const value = this.r.object(item, '{AttributeName, KeyType}');
      const name = value ? this.r.requiredString(value, 'AttributeName', item.path, 'an attribute name') : undefined;
      const keyType = value ? this.r.requiredString(value, 'KeyType', item.path, 'HASH or RANGE', ['HASH', 'RANGE']) : undefined;
      if (name === undefined || keyType === undefined) {
        isBroken = true;
        continue;
      }
      (keyType === 'HASH' ? hash : range).push({ name, path: item.path });
    }
    if (isBroken) return undefined;
    const ks = joinPath(path, 'KeySchema');
    if (hash.length === 0) {
      this.r.problem('cloudformation.schema', ks, `${ks} has no HASH element; expected a partition key (KeyType HASH).`, 'no HASH element', 'a HASH element');
      return undefined;
    }
    const firstRange = range[0];
    if (firstRange && items.findIndex((i) => i.path === firstRange.path) < items.findIndex((i) => i.path === hash[hash.length - 1]!.path)) {
      this.r.note('warning', ks, `KeySchema lists a RANGE element before a HASH element; DynamoDB expects the partition key (HASH) first, and the elements were read by their KeyType.`);
    }
    return { hash, range };
  }

  /** An index's `Projection`. */
  private readProjection(index: Json, ip: string, designPath: string): Projection | undefined {
    const p = this.r.record(index, 'Projection', ip, false);
    if (!p) return undefined;
    const pp = joinPath(ip, 'Projection');
    this.map.push([designPath, pp]);
    const type = this.r.requiredString(p, 'ProjectionType', pp, 'ALL, KEYS_ONLY or INCLUDE', PROJECTION_TYPES);
    if (type === undefined) return undefined;
    if (type !== 'INCLUDE') {
      const np = joinPath(pp, 'NonKeyAttributes');
      if (Object.hasOwn(p, 'NonKeyAttributes')) this.r.note('warning', np, `NonKeyAttributes is set, but the projection is ${type}; it was skipped (only INCLUDE takes NonKeyAttributes).`);
      return { type } as Projection;
    }
    const nonKey = this.r.list(p, 'NonKeyAttributes', pp, 'strict', 'a list of attribute names');
    const names: string[] = [];
    this.map.push([joinPath(designPath, 'nonKeyAttributes'), joinPath(pp, 'NonKeyAttributes')]);
    for (const item of nonKey ?? []) {
      if (item.unresolved || (typeof item.value !== 'string' && typeof item.value !== 'number')) {
        this.r.wrong(item.path, gotOf(item), 'an attribute name');
        continue;
      }
      this.map.push([joinPath(joinPath(designPath, 'nonKeyAttributes'), names.length), item.path]);
      names.push(String(item.value));
    }
    return { type: 'INCLUDE', nonKeyAttributes: names };
  }
}
