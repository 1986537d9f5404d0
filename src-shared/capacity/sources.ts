/**
 * The AWS documentation pages Keyplan's derivations cite, each with the title a user sees and the
 * address to open. The rules themselves, in our words, are in docs/dynamodb-rules.md.
 */

/** An AWS documentation page: what a derivation step cites as its source. */
export interface DocSource {
  title: string;
  url: string;
}

const DG = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide';

export const AWS_DOCS = {
  itemSizes: { title: 'DynamoDB item sizes and formats', url: `${DG}/CapacityUnitCalculations.html` },
  readWriteUnits: { title: 'DynamoDB provisioned capacity mode: read and write unit consumption', url: `${DG}/ProvisionedThroughput.html` },
  capacityModes: { title: 'DynamoDB throughput capacity', url: `${DG}/HowItWorks.ReadWriteCapacityMode.html` },
  query: { title: 'Querying tables in DynamoDB', url: `${DG}/Query.html` },
  scan: { title: 'Scanning tables in DynamoDB', url: `${DG}/Scan.html` },
  gsi: { title: 'Using Global Secondary Indexes in DynamoDB', url: `${DG}/GSI.html` },
  lsi: { title: 'Local secondary indexes', url: `${DG}/LSI.html` },
  sparseIndexes: { title: 'Take advantage of sparse indexes', url: `${DG}/bp-indexes-general-sparse-indexes.html` },
  transactions: { title: 'Amazon DynamoDB Transactions: How it works', url: `${DG}/transaction-apis.html` },
  projectionExpressions: { title: 'Using projection expressions in DynamoDB', url: `${DG}/Expressions.ProjectionExpressions.html` },
  writeSharding: { title: 'Using write sharding to distribute workloads evenly', url: `${DG}/bp-partition-key-sharding.html` },
  quotas: { title: 'Quotas in Amazon DynamoDB', url: `${DG}/ServiceQuotas.html` },
  provisionedMode: { title: 'DynamoDB provisioned capacity mode', url: `${DG}/provisioned-capacity-mode.html` },
  autoScaling: { title: 'Managing throughput capacity automatically with DynamoDB auto scaling', url: `${DG}/AutoScaling.html` },
  partitions: { title: 'Partitions and data distribution in DynamoDB', url: `${DG}/HowItWorks.Partitions.html` },
  partitionKeyDesign: { title: 'Best practices for designing and using partition keys effectively', url: `${DG}/bp-partition-key-design.html` },
  warmThroughput: { title: 'Understanding DynamoDB warm throughput', url: `${DG}/warm-throughput.html` },
  warmThroughputScenarios: { title: 'Understanding DynamoDB warm throughput in different scenarios', url: `${DG}/warm-throughput-scenarios.html` },
  onDemandMode: { title: 'DynamoDB on-demand capacity mode', url: `${DG}/on-demand-capacity-mode.html` },
  preWarmingOnDemand: { title: 'Pre-warming a table for on-demand capacity mode', url: `${DG}/pre-warming-on-demand-capacity-mode.html` },
  onDemandMaximum: { title: 'DynamoDB maximum throughput for on-demand tables', url: `${DG}/on-demand-capacity-mode-max-throughput.html` },
  throttlingReasons: { title: 'ThrottlingReason (DynamoDB API Reference)', url: 'https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html' },
  gsiBackPressure: { title: 'GSI write throttling and back-pressure', url: `${DG}/gsi-throttling.html` },
  pricing: { title: 'Amazon DynamoDB pricing', url: 'https://aws.amazon.com/dynamodb/pricing/' },
  provisionedPricing: { title: 'Amazon DynamoDB pricing for provisioned capacity', url: 'https://aws.amazon.com/dynamodb/pricing/provisioned/' },
  onDemandPricing: { title: 'Amazon DynamoDB pricing for on-demand capacity', url: 'https://aws.amazon.com/dynamodb/pricing/on-demand/' },
} satisfies Record<string, DocSource>;
