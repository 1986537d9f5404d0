/**
 * The design document's schema. Each TypeBox value below is a JSON Schema object (the editor's
 * schema for completion and markers) and its `Static` type is the TypeScript type: one source for both.
 *
 * Structural rules live here; the DynamoDB rules that span fields (limits, key templates that name
 * unknown attributes, LSI needs the table's sort key, ...) live in `validate.ts`.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MAX_CAPACITY_UNITS, MAX_COUNT, MAX_HOURS_PER_MONTH, MAX_PRICE_USD, MAX_SIZE_BYTES } from './number-limits.ts';
import { Distribution, Generator, MAX_SPIKES, TrafficProfile, TrafficSpike } from './workload-schema.ts';
export * from './workload-schema.ts';

/** The format version this build writes. Files carry it; `migrate()` brings older ones up to it. */
export const FORMAT_VERSION = 1;

const describe = <T extends TSchema>(schema: T, description: string): T =>
  ({ ...schema, description }) as T;

export const KeyAttributeType = describe(
  Type.Union([Type.Literal('S'), Type.Literal('N'), Type.Literal('B')]),
  'A key attribute type: S (string), N (number) or B (binary).',
);
export type KeyAttributeType = Static<typeof KeyAttributeType>;

export const ATTRIBUTE_TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'] as const;
export const AttributeType = Type.Union(
  ATTRIBUTE_TYPES.map((t) => Type.Literal(t)),
  { description: 'A DynamoDB attribute type.' },
);
export type AttributeType = Static<typeof AttributeType>;

export const KeyAttribute = Type.Object(
  {
    name: Type.String({ description: 'Attribute name, e.g. PK or GSI1SK.' }),
    type: KeyAttributeType,
  },
  { additionalProperties: false, description: 'A key attribute: its name and scalar type.' },
);
export type KeyAttribute = Static<typeof KeyAttribute>;

/**
 * Auto scaling's target utilization range, in percent: DynamoDB accepts 20–90.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html
 */
export const MIN_TARGET_UTILIZATION_PERCENT = 20;
/** The top of auto scaling's target utilization range, in percent (same page). */
export const MAX_TARGET_UTILIZATION_PERCENT = 90;

export const AutoScalingRange = Type.Object(
  {
    minCapacity: Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'The fewest units auto scaling provisions: a floor that is billed even when the load needs less.' }),
    maxCapacity: Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'The most units auto scaling provisions (at least minCapacity); load above it throttles.' }),
    targetUtilizationPercent: Type.Number({
      minimum: MIN_TARGET_UTILIZATION_PERCENT,
      maximum: MAX_TARGET_UTILIZATION_PERCENT,
      description: 'The share of the provisioned capacity the load should use, 20–90 %: auto scaling holds about load ÷ target.',
    }),
  },
  { additionalProperties: false, description: 'Auto scaling of one direction (reads or writes): capacity follows the load within min and max.' },
);
export type AutoScalingRange = Static<typeof AutoScalingRange>;

export const AutoScaling = Type.Object(
  {
    read: Type.Optional(AutoScalingRange),
    write: Type.Optional(AutoScalingRange),
  },
  {
    additionalProperties: false,
    description:
      'Auto scaling of provisioned capacity, per direction. Where a direction scales, its capacity units are the initial capacity and the bill follows what auto scaling holds.',
  },
);
export type AutoScaling = Static<typeof AutoScaling>;

export const ProvisionedThroughput = Type.Object(
  {
    readCapacityUnits: Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Provisioned RCU (the initial RCU when reads auto scale).' }),
    writeCapacityUnits: Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Provisioned WCU (the initial WCU when writes auto scale).' }),
    autoScaling: Type.Optional(AutoScaling),
  },
  { additionalProperties: false },
);
export type ProvisionedThroughput = Static<typeof ProvisionedThroughput>;

