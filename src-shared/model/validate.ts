/**
 * Reading and checking designs. `parseDesign` is THE entry point for a design from outside (file,
 * import, IPC, the raw-JSON editor): shape → migrate → structure → DynamoDB rules. `validateDesign`
 * runs the DynamoDB rules alone on a typed design; the UI runs it after every edit, so it is one pass
 * over a small document and every problem carries the exact path of the field to mark.
 *
 * Paths use property/index notation: `tables[0].entities[2].keys.GSI1PK.template`; a key that is
 * not an identifier is bracketed: `keys["GSI 1"]`.
 *
 * More on its rules: docs/modules.md, "src-shared/model/validate.ts".
 */
import { ok, fail, type Result } from '../errors.ts';
import { migrate } from './migrate.ts';
import type { Problem } from './problems.ts';
import { Design as DesignSchema, type Design } from './schema.ts';
import { Collector } from './validate/collector.ts';
import { checkIds, validateTable } from './validate/names-and-limits.ts';
import { structuralProblems } from './validate/structure.ts';
import { describeValue, isRecord, joinPath, ordinal, quote } from './validate/wording.ts';

export { joinPath, describeValue } from './validate/wording.ts';
export {
  MAX_GSIS_PER_TABLE,
  MAX_LSIS_PER_TABLE,
  MAX_PROJECTED_NON_KEY_ATTRIBUTES,
  MAX_KEY_ATTRIBUTE_NAME_BYTES,
  MAX_TTL_ATTRIBUTE_NAME_BYTES,
  RESOURCE_NAME_PATTERN,
  RESOURCE_NAME_RULE,
} from './validate/names-and-limits.ts';
export { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, MIN_SHARDS, MAX_SHARDS, DEFAULT_RENDERED_BYTES } from './validate/keys.ts';
export { MAX_TAGS_PER_TABLE, MAX_TAG_KEY_LENGTH, MAX_TAG_VALUE_LENGTH } from './validate/table-settings.ts';

// ---------------------------------------------------------------------------------------------
// parseDesign
// ---------------------------------------------------------------------------------------------

/**
 * Reads a design from outside: every problem at once, structural and DynamoDB rules alike.
 * Errors: `model.notObject`; `model.notKeyplanDesign` (no `formatVersion`, or no `tables`/`table`);
 * `model.invalidVersion`, `model.unsupportedVersion` (from `migrate`); `model.schema` (one per
 * location, with found/expected in plain words); then everything `validateDesign` reports.
 */
export function parseDesign(input: unknown): Result<Design, Problem> {
  const structure = parseDesignStructure(input);
  if (!structure.ok) return structure;
  const problems = validateDesign(structure.value);
  return problems.length > 0 ? fail(problems) : structure;
}

/**
 * The first three steps of `parseDesign`: shape, migration and structure, without the DynamoDB
 * rules. Use it where a design that breaks a rule must still open (restoring autosaved work in
 * progress, showing a file's problems inline); run `validateDesign` on the result to list those.
 */
