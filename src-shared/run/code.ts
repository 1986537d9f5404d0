/**
 * A run's request as code a user copies: AWS SDK for JavaScript v3, an `aws dynamodb …` command,
 * or the input as JSON (what `--cli-input-json` takes). All three are generated from the same
 * `RunRequest` the run sent, so what a user pastes is exactly what was measured.
 *
 * The SDK code uses the low-level `DynamoDBClient`, whose values are DynamoDB JSON like the
 * request's, except binaries: the SDK takes bytes where DynamoDB JSON has base64, so `B`/`BS`
 * values become `Buffer.from("…", "base64")`.
 */
import type { RunOperation, RunRequest } from './types.ts';

/** The Command class of each operation in `@aws-sdk/client-dynamodb`. */
const COMMAND_CLASS: Record<RunOperation, string> = {
  GetItem: 'GetItemCommand',
  BatchGetItem: 'BatchGetItemCommand',
  Query: 'QueryCommand',
  Scan: 'ScanCommand',
  PutItem: 'PutItemCommand',
  UpdateItem: 'UpdateItemCommand',
  DeleteItem: 'DeleteItemCommand',
  TransactWriteItems: 'TransactWriteItemsCommand',
};

/** The `aws dynamodb` subcommand of each operation. */
const CLI_SUBCOMMAND: Record<RunOperation, string> = {
  GetItem: 'get-item',
  BatchGetItem: 'batch-get-item',
  Query: 'query',
  Scan: 'scan',
  PutItem: 'put-item',
  UpdateItem: 'update-item',
  DeleteItem: 'delete-item',
  TransactWriteItems: 'transact-write-items',
};

const isPaged = (operation: RunOperation): boolean => operation === 'Query' || operation === 'Scan';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------
// JavaScript object literals

const LINE_WIDTH = 100;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A property name as JS source: bare when it is an identifier, quoted otherwise. */
function propertyName(key: string): string {
  // `"__proto__": v` in a literal sets the prototype instead of a property; computed names do not.
  if (key === '__proto__') return '["__proto__"]';
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/**
 * `{ B: "base64" }` and `{ BS: [...] }`: a DynamoDB JSON binary, which the SDK takes as bytes.
 * Every other place a `B` key can appear in an input (an attribute named B in a `Key` or `Item`)
 * holds an attribute value object, never a string.
 */
function binaryLiteral(value: Record<string, unknown>): string | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const bytes = (b: string) => `Buffer.from(${JSON.stringify(b)}, "base64")`;
  if (typeof value.B === 'string') return `{ B: ${bytes(value.B)} }`;
  if (Array.isArray(value.BS) && value.BS.every((b) => typeof b === 'string')) return `{ BS: [${(value.BS as string[]).map(bytes).join(', ')}] }`;
  return undefined;
}

/** `value` as a JS expression, pretty-printed with 2-space indents; short objects stay on one line. */
function jsLiteral(value: unknown, indent: string): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const parts = value.map((v) => jsLiteral(v, `${indent}  `));
    const inline = `[${parts.join(', ')}]`;
    if (!inline.includes('\n') && indent.length + inline.length <= LINE_WIDTH) return inline;
    return `[\n${parts.map((p) => `${indent}  ${p},`).join('\n')}\n${indent}]`;
  }
  if (isRecord(value)) {
    const binary = binaryLiteral(value);
    if (binary !== undefined) return binary;
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const parts = entries.map(([k, v]) => `${propertyName(k)}: ${jsLiteral(v, `${indent}  `)}`);
    const inline = `{ ${parts.join(', ')} }`;
    if (!inline.includes('\n') && indent.length + inline.length <= LINE_WIDTH) return inline;
    return `{\n${parts.map((p) => `${indent}  ${p},`).join('\n')}\n${indent}}`;
  }
  throw new Error(`A request input holds ${typeof value}, which DynamoDB JSON cannot carry.`);
}

/**
 * The request as an ES module for Node.js with AWS SDK for JavaScript v3: the client, the input as
 * an object literal, and the send. Query and Scan page on as the run did: while the response has a
 * `LastEvaluatedKey`, the same input is sent again with it as `ExclusiveStartKey` (stopping once
 * `stopAfterItems` items were returned, when the run did). The client takes its region and
 * credentials from the environment (the SDK's default chain); nothing here names an account.
 */