export const Billing = Type.Union(
  [
    Type.Object({ mode: Type.Literal('ON_DEMAND') }, { additionalProperties: false }),
    Type.Object(
      {
        mode: Type.Literal('PROVISIONED'),
        readCapacityUnits: Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Provisioned RCU of the table (the initial RCU when reads auto scale).' }),
        writeCapacityUnits: Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Provisioned WCU of the table (the initial WCU when writes auto scale).' }),
        autoScaling: Type.Optional(AutoScaling),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'ON_DEMAND (pay per request) or PROVISIONED with the table RCU/WCU, optionally auto scaled.' },
);
export type Billing = Static<typeof Billing>;

export const Projection = Type.Union(
  [
    Type.Object({ type: Type.Literal('KEYS_ONLY') }, { additionalProperties: false }),
    Type.Object({ type: Type.Literal('ALL') }, { additionalProperties: false }),
    Type.Object(
      {
        type: Type.Literal('INCLUDE'),
        nonKeyAttributes: Type.Array(Type.String(), { description: 'Non-key attributes copied into the index.' }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Which attributes the index holds besides the keys.' },
);
export type Projection = Static<typeof Projection>;
export type ProjectionType = Projection['type'];

/**
 * The most attributes one part (partition or sort) of a GSI's key may have: a multi-attribute key.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
 */
export const MAX_KEY_ATTRIBUTES_PER_PART = 4;

/** A GSI's partition or sort key: one attribute, or an ordered list of up to four (a multi-attribute key). */
const GsiKeyPart = (part: 'partition' | 'sort') =>
  Type.Union([KeyAttribute, Type.Array(KeyAttribute, { description: `A multi-attribute ${part} key: 1–4 attributes, in key order, each keeping its own type.` })], {
    description:
      part === 'partition'
        ? 'The partition key: one attribute, or a list of up to 4 that DynamoDB hashes together (a Query gives each one by equality).'
        : 'The sort key: one attribute, or a list of up to 4 that sort left to right (a Query conditions them left to right, a range only on the last one used).',
  });

/**
 * On-demand maximum throughput: request units per second the table (or a GSI) may use at most.
 * Requests over it are throttled with `…MaxOnDemandThroughputExceeded`.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html
 */
export const OnDemandThroughput = Type.Object(
  {
    maxReadRequestUnits: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Most read request units per second (absent: no maximum).' })),
    maxWriteRequestUnits: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Most write request units per second (absent: no maximum).' })),
  },
  { additionalProperties: false, description: 'On-demand maximum throughput (on-demand billing only).' },
);
export type OnDemandThroughput = Static<typeof OnDemandThroughput>;

/**
 * Warm throughput: the read and write units per second the table (or a GSI) can serve at once,
 * raised ahead of a peak ("pre-warming", a one-time charge).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
 */
export const WarmThroughput = Type.Object(
  {
    readUnitsPerSecond: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Read units per second the table can serve instantly.' })),
    writeUnitsPerSecond: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CAPACITY_UNITS, description: 'Write units per second the table can serve instantly.' })),
  },
  { additionalProperties: false, description: 'Warm throughput to pre-warm to (either billing mode).' },
);
export type WarmThroughput = Static<typeof WarmThroughput>;

export const GlobalSecondaryIndex = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'Index name: 3–255 characters of a-z A-Z 0-9 _ . -' }),
    partitionKey: GsiKeyPart('partition'),
    sortKey: Type.Optional(GsiKeyPart('sort')),
    projection: Projection,
    provisioned: Type.Optional(ProvisionedThroughput),
    onDemandThroughput: Type.Optional(OnDemandThroughput),
    warmThroughput: Type.Optional(WarmThroughput),
  },
  { additionalProperties: false },
);
export type GlobalSecondaryIndex = Static<typeof GlobalSecondaryIndex>;

export const LocalSecondaryIndex = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'Index name: 3–255 characters of a-z A-Z 0-9 _ . -' }),
    sortKey: KeyAttribute,
    projection: Projection,
  },
  { additionalProperties: false, description: "An LSI shares the table's partition key and has its own sort key." },
);
export type LocalSecondaryIndex = Static<typeof LocalSecondaryIndex>;

export const Attribute = Type.Object(
  {
    name: Type.String(),
    type: AttributeType,
    averageSizeBytes: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_SIZE_BYTES, description: 'Average size of the value in bytes.' })),
    generator: Type.Optional(Generator),
    cardinality: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_COUNT, description: 'Number of distinct values.' })),
    presence: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'For an optional attribute: the share of items that carry it, 0–1 (every item when absent). An item without it is not in an index keyed on it.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type Attribute = Static<typeof Attribute>;