export function parseDesignStructure(input: unknown): Result<Design, Problem> {
  if (!isRecord(input)) {
    return fail([
      {
        code: 'model.notObject',
        path: '',
        message: `A design must be a JSON object; found ${describeValue(input)}.`,
        found: describeValue(input),
        expected: 'a JSON object with "formatVersion" and "tables"',
      },
    ]);
  }
  if (!('formatVersion' in input) || !('tables' in input || 'table' in input)) {
    const keys = Object.keys(input);
    const found = keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 8).map(quote).join(', ')}${keys.length > 8 ? ', …' : ''}`;
    return fail([
      {
        code: 'model.notKeyplanDesign',
        path: '',
        message: `This is not a Keyplan design: expected an object with "formatVersion" and "tables"; found ${found}.`,
        found,
        expected: 'an object with "formatVersion" and "tables"',
      },
    ]);
  }
  const migrated = migrate(input);
  if (!migrated.ok) return migrated;
  // A key part given as a list where DynamoDB takes one attribute (the table's keys, an LSI's sort
  // key) is said as that rule, not as a shape mismatch.
  const misplaced = misplacedMultiAttributeKeys(migrated.value);
  const covered = (path: string) => misplaced.some((m) => path === m.path || path.startsWith(`${m.path}.`) || path.startsWith(`${m.path}[`));
  const problems = [...misplaced, ...structuralProblems(DesignSchema, migrated.value).filter((p) => !covered(p.path))];
  return problems.length > 0 ? fail(problems) : ok(migrated.value as Design);
}

// ---------------------------------------------------------------------------------------------
// validateDesign
// ---------------------------------------------------------------------------------------------

/**
 * Checks a design against DynamoDB's rules and Keyplan's own (see the list in the module's tests):
 * names (the design's too), limits, key schemas, projections, billing, TTL attributes, ids, entities' key templates and conditions,
 * estimated key sizes, access patterns. Returns every problem; an empty list means the design is
 * valid. Pure and fast enough to run after every edit.
 */
export function validateDesign(design: Design): Problem[] {
  const c = new Collector();
  if (design.name.trim() === '') {
    c.add(
      'model.invalidName',
      'name',
      `The design has ${design.name === '' ? 'an empty name' : 'a name of only spaces'}; expected a name such as "Shop", which titles the design.`,
      design.name === '' ? 'an empty name' : 'only spaces',
      'a non-empty name',
    );
  }
  checkIds(design, c);
  const tableNames = new Map<string, number>();
  design.tables.forEach((table, ti) => {
    const tp = joinPath('tables', ti);
    const previous = tableNames.get(table.name);
    if (previous !== undefined) {
      c.add(
        'model.duplicateName',
        joinPath(tp, 'name'),
        `Table name ${quote(table.name)} is used by both the ${ordinal(previous + 1)} and the ${ordinal(ti + 1)} table; expected unique table names.`,
        quote(table.name),
        'a name no other table has',
      );
    } else tableNames.set(table.name, ti);
    validateTable(table, tp, c);
  });
  return c.problems;
}

/**
 * Multi-attribute keys (a list of key attributes) where DynamoDB allows only one attribute: the
 * table's partition and sort key and an LSI's sort key. Only GSIs take them (docs/dynamodb-rules.md §11).
 */
function misplacedMultiAttributeKeys(value: unknown): Problem[] {
  if (!isRecord(value) || !Array.isArray(value.tables)) return [];
  const problems: Problem[] = [];
  const page = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html';
  value.tables.forEach((table, ti) => {
    if (!isRecord(table)) return;
    const tp = joinPath('tables', ti);
    const tableName = typeof table.name === 'string' ? quote(table.name) : `the ${ordinal(ti + 1)} table`;
    for (const [field, role] of [['partitionKey', 'partition'], ['sortKey', 'sort']] as const) {
      const part = table[field];
      if (!Array.isArray(part)) continue;
      problems.push({
        code: 'model.multiAttributeKey',
        path: joinPath(tp, field),
        message: `Table ${tableName} has a ${role} key of ${part.length} attributes; expected one attribute: a table's own key cannot be multi-attribute, only a GSI's can (${page}).`,
        found: `a list of ${part.length}`,
        expected: 'one key attribute',
      });
    }
    if (!Array.isArray(table.localSecondaryIndexes)) return;
    table.localSecondaryIndexes.forEach((lsi, li) => {
      if (!isRecord(lsi) || !Array.isArray(lsi.sortKey)) return;
      const name = typeof lsi.name === 'string' ? quote(lsi.name) : `the ${ordinal(li + 1)} LSI`;
      problems.push({
        code: 'model.multiAttributeKey',
        path: joinPath(joinPath(joinPath(tp, 'localSecondaryIndexes'), li), 'sortKey'),
        message: `LSI ${name} has a sort key of ${lsi.sortKey.length} attributes; expected one attribute: an LSI's key cannot be multi-attribute, only a GSI's can (${page}).`,
        found: `a list of ${lsi.sortKey.length}`,
        expected: 'one key attribute',
      });
    });
  });
  return problems;
}
