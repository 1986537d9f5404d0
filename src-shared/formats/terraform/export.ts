/**
 * Terraform: one `aws_dynamodb_table` resource per table of the design, in HCL
 * (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/dynamodb_table).
 * Export only.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/terraform/export.ts".
 */
import type { AutoScalingRange, Design, OnDemandThroughput, Projection, WarmThroughput } from '../../model/index.ts';
import { keySchemaElements, nonKeyAttributesOf, tableSpecsOf, uniqueName, wellFormed, type TableSpec, type Throughput } from '../common/table-spec.ts';
import { trimBoth } from '../../text/index.ts';

/** An HCL quoted string: JSON-like escapes, and `${` / `%{` doubled so they are not template sequences. */
export function hclString(text: string): string {
  let out = '"';
  for (const ch of wellFormed(text)) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  // In a replacement string `$$` is one `$`: '$$$${' writes `$${`.
  return `${out.replace(/\$\{/g, '$$$${').replace(/%\{/g, '%%{')}"`;
}

/** Map keys written bare; others (a dash reads as an identifier character in HCL but as minus to people) are quoted. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One line of a block body: an argument (`name = value`), a nested block, or a blank line. */
type Line = { kind: 'argument'; name: string; value: string } | { kind: 'block'; text: string[] } | { kind: 'blank' };

const argument = (name: string, value: string): Line => ({ kind: 'argument', name, value });

/**
 * A block's body lines at `indent`, arguments aligned as `terraform fmt` aligns them: within a run of
 * one-line arguments (ended by a blank line, a block, or a multi-line value) every `=` lines up.
 */
function body(lines: Line[], indent: string): string[] {
  const out: string[] = [];
  let run: Array<{ name: string; value: string }> = [];
  const flush = (): void => {
    const width = Math.max(0, ...run.map((a) => (a.value.includes('\n') ? 0 : a.name.length)));
    for (const a of run) {
      const [first, ...rest] = a.value.split('\n');
      out.push(`${indent}${a.name.padEnd(a.value.includes('\n') ? a.name.length : width)} = ${first}`, ...rest.map((r) => `${indent}${r}`));
    }
    run = [];
  };
  for (const line of lines) {
    if (line.kind === 'argument') {
      if (line.value.includes('\n')) {
        // A multi-line value ends the run before it and is not aligned with what follows.
        flush();
        run.push(line);
        flush();
      } else run.push(line);
    } else {
      flush();
      if (line.kind === 'blank') out.push('');
      else out.push(...line.text.map((t) => (t === '' ? '' : `${indent}${t}`)));
    }
  }
  flush();
  return out;
}

function block(header: string, lines: Line[]): Line {
  return { kind: 'block', text: [`${header} {`, ...body(lines, '  '), '}'] };
}

function list(values: readonly string[]): string {
  return `[${values.map(hclString).join(', ')}]`;
}

function projectionLines(projection: Projection): Line[] {
  const lines = [argument('projection_type', hclString(projection.type))];
  const nonKey = nonKeyAttributesOf(projection);
  if (nonKey) lines.push(argument('non_key_attributes', list(nonKey)));
  return lines;
}

/**
 * The AWS provider versions the file needs: 6.29.0 added `global_secondary_index.key_schema`
 * (hashicorp/terraform-provider-aws CHANGELOG, 6.29.0); `warm_throughput` and the contributor
 * insights `mode` came before it.
 */
export const TERRAFORM_AWS_PROVIDER_VERSION = '>= 6.29.0';

function warmThroughputBlock(w: WarmThroughput): Line {
  const lines: Line[] = [];
  if (w.readUnitsPerSecond !== undefined) lines.push(argument('read_units_per_second', String(w.readUnitsPerSecond)));
  if (w.writeUnitsPerSecond !== undefined) lines.push(argument('write_units_per_second', String(w.writeUnitsPerSecond)));
  return block('warm_throughput', lines);
}

function onDemandThroughputBlock(o: OnDemandThroughput): Line {
  const lines: Line[] = [];
  if (o.maxReadRequestUnits !== undefined) lines.push(argument('max_read_request_units', String(o.maxReadRequestUnits)));
  if (o.maxWriteRequestUnits !== undefined) lines.push(argument('max_write_request_units', String(o.maxWriteRequestUnits)));
  return block('on_demand_throughput', lines);
}

