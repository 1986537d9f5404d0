/**
 * Reads DynamoDB's own key schema form, a `KeySchema` list of `{AttributeName, KeyType}` with the
 * types in `AttributeDefinitions` (CloudFormation, `create-table` input, `describe-table` output),
 * into the design's key parts, checking the rules DynamoDB checks: HASH elements first, then RANGE;
 * 1–4 HASH and 0–4 RANGE for a GSI (docs/dynamodb-rules.md §11), exactly one HASH and at most one
 * RANGE for a table or an LSI; no attribute twice; every attribute defined as S, N or B.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_KeySchemaElement.html
 */
import type { Problem } from './problems.ts';
import { MAX_KEY_ATTRIBUTES_PER_PART, type KeyAttribute } from './schema.ts';

export interface KeySchemaParts {
  partition: KeyAttribute[];
  sort: KeyAttribute[];
}

/** Where the key schema is, for messages and paths: `GSI "ByRegion"` at `Resources.Table.Properties.GlobalSecondaryIndexes[0]`. */
export interface KeySchemaPlace {
  owner: string;
  kind: 'table' | 'gsi' | 'lsi';
  /** Path of the KeySchema list. */
  path: string;
}

const problem = (path: string, message: string, found: string, expected: string): Problem => ({ code: 'model.multiAttributeKey', path, message, found, expected });

/** The key parts of one KeySchema list, or every rule it breaks. */
export function readKeySchema(
  elements: unknown,
  definitions: ReadonlyMap<string, string>,
  place: KeySchemaPlace,
): { ok: true; value: KeySchemaParts } | { ok: false; errors: Problem[] } {
  const errors: Problem[] = [];
  if (!Array.isArray(elements) || elements.length === 0) {
    return { ok: false, errors: [problem(place.path, `${place.owner} has no key schema; expected a list of {AttributeName, KeyType}.`, Array.isArray(elements) ? 'an empty list' : typeof elements, 'a KeySchema list')] };
  }
  const parts: KeySchemaParts = { partition: [], sort: [] };
  const seen = new Set<string>();
  let sawRange = false;
  elements.forEach((element, i) => {
    const at = `${place.path}[${i}]`;
    const e = (typeof element === 'object' && element !== null ? element : {}) as { AttributeName?: unknown; KeyType?: unknown };
    const name = typeof e.AttributeName === 'string' ? e.AttributeName : '';
    if (name === '') {
      errors.push(problem(`${at}.AttributeName`, `${place.owner}: key schema element ${i + 1} has no AttributeName.`, 'missing', 'an attribute name'));
      return;
    }
    if (e.KeyType !== 'HASH' && e.KeyType !== 'RANGE') {
      errors.push(problem(`${at}.KeyType`, `${place.owner}: key schema element ${i + 1} (${name}) has KeyType ${JSON.stringify(e.KeyType)}; expected HASH or RANGE.`, JSON.stringify(e.KeyType), 'HASH or RANGE'));
      return;
    }
    if (e.KeyType === 'HASH' && sawRange) {
      errors.push(problem(at, `${place.owner}: key schema element ${i + 1} (${name}) is a HASH after a RANGE; expected every HASH element before the RANGE elements.`, 'HASH after RANGE', 'HASH elements first'));
    }
    if (e.KeyType === 'RANGE') sawRange = true;
    if (seen.has(name)) {
      errors.push(problem(at, `${place.owner} names ${name} twice in its key schema; expected each attribute once.`, `${name} twice`, 'each attribute once'));
      return;
    }
    seen.add(name);
    const type = definitions.get(name);
    if (type !== 'S' && type !== 'N' && type !== 'B') {
      errors.push(
        problem(
          at,
          type === undefined
            ? `${place.owner}: key attribute ${name} is not in AttributeDefinitions; expected a definition of type S, N or B.`
            : `${place.owner}: key attribute ${name} is defined as ${type}; expected S, N or B.`,
          type ?? 'no definition',
          'S, N or B',
        ),
      );
      return;
    }
    (e.KeyType === 'HASH' ? parts.partition : parts.sort).push({ name, type });
  });
  const [maxHash, maxRange] = place.kind === 'gsi' ? [MAX_KEY_ATTRIBUTES_PER_PART, MAX_KEY_ATTRIBUTES_PER_PART] : [1, 1];
  const what = place.kind === 'gsi' ? 'a GSI' : place.kind === 'lsi' ? 'an LSI (only a GSI takes a multi-attribute key)' : 'a table (only a GSI takes a multi-attribute key)';
  const hashes = elements.filter((e) => (e as { KeyType?: unknown } | null)?.KeyType === 'HASH').length;
  const ranges = elements.filter((e) => (e as { KeyType?: unknown } | null)?.KeyType === 'RANGE').length;
  if (hashes === 0) errors.push(problem(place.path, `${place.owner} has no HASH element; expected 1–${maxHash}.`, 'no HASH', `1–${maxHash} HASH`));
  if (hashes > maxHash) errors.push(problem(place.path, `${place.owner} has ${hashes} HASH elements; expected at most ${maxHash} for ${what}.`, `${hashes} HASH`, `at most ${maxHash}`));
  if (ranges > maxRange) errors.push(problem(place.path, `${place.owner} has ${ranges} RANGE elements; expected at most ${maxRange} for ${what}.`, `${ranges} RANGE`, `at most ${maxRange}`));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: parts };
}
