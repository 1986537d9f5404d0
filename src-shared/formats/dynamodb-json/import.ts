/**
 * A BatchWriteItem request in DynamoDB JSON read back (the files `toBatchWriteFiles` writes, or any
 * such request): the items it puts, per table, with every problem collected. See `export.ts` for the
 * format.
 */
import { parseDynamoDbItem, type Item } from '../../capacity/index.ts';
import { fail, ok, type Result } from '../../errors.ts';
import type { Problem } from '../../model/index.ts';
import { describeValue, joinPath } from '../../model/index.ts';
import { isRecord } from '../common/values.ts';
import { MAX_BATCH_WRITE_REQUESTS } from './export.ts';

/** Codes of the problems `parseBatchWriteRequest` raises (besides the `item.*` codes of the items). */
export type DynamoDbJsonErrorCode = 'dynamodbJson.notBatchWrite' | 'dynamodbJson.badRequest' | 'dynamodbJson.tooManyRequests' | 'dynamodbJson.duplicateItem';

/** The items a BatchWriteItem request puts, per table. */
export interface BatchWriteItems {
  tableName: string;
  items: Item[];
}

function problem(code: DynamoDbJsonErrorCode, path: string, message: string, found: string, expected: string): Problem {
  return { code, path, message, found, expected };
}

/**
 * Reads one BatchWriteItem request (`{ "RequestItems": { "<table>": [ { "PutRequest": { "Item": … } } ] } }`,
 * or the bare RequestItems map that `--request-items` takes), collecting every problem with its path:
 * `dynamodbJson.notBatchWrite` (not such a request: one problem), `dynamodbJson.badRequest` (a request
 * that is not a PutRequest with an Item), `dynamodbJson.tooManyRequests` (over 25),
 * `dynamodbJson.duplicateItem` (the same item twice), and the `item.*` problems of each item. Never throws.
 */
export function parseBatchWriteRequest(json: unknown): Result<BatchWriteItems[], Problem> {
  const wrapped = isRecord(json) && Object.hasOwn(json, 'RequestItems');
  const requestItems = wrapped ? json.RequestItems : json;
  const base = wrapped ? 'RequestItems' : '';
  const expected = 'an object {"RequestItems": {"<table>": [{"PutRequest": {"Item": {…}}}]}}';
  if (!isRecord(requestItems) || Object.values(requestItems).some((v) => !Array.isArray(v))) {
    const found = describeValue(requestItems);
    return fail([problem('dynamodbJson.notBatchWrite', base, `This is not a BatchWriteItem request: expected ${expected}; found ${found}.`, found, expected)]);
  }
  const problems: Problem[] = [];
  const tables: BatchWriteItems[] = [];
  let total = 0;
  for (const [tableName, requests] of Object.entries(requestItems) as Array<[string, unknown[]]>) {
    const tp = joinPath(base, tableName);
    const items: Item[] = [];
    const seen = new Set<string>();
    requests.forEach((request, i) => {
      const rp = joinPath(tp, i);
      total += 1;
      const put = isRecord(request) ? request.PutRequest : undefined;
      if (!isRecord(request) || !isRecord(put) || !Object.hasOwn(put, 'Item')) {
        const found = isRecord(request) && Object.hasOwn(request, 'DeleteRequest') ? 'a DeleteRequest' : describeValue(request);
        problems.push(problem('dynamodbJson.badRequest', rp, `Request ${i + 1} for table ${JSON.stringify(tableName)} is ${found}; expected {"PutRequest": {"Item": {…}}}.`, found, 'a PutRequest with an Item'));
        return;
      }
      const parsed = parseDynamoDbItem(put.Item, joinPath(joinPath(rp, 'PutRequest'), 'Item'));
      if (!parsed.ok) {
        problems.push(...parsed.errors);
        return;
      }
      const text = JSON.stringify(parsed.value);
      if (seen.has(text)) {
        problems.push(problem('dynamodbJson.duplicateItem', rp, `Request ${i + 1} for table ${JSON.stringify(tableName)} puts the same item as an earlier one; expected each item once (BatchWriteItem rejects duplicates).`, 'a repeated item', 'each item once'));
        return;
      }
      seen.add(text);
      items.push(parsed.value);
    });
    tables.push({ tableName, items });
  }
  if (total > MAX_BATCH_WRITE_REQUESTS) {
    problems.push(
      problem('dynamodbJson.tooManyRequests', base, `The request holds ${total} write requests; expected at most ${MAX_BATCH_WRITE_REQUESTS} (BatchWriteItem's limit).`, `${total} requests`, `at most ${MAX_BATCH_WRITE_REQUESTS}`),
    );
  }
  return problems.length > 0 ? fail(problems) : ok(tables);
}
