/**
 * The largest counts, rates, capacities and prices a design may state, so that every figure Keyplan
 * derives from them (units per request × requests per second × seconds in a month × price) stays a
 * finite number printed with its digits, never `Infinity` or `NaN`. `parseDesign` refuses a larger
 * value with a `model.schema` problem at its path. The bounds and their reasons are listed in
 * docs/limits.md.
 */

/**
 * The most items, requests per second, items per result or distinct values a design may state: a
 * trillion. DynamoDB states no maximum for these; the busiest tables serve a few hundred million
 * requests per second, so a trillion leaves room for any design, and it keeps every product Keyplan
 * forms (a trillion requests × 100 RCU for a 400 KB strongly consistent read × 2.6 million seconds a
 * month × a price) about 10^20, far from what a double cannot hold (10^308).
 */
export const MAX_COUNT = 1e12;

/**
 * The most capacity units (provisioned RCU or WCU, auto scaling's bounds, on-demand maximum and warm
 * throughput per second) a design may state: a trillion. DynamoDB's default quota is 40,000 RCU and
 * 40,000 WCU per table, and AWS raises it on request, so Keyplan takes any value a raised quota
 * could allow and refuses only what no table can have.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#default-limits-throughput-capacity-modes
 */
export const MAX_CAPACITY_UNITS = 1e12;

/**
 * The most a price may be, in USD per unit it is quoted in (a million request units, a capacity unit
 * for an hour, a GB for a month): a million. DynamoDB's prices are a few dollars at most.
 * https://aws.amazon.com/dynamodb/pricing/
 */
export const MAX_PRICE_USD = 1e6;

/** The most bytes an attribute's average size may state: a trillion (DynamoDB's 400 KB item limit is a separate problem, `model.itemTooLarge`). */
export const MAX_SIZE_BYTES = 1e12;

/** The most hours a billing month may have: 31 days × 24 hours. */
export const MAX_HOURS_PER_MONTH = 744;