export const KeyBinding = Type.Object(
  {
    template: Type.String({ description: 'Key template, e.g. USER#{userId} or ORDER#{orderDate}#{orderId}.' }),
    when: Type.Optional(
      Type.String({ description: 'Sparse by predicate: the item carries this key only when it holds, e.g. status = "PENDING".' }),
    ),
    shards: Type.Optional(
      Type.Object(
        {
          count: Type.Integer({ minimum: 2, maximum: 1000, description: 'Number of suffixes N; the key becomes <value>.<1..N>.' }),
          method: Type.Union([Type.Literal('random'), Type.Literal('calculated')], {
            description: 'random: a writer picks any suffix (reads fan out over all N); calculated: the suffix is a hash of `from`, so a reader who knows it goes to one shard.',
          }),
          from: Type.Optional(Type.String({ description: 'For calculated suffixes: the attribute hashed into the suffix.' })),
        },
        { additionalProperties: false, description: 'Write sharding of a partition key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-sharding.html' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type KeyBinding = Static<typeof KeyBinding>;
export type Sharding = NonNullable<KeyBinding['shards']>;

export const Entity = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    itemCount: Type.Integer({ minimum: 0, maximum: MAX_COUNT, description: 'Expected number of items of this entity.' }),
    attributes: Type.Array(Attribute),
    keys: Type.Record(Type.String(), KeyBinding, {
      description:
        'One template per key attribute of the table and of each index. An absent template means the entity is not in that index (sparse).',
    }),
  },
  { additionalProperties: false },
);
export type Entity = Static<typeof Entity>;

export const PATTERN_ACTIONS = ['get', 'query', 'count', 'put', 'update', 'delete'] as const;
export type PatternAction = (typeof PATTERN_ACTIONS)[number];
export const RANGE_OPERATORS = ['=', '<', '<=', '>', '>=', 'between', 'begins_with'] as const;
export type RangeOperator = (typeof RANGE_OPERATORS)[number];

export const AccessPattern = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    entityId: Type.Optional(
      Type.String({
        description:
          'The entity this pattern reads or writes. Absent while the pattern is written before its entity exists: it then needs a key design before it is planned and costed.',
      }),
    ),
    action: Type.Union(PATTERN_ACTIONS.map((a) => Type.Literal(a)), {
      description: 'get one item, query (list many), count, or a write: put, update, delete.',
    }),
    known: Type.Array(Type.String(), { description: 'Attributes the caller knows (equality).' }),
    range: Type.Optional(
      Type.Object(
        {
          attribute: Type.String(),
          operator: Type.Union(RANGE_OPERATORS.map((o) => Type.Literal(o))),
        },
        { additionalProperties: false, description: 'The range the pattern needs on a sort attribute.' },
      ),
    ),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    resultSize: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_COUNT, description: 'Expected items returned per request.' })),
    ratePerSecond: Type.Number({ minimum: 0, maximum: MAX_COUNT, description: 'Requests per second at peak.' }),
    consistency: Type.Union([Type.Literal('eventual'), Type.Literal('strong'), Type.Literal('transactional')]),
    updates: Type.Optional(
      Type.Array(Type.String(), {
        description: 'For update patterns: the attributes the update changes (decides which index entries move).',
      }),
    ),
    sets: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'For update patterns: the value the update writes to an updated attribute, when it is always the same (status → "CLOSED"). It tells whether the update takes the item into or out of a sparse index.',
      }),
    ),
    filter: Type.Optional(
      Type.String({ description: 'A condition on returned items beyond the key condition, e.g. status = "SHIPPED".' }),
    ),
    returns: Type.Optional(
      Type.Union([Type.Literal('item'), Type.Array(Type.String(), { description: 'The attributes the caller needs back.' })], {
        description:
          'For reads: what the caller needs back, "item" (the whole item, the default) or a list of attributes. An index that does not project them cannot serve the pattern alone.',
      }),
    ),
    traffic: Type.Optional(Distribution),
    averagePerSecond: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_COUNT,
        description:
          'Requests per second on average over a day, at most the peak (`ratePerSecond`). It prices on-demand requests; absent, the average is the daily profile\'s (or the peak without one). Not together with `profile`.',
      }),
    ),
    profile: Type.Optional(TrafficProfile),
    spikes: Type.Optional(Type.Array(TrafficSpike, { maxItems: MAX_SPIKES, description: 'Short bursts above the hour\'s rate, at most 24.' })),
    hotKeyShare: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          "The share of the pattern's requests on its hottest key, 0–1: the simulator sends that share to the key with the most items and spreads the rest as the items do. Absent, the attributes' spreads (or `traffic`) decide it.",
      }),
    ),
    notes: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type AccessPattern = Static<typeof AccessPattern>;