export function requestAsSdkCode(request: RunRequest): string {
  const command = COMMAND_CLASS[request.operation];
  const lines = [
    `import { DynamoDBClient, ${command} } from "@aws-sdk/client-dynamodb";`,
    '',
    '// Region and credentials come from the environment (AWS_REGION, AWS_PROFILE, ...);',
    '// for DynamoDB Local pass { endpoint: "http://localhost:8000" }.',
    'const client = new DynamoDBClient({});',
    '',
    `const input = ${jsLiteral(request.input, '')};`,
    '',
    `const response = await client.send(new ${command}(input));`,
  ];
  if (isPaged(request.operation)) {
    const stop = request.stopAfterItems;
    lines.push(
      'const items = [...(response.Items ?? [])];',
      '// One page holds at most 1 MB of items read (and at most Limit items): while the response has a',
      '// LastEvaluatedKey there may be more, so send the same input again with it as ExclusiveStartKey.',
      stop === undefined
        ? 'for (let page = response; page.LastEvaluatedKey; ) {'
        : `// The run stopped paging once ${stop} item${stop === 1 ? '' : 's'} had been returned.\nfor (let page = response; page.LastEvaluatedKey && items.length < ${stop}; ) {`,
      `  page = await client.send(new ${command}({ ...input, ExclusiveStartKey: page.LastEvaluatedKey }));`,
      '  items.push(...(page.Items ?? []));',
      '}',
      'console.log(JSON.stringify({ items, consumedCapacity: response.ConsumedCapacity }, null, 2));',
    );
  } else {
    lines.push('console.log(JSON.stringify(response, null, 2));');
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The AWS CLI

/** A word a POSIX shell takes as it is; anything else is single-quoted. */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * `text` as one word for a POSIX shell (sh, bash, zsh): bare when safe, else in single quotes, in
 * which nothing is special but the quote itself, written as `'\''` (close, escaped quote, reopen).
 */
export function shellQuote(text: string): string {
  if (SAFE_WORD.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** An API field's CLI option: `KeyConditionExpression` → `--key-condition-expression`. */
function optionName(field: string): string {
  return `--${field.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}`;
}

/**
 * The request as an `aws dynamodb …` command (AWS CLI v2), one option per input field, continued
 * over lines with `\`. Strings and numbers are plain values, booleans the CLI's flag pair
 * (`--consistent-read` / `--no-consistent-read`), maps and lists single-quoted JSON.
 *
 * Paging: the CLI pages Query and Scan by itself, and hides their `Limit` and `ExclusiveStartKey`
 * (they are not in `aws dynamodb query help`); `--page-size N` sends `Limit: N` on every request
 * and follows `LastEvaluatedKey` to the end, which is what the run does, and `--max-items` stops
 * after as many items as the run did. Only a request that starts from an `ExclusiveStartKey` (one
 * page) is written with the hidden `--exclusive-start-key` and `--limit`, which turn the CLI's
 * paging off. Binary values are base64, as the CLI v2 reads them (`cli_binary_format` base64).
 */
export function requestAsCliCommand(request: RunRequest): string {
  const { operation, input } = request;
  const isOnePage = isPaged(operation) && input.ExclusiveStartKey !== undefined;
  const options: string[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined) continue;
    let name = optionName(field);
    if (field === 'Limit' && isPaged(operation) && !isOnePage) name = '--page-size';
    if (typeof value === 'boolean') options.push(value ? name : name.replace(/^--/, '--no-'));
    else if (typeof value === 'string') options.push(`${name} ${shellQuote(value)}`);
    else if (typeof value === 'number') options.push(`${name} ${value}`);
    else options.push(`${name} ${shellQuote(JSON.stringify(value))}`);
  }
  if (isPaged(operation) && !isOnePage && request.stopAfterItems !== undefined) options.push(`--max-items ${request.stopAfterItems}`);
  return [`aws dynamodb ${CLI_SUBCOMMAND[operation]}`, ...options.map((o) => `    ${o}`)].join(' \\\n');
}

/** The request's input as pretty JSON: the body of `aws dynamodb <op> --cli-input-json file://…`. */
export function requestAsJson(request: RunRequest): string {
  return JSON.stringify(request.input, null, 2);
}
