/**
 * CloudFormation import: the DynamoDB tables of a template (YAML or JSON) as a Keyplan design, with
 * notes on what was guessed, skipped and dropped. The reverse of `export.ts`.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/cloudformation/import.ts".
 */
import { fail, ok } from '../../errors.ts';
import { FORMAT_VERSION, type Design, parseDesign, describeValue, joinPath, listOf, quote } from '../../model/index.ts';
import { uniqueName } from '../common/table-spec.ts';
import type { ImportResult } from '../common/import-types.ts';
import { pathMapper, type PathMap } from '../common/source-paths.ts';
import { applyAutoScaling } from './auto-scaling.ts';
import { slug } from './keys.ts';
import { Reader } from './reader.ts';
import { readTableResource, type TableRead } from './table.ts';
import { GLOBAL_TABLE_TYPE, isRecord, readParameters, TABLE_TYPE, Template, type Json } from './template.ts';
import { parseTemplateText } from './template-text.ts';

export type { CloudFormationErrorCode } from './reader.ts';

/** The design's name when the template is not one Keyplan exported. */
export const DEFAULT_TEMPLATE_DESIGN_NAME = 'CloudFormation template';

/** What a template that is not one looks like, in a few words. */
function describeRoot(root: unknown): string {
  if (root === null || root === undefined) return 'an empty document';
  if (!isRecord(root)) return describeValue(root);
  const keys = Object.keys(root);
  if ('formatVersion' in root && ('tables' in root || 'table' in root)) return 'a Keyplan design';
  if ('DataModel' in root || 'ModelName' in root) return 'a NoSQL Workbench model';
  if ('Table' in root && isRecord(root.Table) && 'KeySchema' in root.Table) return 'DescribeTable output';
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 6).map((k) => quote(k)).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/** The design's name and description from the template's Description; Keyplan's export writes `DynamoDB tables of the Keyplan design "<name>". <description>`. */
function nameAndDescription(root: Json): { name: string; description?: string; isInferred: boolean } {
  const d = typeof root.Description === 'string' ? root.Description.trim() : '';
  const own = /^DynamoDB tables of the Keyplan design "(.+?)"\.(?:\s+([\s\S]*))?$/.exec(d);
  if (own && own[1]!.trim() !== '') return own[2] ? { name: own[1]!, description: own[2], isInferred: false } : { name: own[1]!, isInferred: false };
  return d !== '' ? { name: DEFAULT_TEMPLATE_DESIGN_NAME, description: d, isInferred: true } : { name: DEFAULT_TEMPLATE_DESIGN_NAME, isInferred: true };
}

/**
 * Reads a CloudFormation template (YAML or JSON text) as a Keyplan design: one table per
 * `AWS::DynamoDB::Table` and `AWS::DynamoDB::GlobalTable`, with the auto scaling of its
 * `AWS::ApplicationAutoScaling` resources, and notes on every value inferred, part skipped and
 * setting dropped (see the module comment). Errors: `cloudformation.syntax` (YAML or JSON that does
 * not parse; `details` has its `line` and `column`), `cloudformation.notTemplate` (no `Resources`),
 * `cloudformation.noTable` (no table resource; the message names the types there are),
 * `cloudformation.schema` (a property a table needs, missing or of the wrong shape),
 * `cloudformation.attributeDefinition` (a key attribute without a type), `cloudformation.unresolved`
 * (a value nothing can stand in for, known only at deployment), and the `model.*` rules of the design,
 * at the template's paths. Deterministic; never throws.
 */
export function fromCloudFormation(text: string): ImportResult {
  const parsed = parseTemplateText(text);
  if (!parsed.ok) return fail(parsed.errors);
  const { root, format } = parsed.value;
  if (!isRecord(root) || !Object.hasOwn(root, 'Resources')) {
    const found = describeRoot(root);
    const expected = 'a mapping with a "Resources" section, as a CloudFormation template has';
    return fail([{ code: 'cloudformation.notTemplate', path: '', message: `This is not a CloudFormation template: expected ${expected}; found ${found}.`, found, expected }]);
  }
  const resources = root.Resources;
  if (!isRecord(resources)) {
    const found = describeValue(resources);
    return fail([{ code: 'cloudformation.notTemplate', path: 'Resources', message: `Resources is ${found}; expected a mapping of logical ids to resources.`, found, expected: 'a mapping of resources' }]);
  }
  const types: string[] = [];
  const tableIds: string[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    const type = isRecord(resource) && typeof resource.Type === 'string' ? resource.Type : undefined;
    if (type === TABLE_TYPE || type === GLOBAL_TABLE_TYPE) tableIds.push(logicalId);
    else if (type !== undefined && !types.includes(type)) types.push(type);
  }
  if (tableIds.length === 0) {
    const found = types.length === 0 ? 'no resources of any type' : `resources of type ${listOf(types)}`;
    const expected = `an ${TABLE_TYPE} or ${GLOBAL_TABLE_TYPE} resource`;
    return fail([
      {
        code: 'cloudformation.noTable',
        path: 'Resources',
        message: `The template has no DynamoDB table to import: expected ${expected}; found ${found}.`,
        found,
        expected,
        details: { resourceTypes: types },
      },
    ]);
  }

  const template = new Template(format, readParameters(root), isRecord(root.Mappings) ? root.Mappings : {}, resources);
  const r = new Reader(template);
  r.notes.push(...parsed.value.notes);
  if (Object.hasOwn(root, 'Transform')) {
    r.note('warning', 'Transform', `The template names the transform ${typeof root.Transform === 'string' ? quote(root.Transform) : describeValue(root.Transform)}, which can add or change resources at deployment; only the resources written in the template were read.`);
  }
  const ids = new Set<string>();
  const map: PathMap = [];
  const reads: TableRead[] = [];
  for (const logicalId of tableIds) {
    const resource = resources[logicalId] as Json;
    const input = { r, map, ids, logicalId, resource, tp: joinPath('tables', reads.length) };
    const before = r.problems.length;
    const read = readTableResource(input);
    if (read) reads.push(read);
    else if (r.problems.length === before) {
      // Every reason a table is not read is a problem said where it is; this one only keeps a table from going missing unsaid.
      const rp = joinPath('Resources', logicalId);
      r.problem('cloudformation.schema', rp, `Table resource ${quote(logicalId)} could not be read as a table; expected the properties of ${String(resource.Type)}.`, 'an unreadable table', 'a table resource');
    }
  }
  if (r.problems.length > 0) return fail(r.problems);

  // A name taken from a logical id must not clash with a name the template writes.
  const written = new Set(reads.filter((t) => t.isNameKnown).map((t) => t.table.name));
  for (const read of reads) {
    if (read.isNameKnown) continue;
    const name = uniqueName(read.table.name, written, '-');
    if (name !== read.table.name) r.note('inferred', read.path, `Logical id ${quote(read.logicalId)} is the name of another table of the template; the table was named ${quote(name)}.`);
    read.table.name = name;
  }
  applyAutoScaling(r, resources, reads, map);

  const { name, description, isInferred } = nameAndDescription(root);
  if (isInferred) r.note('inferred', '', `The template holds no design name; the design was named ${quote(name)}.`);
  map.push(['name', 'Description'], ['description', 'Description']);
  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(name)}`, ids), name, tables: reads.map((t) => t.table) };
  if (description !== undefined) design.description = description;
  const checked = parseDesign(design);
  if (!checked.ok) {
    const sourcePath = pathMapper(map);
    return fail(checked.errors.map((p) => ({ ...p, path: sourcePath(p.path), details: { designPath: p.path } })));
  }
  return ok({ design: checked.value, notes: r.notes });
}