export const TABLE_CLASSES = ['STANDARD', 'STANDARD_INFREQUENT_ACCESS'] as const;
export const STREAM_VIEW_TYPES = ['NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES', 'KEYS_ONLY'] as const;

/** Longest point-in-time recovery period, in days. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PointInTimeRecoverySpecification.html */
export const MAX_RECOVERY_PERIOD_DAYS = 35;

export const PointInTimeRecovery = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Continuous backups with point-in-time restore.' }),
    recoveryPeriodInDays: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_RECOVERY_PERIOD_DAYS, description: 'Days of restorable history, 1–35 (DynamoDB keeps 35 when absent).' }),
    ),
  },
  { additionalProperties: false, description: 'Point-in-time recovery (PITR) of the table.' },
);
export type PointInTimeRecovery = Static<typeof PointInTimeRecovery>;

export const ENCRYPTION_TYPES = ['AWS_OWNED', 'KMS'] as const;
export const Encryption = Type.Object(
  {
    type: Type.Union(ENCRYPTION_TYPES.map((t) => Type.Literal(t)), {
      description: 'AWS_OWNED: a key DynamoDB owns (the default, free); KMS: an AWS KMS key, the AWS managed aws/dynamodb key unless kmsKeyId names one.',
    }),
    kmsKeyId: Type.Optional(Type.String({ description: 'For KMS: the key id, ARN or alias of a customer managed key.' })),
  },
  { additionalProperties: false, description: 'Encryption at rest of the table.' },
);
export type Encryption = Static<typeof Encryption>;

export const CONTRIBUTOR_INSIGHTS_MODES = ['ACCESSED_AND_THROTTLED_KEYS', 'THROTTLED_KEYS'] as const;
/**
 * CloudWatch Contributor Insights for the table: its most accessed and throttled keys.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/contributorinsights_HowItWorks.html
 */
export const ContributorInsights = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether Contributor Insights is on.' }),
    mode: Type.Optional(
      Type.Union(CONTRIBUTOR_INSIGHTS_MODES.map((m) => Type.Literal(m)), {
        description: 'ACCESSED_AND_THROTTLED_KEYS (the default) or THROTTLED_KEYS only.',
      }),
    ),
  },
  { additionalProperties: false, description: 'CloudWatch Contributor Insights of the table.' },
);
export type ContributorInsights = Static<typeof ContributorInsights>;

export const Table = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'Table name: 3–255 characters of a-z A-Z 0-9 _ . -' }),
    partitionKey: KeyAttribute,
    sortKey: Type.Optional(KeyAttribute),
    billing: Billing,
    tableClass: Type.Union(TABLE_CLASSES.map((c) => Type.Literal(c))),
    ttlAttribute: Type.Optional(Type.String()),
    stream: Type.Optional(Type.Union(STREAM_VIEW_TYPES.map((s) => Type.Literal(s)))),
    globalSecondaryIndexes: Type.Array(GlobalSecondaryIndex),
    localSecondaryIndexes: Type.Array(LocalSecondaryIndex),
    entities: Type.Array(Entity),
    accessPatterns: Type.Array(AccessPattern),
    pointInTimeRecovery: Type.Optional(PointInTimeRecovery),
    encryption: Type.Optional(Encryption),
    deletionProtection: Type.Optional(Type.Boolean({ description: 'Whether the table is protected from deletion.' })),
    tags: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'Tags of the table: key → value (up to 50; keys 1–128 characters, values up to 256).' }),
    ),
    contributorInsights: Type.Optional(ContributorInsights),
    onDemandThroughput: Type.Optional(OnDemandThroughput),
    warmThroughput: Type.Optional(WarmThroughput),
  },
  { additionalProperties: false },
);
export type Table = Static<typeof Table>;

