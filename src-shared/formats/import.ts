/**
 * Import from any format Keyplan reads: which format a text is (`detectImportFormat`, for
 * `keyplan import --from auto` and the import dialog) and the one entry point that reads it
 * (`importText`). Each format's reader lives in its own module; this one only recognizes and routes.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/import.ts".
 */
import { fail, type Result } from '../errors.ts';
import type { Problem } from '../model/index.ts';
import { describeValue } from '../model/index.ts';
import { fromNoSqlWorkbench } from './nosql-workbench/import.ts';
import { fromCloudFormation } from './cloudformation/import.ts';
import { isTemplate, isTemplateText } from './cloudformation/template-text.ts';
import { fromDescribeTable } from './describe-table/import.ts';
import { fromOneTable } from './onetable/import.ts';
import { IMPORT_SOURCE_LABELS, IMPORT_SOURCES, type ImportResult, type ImportSource } from './common/import-types.ts';
import { tooDeepProblem, tooLargeProblem } from './common/bounds.ts';

/** What a text reads as: one of the import sources, or a Keyplan design. */
export type ImportFormat = ImportSource | 'keyplan';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The format of a parsed JSON value, or undefined when it is none Keyplan reads. */
export function detectJsonFormat(json: unknown): ImportFormat | undefined {
  if (!isRecord(json)) return undefined;
  if ('formatVersion' in json || 'tables' in json) return 'keyplan';
  if ('DataModel' in json || 'ModelName' in json) return 'nosql-workbench';
  if ((typeof json.format === 'string' && json.format.startsWith('onetable:')) || ('indexes' in json && 'models' in json)) return 'onetable';
  if (isTemplate(json)) return 'cloudformation';
  if (isRecord(json.Table) && 'KeySchema' in json.Table) return 'describe-table';
  if (isRecord(json.TableDescription) && 'KeySchema' in json.TableDescription) return 'describe-table';
  if ('KeySchema' in json && ('TableStatus' in json || 'TableArn' in json)) return 'describe-table';
  return undefined;
}

/** Parses `text` as JSON; undefined when it is not JSON. */
function tryJson(text: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** The text without a leading byte order mark (editors on Windows write one; JSON.parse refuses it). */
const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The format of a text (JSON of any format, or a CloudFormation template in YAML); undefined when none. */
export function detectImportFormat(raw: string): ImportFormat | undefined {
  const text = withoutBom(raw);
  const parsed = tryJson(text);
  if (parsed) return detectJsonFormat(parsed.json);
  return isTemplateText(text) ? 'cloudformation' : undefined;
}

/** What a text that is no format Keyplan reads looks like, for the one problem about it. */
function describeText(text: string): string {
  const parsed = tryJson(text);
  if (!parsed) return 'text that is neither JSON nor a CloudFormation template in YAML';
  const json = parsed.json;
  if (!isRecord(json)) return `JSON that is ${describeValue(json)}`;
  if ('TableName' in json && 'KeySchema' in json) return 'a CreateTable input (import the table with describe-table output or a CloudFormation template instead)';
  if ('TimeToLiveDescription' in json || 'ContinuousBackupsDescription' in json) return 'a describe-time-to-live or describe-continuous-backups output alone (give it with the describe-table output)';
  const keys = Object.keys(json);
  return keys.length === 0 ? 'an empty JSON object' : `a JSON object with ${keys.slice(0, 6).map((k) => JSON.stringify(k)).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/** The list of formats for messages: `a Keyplan design, a NoSQL Workbench model, …`. */
export const READABLE_FORMATS = `a Keyplan design, ${IMPORT_SOURCES.map((s) => `a ${IMPORT_SOURCE_LABELS[s]}`).join(', ')}`;

/** The one problem of a text no reader recognizes. */
export function unknownFormatProblem(text: string): Problem {
  const found = describeText(withoutBom(text));
  return { code: 'import.unknownFormat', path: '', message: `Keyplan cannot tell what this is: expected ${READABLE_FORMATS}; found ${found}.`, found, expected: READABLE_FORMATS };
}

/** Parses `text` as JSON, or the problem naming where it stops being JSON. */
function parseJson(text: string, what: string): Result<unknown, Problem> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const found = error instanceof Error ? error.message : String(error);
    return fail([{ code: 'file.notJson', path: '', message: `This is not JSON: ${found}. Expected ${what} (JSON).`, found, expected: 'JSON text' }]);
  }
}

/**
 * Reads `text` as `source`. `companions` are further texts some sources take: for describe-table,
 * the outputs of describe-time-to-live and describe-continuous-backups (each JSON). Never throws.
 * Bounded (`./common/bounds.ts`): a text larger than `MAX_IMPORT_BYTES` is `import.tooLarge`, JSON
 * nested deeper than `MAX_IMPORT_DEPTH` levels is `import.tooDeep` at its path, before any reader
 * walks it; a template has the tighter bounds of `./cloudformation/template-text.ts`.
 */
export function importText(source: ImportSource, raw: string, companions: readonly string[] = []): ImportResult {
  const tooLarge: Problem[] = [];
  const own = tooLargeProblem(raw, 'The file');
  if (own) tooLarge.push(own);
  companions.forEach((companion, i) => {
    const problem = tooLargeProblem(companion, `Further file ${i + 1}`);
    if (problem) tooLarge.push({ ...problem, path: `companions[${i}]` });
  });
  if (tooLarge.length > 0) return fail(tooLarge);
  const text = withoutBom(raw);
  if (source === 'cloudformation') return fromCloudFormation(text);
  const json = parseJson(text, `a ${IMPORT_SOURCE_LABELS[source]}`);
  if (!json.ok) return json;
  const tooDeep = tooDeepProblem(json.value, `The ${IMPORT_SOURCE_LABELS[source]}`);
  if (tooDeep) return fail([tooDeep]);
  if (source === 'nosql-workbench') return fromNoSqlWorkbench(json.value);
  if (source === 'onetable') return fromOneTable(json.value);
  const extra: unknown[] = [];
  const problems: Problem[] = [];
  companions.forEach((companion, i) => {
    const parsed = parseJson(withoutBom(companion), 'a describe-time-to-live or describe-continuous-backups output');
    const tooDeepCompanion = parsed.ok ? tooDeepProblem(parsed.value, 'The output', undefined, `companions[${i}]`) : undefined;
    if (tooDeepCompanion) problems.push(tooDeepCompanion);
    else if (parsed.ok) extra.push(parsed.value);
    else problems.push(...parsed.errors.map((p) => ({ ...p, path: `companions[${i}]` })));
  });
  if (problems.length > 0) return fail(problems);
  return fromDescribeTable(json.value, extra);
}