function tableBlock(spec: TableSpec, label: string): string[] {
  const lines: Line[] = [argument('name', hclString(spec.name)), argument('billing_mode', hclString(spec.throughput ? 'PROVISIONED' : 'PAY_PER_REQUEST'))];
  if (spec.throughput) lines.push(argument('read_capacity', String(spec.throughput.read)), argument('write_capacity', String(spec.throughput.write)));
  lines.push(argument('hash_key', hclString(spec.partitionKey)));
  if (spec.sortKey !== undefined) lines.push(argument('range_key', hclString(spec.sortKey)));
  lines.push(argument('table_class', hclString(spec.tableClass)));
  if (spec.deletionProtection !== undefined) lines.push(argument('deletion_protection_enabled', String(spec.deletionProtection)));
  if (spec.stream) lines.push(argument('stream_enabled', 'true'), argument('stream_view_type', hclString(spec.stream)));

  for (const a of spec.attributeDefinitions) {
    lines.push({ kind: 'blank' }, block('attribute', [argument('name', hclString(a.name)), argument('type', hclString(a.type))]));
  }
  if (spec.onDemandThroughput) lines.push({ kind: 'blank' }, onDemandThroughputBlock(spec.onDemandThroughput));
  if (spec.warmThroughput) lines.push({ kind: 'blank' }, warmThroughputBlock(spec.warmThroughput));
  for (const g of spec.gsis) {
    const gsi: Line[] = [argument('name', hclString(g.name))];
    for (const e of keySchemaElements(g.partitionKeys, g.sortKeys)) {
      gsi.push(block('key_schema', [argument('attribute_name', hclString(e.name)), argument('key_type', hclString(e.keyType))]));
    }
    gsi.push(...projectionLines(g.projection));
    if (g.throughput) gsi.push(argument('read_capacity', String(g.throughput.read)), argument('write_capacity', String(g.throughput.write)));
    if (g.onDemandThroughput) gsi.push(onDemandThroughputBlock(g.onDemandThroughput));
    if (g.warmThroughput) gsi.push(warmThroughputBlock(g.warmThroughput));
    lines.push({ kind: 'blank' }, block('global_secondary_index', gsi));
  }
  for (const l of spec.lsis) {
    lines.push({ kind: 'blank' }, block('local_secondary_index', [argument('name', hclString(l.name)), argument('range_key', hclString(l.sortKey)), ...projectionLines(l.projection)]));
  }
  if (spec.ttlAttribute !== undefined) {
    lines.push({ kind: 'blank' }, block('ttl', [argument('attribute_name', hclString(spec.ttlAttribute)), argument('enabled', 'true')]));
  }
  if (spec.pointInTimeRecovery) {
    const pitr = [argument('enabled', String(spec.pointInTimeRecovery.enabled))];
    if (spec.pointInTimeRecovery.enabled && spec.pointInTimeRecovery.recoveryPeriodInDays !== undefined) {
      pitr.push(argument('recovery_period_in_days', String(spec.pointInTimeRecovery.recoveryPeriodInDays)));
    }
    lines.push({ kind: 'blank' }, block('point_in_time_recovery', pitr));
  }
  if (spec.encryption) {
    // enabled = false is the key DynamoDB owns; true is a KMS key: aws/dynamodb unless kms_key_arn names one.
    const sse = [argument('enabled', String(spec.encryption.type === 'KMS'))];
    if (spec.encryption.type === 'KMS' && spec.encryption.kmsKeyId !== undefined && spec.encryption.kmsKeyId.trim() !== '') {
      sse.push(argument('kms_key_arn', hclString(spec.encryption.kmsKeyId)));
    }
    lines.push({ kind: 'blank' }, block('server_side_encryption', sse));
  }
  if (spec.tags.length > 0) {
    const entries = body(
      spec.tags.map(([k, v]) => argument(IDENTIFIER.test(k) ? k : hclString(k), hclString(v))),
      '  ',
    );
    lines.push({ kind: 'blank' }, argument('tags', ['{', ...entries, '}'].join('\n')));
  }
  const scaled = (['read', 'write'] as const).filter((d) => spec.throughput?.autoScaling?.[d]).map((d) => `${d}_capacity`);
  if (scaled.length > 0) {
    lines.push({ kind: 'blank' }, block('lifecycle', [argument('ignore_changes', `[${scaled.join(', ')}]`)]));
  }
  return [`resource "aws_dynamodb_table" "${label}" {`, ...body(lines, '  '), '}'];
}