export const TableClassPricing = Type.Object(
  {
    writeRequestUnitUsdPerMillion: Type.Number({ minimum: 0, maximum: MAX_PRICE_USD, description: 'On-demand: USD per million write request units (WRU).' }),
    readRequestUnitUsdPerMillion: Type.Number({ minimum: 0, maximum: MAX_PRICE_USD, description: 'On-demand: USD per million read request units (RRU).' }),
    writeCapacityUnitUsdPerHour: Type.Number({ minimum: 0, maximum: MAX_PRICE_USD, description: 'Provisioned: USD per WCU per hour.' }),
    readCapacityUnitUsdPerHour: Type.Number({ minimum: 0, maximum: MAX_PRICE_USD, description: 'Provisioned: USD per RCU per hour.' }),
    storageUsdPerGbMonth: Type.Number({ minimum: 0, maximum: MAX_PRICE_USD, description: 'USD per GB-month of storage (tables and indexes, 100 B per item included).' }),
    freeStorageGb: Type.Number({ minimum: 0, maximum: MAX_SIZE_BYTES, description: 'GB per month stored free of charge (the free tier).' }),
  },
  { additionalProperties: false, description: 'Prices of one table class.' },
);
export type TableClassPricing = Static<typeof TableClassPricing>;

export const Pricing = Type.Object(
  {
    region: Type.String({ description: 'The Region these prices are for, e.g. us-east-1 (shown only).' }),
    hoursPerMonth: Type.Number({ exclusiveMinimum: 0, maximum: MAX_HOURS_PER_MONTH, description: 'Hours in a billing month; AWS examples use 730.' }),
    bytesPerGb: Type.Number({ minimum: 1, maximum: MAX_SIZE_BYTES, description: 'Bytes in a GB: 1,073,741,824 (DynamoDB measures sizes in binary units).' }),
    tableClasses: Type.Object(
      { STANDARD: TableClassPricing, STANDARD_INFREQUENT_ACCESS: TableClassPricing },
      { additionalProperties: false, description: 'Prices per table class.' },
    ),
    source: Type.Optional(Type.String({ description: 'Where the prices come from, and as of when.' })),
  },
  { additionalProperties: false, description: 'Prices the cost figures use; edit them to match your Region and date.' },
);
export type Pricing = Static<typeof Pricing>;

/** A change of load over the simulated time: every pattern's rate × `multiplier`. */
export const WorkloadEvent = Type.Object(
  {
    kind: Type.Union([Type.Literal('spike'), Type.Literal('ramp')], {
      description: 'spike: the multiplier applies at once for the duration; ramp: it grows linearly from 1 to the multiplier over the duration, then stays.',
    }),
    startSecond: Type.Number({ minimum: 0 }),
    durationSeconds: Type.Number({ exclusiveMinimum: 0 }),
    multiplier: Type.Number({ minimum: 0 }),
    /** Only these patterns (ids); all when absent. */
    patternIds: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type WorkloadEvent = Static<typeof WorkloadEvent>;

export const Workload = Type.Object(
  {
    durationSeconds: Type.Number({ exclusiveMinimum: 0, maximum: 7 * 24 * 3600 }),
    stepSeconds: Type.Number({ exclusiveMinimum: 0, maximum: 3600 }),
    seed: Type.Integer(),
    events: Type.Array(WorkloadEvent),
  },
  { additionalProperties: false, description: 'The load the partition simulator runs: how long, in which steps, with which spikes and ramps.' },
);
export type Workload = Static<typeof Workload>;

export const Design = Type.Object(
  {
    formatVersion: Type.Literal(FORMAT_VERSION),
    id: Type.String(),
    name: Type.String(),
    description: Type.Optional(Type.String()),
    tables: Type.Array(Table, { minItems: 1 }),
    pricing: Type.Optional(Pricing),
    workload: Type.Optional(Workload),
  },
  { additionalProperties: false, $id: 'https://keyplan.dev/schema/design.json', title: 'Keyplan design' },
);
export type Design = Static<typeof Design>;

export type TableClass = Table['tableClass'];
export type StreamViewType = NonNullable<Table['stream']>;
export type Consistency = AccessPattern['consistency'];

/** The JSON Schema of a design file, for the raw-JSON editor. */
export const designJsonSchema: object = JSON.parse(JSON.stringify(Design));
