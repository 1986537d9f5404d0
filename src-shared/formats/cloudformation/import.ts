/**
 * CloudFormation import: the DynamoDB tables of a template (YAML or JSON) as a Keyplan design, with
 * notes on what was guessed, skipped and dropped. The reverse of `export.ts`.
 *
 * - Text: a template whose first character (after blanks) is `{` is JSON; any other is YAML 1.2 with
 *   CloudFormation's short-form tags (`!Ref`, `!Sub`, `!GetAtt`, `!If` …), each read as its long
 *   form (`{ "Fn::Sub": … }`, `{ "Ref": … }`).
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-formats.html
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 * - Tables: every `AWS::DynamoDB::Table` and `AWS::DynamoDB::GlobalTable` becomes a table, in the
 *   template's order. A template holds no entities or access patterns: each table has none, and a
 *   `dropped` note says so.
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-globaltable.html
 * - Values: a literal is read as written; CloudFormation's own conversions are accepted (a number
 *   written as text, `"true"` for a Boolean). An intrinsic function is worked out where a template
 *   decides it: `Ref` to a parameter gives its `Default`; `Fn::Sub`, `Fn::Join`, `Fn::Select`,
 *   `Fn::Split` and `Fn::FindInMap` over such values are computed; `Fn::If` takes its first branch.
 *   Each such value gets an `inferred` note. What only a deployment decides (pseudo parameters such
 *   as `AWS::StackName`, `Fn::GetAtt`, `Fn::ImportValue`, a parameter without a Default …) gives the
 *   setting's default, with a note naming the function; a value nothing can stand in for (a key
 *   attribute's name, provisioned capacity) is a problem.
 * - A table's name: `TableName`, or, when it is absent or known only at deployment, the resource's
 *   logical id (an `inferred` note says so).
 * - Billing: `BillingMode` absent is PROVISIONED (the resource's documented default). A provisioned
 *   GSI without `ProvisionedThroughput` gets the table's (inferred). Auto scaling comes from
 *   `AWS::ApplicationAutoScaling::ScalableTarget` resources of namespace `dynamodb` whose `ResourceId`
 *   names a table of the template (`table/<name>`, `table/<name>/index/<gsi>`, by literal name or by
 *   `Ref` through `Fn::Sub`/`Fn::Join`) and the target tracking `ScalingPolicy` on them.
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.CloudFormation.html
 * - GlobalTable: the settings of the first replica (table class, point-in-time recovery, deletion
 *   protection, Contributor Insights, tags, KMS key, read capacity and its auto scaling); write
 *   capacity from `WriteProvisionedThroughputSettings` (its `SeedCapacity`, or its minimum, is the
 *   initial capacity) or `WriteOnDemandThroughputSettings`. Other replicas are `dropped` notes that
 *   name their Region and how their settings differ.
 * - Dropped (a `dropped` note with the path): Kinesis streaming, S3 import, resource policies, GSI
 *   Contributor Insights, scaling cooldowns, `Condition` on a table, a `DeletionPolicy` or
 *   `UpdateReplacePolicy` other than `Retain` (Keyplan's export writes `Retain`, so that one is kept
 *   in effect) and other settings a design does not hold. Unknown properties are `warning` notes.
 *
 * The design is checked with `parseDesign`; a problem of its rules is reported at the template path
 * it came from (`details.designPath` keeps the design's). Pure (no node:*), deterministic, and it
 * never throws.
 *
 * The import's modules beside this one: `template-text.ts` (the YAML or JSON text), `template.ts`
 * (parameters, mappings and intrinsic functions), `reader.ts` (fields, notes and problems), `table.ts`
 * (one table resource, either type), `keys.ts` (key schemas, indexes, projections), `throughput.ts`
 * and `global-table.ts` (billing, capacity, replicas), `settings.ts` (TTL, stream, recovery,
 * encryption, tags …) and `auto-scaling.ts` (Application Auto Scaling resources);
 * `../common/dynamodb-table.ts` holds what is the same in a DescribeTable output.
 */
import { fail, ok } from '../../errors.ts';
import { FORMAT_VERSION, type Design } from '../../model/schema.ts';
import { parseDesign } from '../../model/validate.ts';
import { describeValue, joinPath, listOf, quote } from '../../model/validate/wording.ts';
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