/** The scalable target and target tracking policy of one auto scaled direction of the table or a GSI. */
function scalingBlocks(tableLabel: string, label: string, indexName: string | undefined, direction: 'read' | 'write', range: AutoScalingRange): string[] {
  const units = direction === 'read' ? 'Read' : 'Write';
  // "table/${aws_dynamodb_table.x.name}": a reference, so Terraform creates the table first. The
  // index name (a-z A-Z 0-9 _ . -) needs no escaping.
  const resourceId = `"table/\${aws_dynamodb_table.${tableLabel}.name}${indexName === undefined ? '' : `/index/${indexName}`}"`;
  const target = `aws_appautoscaling_target.${label}`;
  const targetBlock = [
    argument('max_capacity', String(range.maxCapacity)),
    argument('min_capacity', String(range.minCapacity)),
    argument('resource_id', resourceId),
    argument('scalable_dimension', hclString(`dynamodb:${indexName === undefined ? 'table' : 'index'}:${units}CapacityUnits`)),
    argument('service_namespace', hclString('dynamodb')),
  ];
  const policyBlock: Line[] = [
    argument('name', `"DynamoDB${units}CapacityUtilization:\${${target}.resource_id}"`),
    argument('policy_type', hclString('TargetTrackingScaling')),
    argument('resource_id', `${target}.resource_id`),
    argument('scalable_dimension', `${target}.scalable_dimension`),
    argument('service_namespace', `${target}.service_namespace`),
    { kind: 'blank' },
    block('target_tracking_scaling_policy_configuration', [
      argument('target_value', String(range.targetUtilizationPercent)),
      { kind: 'blank' },
      block('predefined_metric_specification', [argument('predefined_metric_type', hclString(`DynamoDB${units}CapacityUtilization`))]),
    ]),
  ];
  return [
    `resource "aws_appautoscaling_target" "${label}" {`,
    ...body(targetBlock, '  '),
    '}',
    '',
    `resource "aws_appautoscaling_policy" "${label}" {`,
    ...body(policyBlock, '  '),
    '}',
  ];
}

/** A Terraform label part from a name: lower case letters, digits and underscores. */
const labelPart = (name: string): string => trimBoth(name.toLowerCase().replace(/[^a-z0-9_]+/g, '_'), '_');

/** Every auto scaled direction of one table and its GSIs, as target + policy resources. */
function scalingResources(spec: TableSpec, tableLabel: string, taken: Set<string>): string[] {
  const out: string[] = [];
  const add = (t: Throughput | undefined, indexName?: string): void => {
    for (const direction of ['read', 'write'] as const) {
      const range = t?.autoScaling?.[direction];
      if (!range) continue;
      const owner = indexName === undefined ? tableLabel : `${tableLabel}_${labelPart(indexName) || 'index'}`;
      out.push(scalingBlocks(tableLabel, uniqueName(`${owner}_${direction}`, taken, '_'), indexName, direction, range).join('\n'));
    }
  };
  add(spec.throughput);
  for (const g of spec.gsis) add(g.throughput, g.name);
  return out;
}

/** `terraform { required_providers { aws … } }`: the provider versions that read every argument the file writes. */
function providerBlock(): string {
  return [
    '# A GSI\'s key_schema blocks need the AWS provider 6.29.0 or later.',
    ...body(
      [
        block('terraform', [
          block('required_providers', [
            argument('aws', ['{', ...body([argument('source', hclString('hashicorp/aws')), argument('version', hclString(TERRAFORM_AWS_PROVIDER_VERSION))], '  '), '}'].join('\n')),
          ]),
        ]),
      ],
      '',
    ),
  ].join('\n');
}

/** The table's Contributor Insights as an `aws_dynamodb_contributor_insights` resource, when enabled. */
function contributorInsightsResources(spec: TableSpec, tableLabel: string): string[] {
  const insights = spec.contributorInsights;
  if (!insights?.enabled) return [];
  const lines: Line[] = [argument('table_name', `aws_dynamodb_table.${tableLabel}.name`)];
  if (insights.mode !== undefined) lines.push(argument('mode', hclString(insights.mode)));
  return [[`resource "aws_dynamodb_contributor_insights" "${tableLabel}" {`, ...body(lines, '  '), '}'].join('\n')];
}

/**
 * The design's tables as Terraform `aws_dynamodb_table` resources. Deterministic; assumes a design
 * that passes `validateDesign`.
 */
export function toTerraform(design: Design): string {
  const taken = new Set<string>();
  const specs = tableSpecsOf(design.tables);
  const labels = specs.map((spec) => {
    const base = labelPart(spec.name) || 'table';
    return uniqueName(/^[a-z_]/.test(base) ? base : `t_${base}`, taken, '_');
  });
  const scalingLabels = new Set<string>();
  const blocks = specs.flatMap((spec, i) => [
    tableBlock(spec, labels[i]!).join('\n'),
    ...contributorInsightsResources(spec, labels[i]!),
    ...scalingResources(spec, labels[i]!, scalingLabels),
  ]);
  const header = `# Generated by Keyplan from the design "${wellFormed(design.name).replace(/[\r\n]+/g, ' ')}".`;
  return `${header}\n\n${[providerBlock(), ...blocks].join('\n\n')}\n`;
}
