/**
 * AWS pages the partition simulator cites in text a user sees (assumptions, reasons). The rules
 * themselves, with these sources, are in docs/dynamodb-rules.md §4 and §5.
 */
const DEVELOPER_GUIDE = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide';

/** Per-partition limits, burst and adaptive capacity, split for heat (docs/dynamodb-rules.md §4.1, §4.5, §4.6). */
export const AWS_PARTITION_KEY_DESIGN = `${DEVELOPER_GUIDE}/bp-partition-key-design.html`;
/** On-demand scaling: new-table level and twice the previous peak (docs/dynamodb-rules.md §4.3). */
export const AWS_ON_DEMAND = `${DEVELOPER_GUIDE}/on-demand-capacity-mode.html`;
/** Default per-table throughput quota (docs/dynamodb-rules.md §4.3, §7). */
export const AWS_QUOTAS = `${DEVELOPER_GUIDE}/ServiceQuotas.html`;
/** GSI write throttling and back-pressure (docs/dynamodb-rules.md §4.8). */
export const AWS_GSI_BACK_PRESSURE = `${DEVELOPER_GUIDE}/gsi-throttling.html`;
/** Write sharding (docs/dynamodb-rules.md §5). */
export const AWS_WRITE_SHARDING = `${DEVELOPER_GUIDE}/bp-partition-key-sharding.html`;
/** Each partition limited to 1,000 write units and 3,000 read units per second, stated as two limits (docs/dynamodb-rules.md §4.1, §4.4). */
export const AWS_PARTITION_LIMITS = `${DEVELOPER_GUIDE}/warm-throughput-scenarios.html`;
/** The on-demand maximum a table or GSI may be given, and what goes over it (docs/dynamodb-rules.md §4.3, §4.7). */
export const AWS_ON_DEMAND_MAXIMUM = `${DEVELOPER_GUIDE}/on-demand-capacity-mode-max-throughput.html`;
/** Warm throughput: what a table or GSI serves at once, set ahead of a launch (docs/dynamodb-rules.md §4.4). */
export const AWS_WARM_THROUGHPUT = `${DEVELOPER_GUIDE}/warm-throughput.html`;
