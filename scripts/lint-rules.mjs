/**
 * Keyplan's own lint rules, as a local ESLint plugin (`keyplan/…` in eslint.config.js). Each keeps
 * one concept in one place or one boundary where it is; `tests/lint-layering.test.ts` and
 * `tests/lint-one-place.test.ts` lint a violating fixture for each.
 */
import { posix, relative } from 'node:path';

/** `action` as a bare name or a member (`p.action`, `pattern?.action`). */
const isAction = (node) =>
  (node?.type === 'Identifier' && node.name === 'action') ||
  (node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' && node.property.name === 'action') ||
  (node?.type === 'ChainExpression' && isAction(node.expression));

const isText = (node) => (node?.type === 'Literal' && typeof node.value === 'string') || node?.type === 'TemplateLiteral';

const KINDS_MODULE = 'src-shared/model/pattern-kinds.ts';

/**
 * An access pattern's `action` is asked about through the kinds table (`kindOf(p.action).counts`,
 * `isWritePattern(p)`), or switched over exhaustively (a `default` that calls `unreachableAction`),
 * so that a new kind fails to compile until every place handles it; never compared to a string.
 */
const patternKinds = {
  meta: {
    type: 'problem',
    docs: { description: 'Ask the pattern-kinds table instead of comparing an action to a string' },
    messages: {
      compare: `Compare no access-pattern action to a string: ask the kinds table in ${KINDS_MODULE} (kindOf(action).…, isWritePattern, isCountPattern), so a new kind is handled everywhere.`,
      includes: `Test no access-pattern action against a list of strings: ask the kinds table in ${KINDS_MODULE}.`,
      switch: `A switch over an access-pattern action ends in \`default: unreachableAction(action)\` (${KINDS_MODULE}), so a new kind fails to compile here until it is handled.`,
    },
    schema: [],
  },
  create(context) {
    return {
      BinaryExpression(node) {
        if (!['===', '!==', '==', '!='].includes(node.operator)) return;
        if ((isAction(node.left) && isText(node.right)) || (isAction(node.right) && isText(node.left))) context.report({ node, messageId: 'compare' });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === 'includes' && isAction(node.arguments[0])) {
          context.report({ node, messageId: 'includes' });
        }
      },
      SwitchStatement(node) {
        if (!isAction(node.discriminant)) return;
        const fallback = node.cases.find((c) => c.test === null);
        const source = fallback ? context.sourceCode.getText(fallback) : '';
        if (!/\bunreachableAction\(/.test(source)) context.report({ node, messageId: 'switch' });
      },
    };
  },
};

const NUMBERS_MODULE = 'src-shared/numbers';

/** Units a byte count is scaled into. */
const SCALED_BYTES = /^\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\b/;

/** Whether `node` divides (or shifts) anywhere inside: a byte count scaled right where it is written. */
function divides(node) {
  if (node === null || typeof node !== 'object') return false;
  if (node.type === 'BinaryExpression' && (node.operator === '/' || node.operator === '>>' || node.operator === '>>>')) return true;
  return Object.entries(node).some(([key, value]) => key !== 'parent' && (Array.isArray(value) ? value.some(divides) : value?.type !== undefined && divides(value)));
}

/**
 * Numbers are written by src-shared/numbers, so that a figure reads the same on every screen, in the
 * CLI and in every file: no `toLocaleString` or `toFixed` (a date's `toLocaleString` aside: it writes
 * a time in the user's own locale, not a number), no dollar sign glued to a number (`$${n}`,
 * `'$' + n`, `{n}` after a `$` in Svelte markup) and no byte count divided by hand and followed by
 * KB, MB, GB or TB (`${bytes / 1024} KB`). A figure already in GB (a price's unit) may say so.
 */
const numberFormat = {
  meta: {
    type: 'problem',
    docs: { description: `Write numbers, dollars and sizes with ${NUMBERS_MODULE}` },
    messages: {
      call: `Write numbers with ${NUMBERS_MODULE} (formatNumber, formatCount, formatFixed, roundTo, …), not {{name}}: one formatter reads the same everywhere.`,
      dollar: `Write dollars with ${NUMBERS_MODULE} (formatUsd, formatUsdExact, formatSignedUsd), not a "$" glued to a number.`,
      bytes: `Write sizes with ${NUMBERS_MODULE} (formatBytes, formatBytesBrief, formatBytesIn), not a byte count divided by hand.`,
    },
    schema: [],
  },
  create(context) {
    const isDate = (node) => node?.type === 'NewExpression' && node.callee.type === 'Identifier' && node.callee.name === 'Date';
    const isMustache = (node) => node?.type === 'SvelteMustacheTag';
    return {
      CallExpression(node) {
        const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        const name = callee.property.name;
        if (name === 'toFixed' || (name === 'toLocaleString' && !isDate(callee.object))) context.report({ node, messageId: 'call', data: { name } });
      },
      TemplateLiteral(node) {
        node.expressions.forEach((_, i) => {
          if ((node.quasis[i].value.cooked ?? '').endsWith('$')) context.report({ node: node.quasis[i], messageId: 'dollar' });
          if (SCALED_BYTES.test(node.quasis[i + 1].value.cooked ?? '') && divides(node.expressions[i])) context.report({ node: node.quasis[i + 1], messageId: 'bytes' });
        });
      },
      BinaryExpression(node) {
        if (node.operator === '+' && node.left.type === 'Literal' && typeof node.left.value === 'string' && node.left.value.endsWith('$')) context.report({ node, messageId: 'dollar' });
      },
      SvelteText(node) {
        const siblings = node.parent?.children ?? [];
        const i = siblings.indexOf(node);
        if (node.value.endsWith('$') && isMustache(siblings[i + 1])) context.report({ node, messageId: 'dollar' });
        if (SCALED_BYTES.test(node.value) && isMustache(siblings[i - 1]) && divides(siblings[i - 1].expression)) context.report({ node, messageId: 'bytes' });
      },
    };
  },
};

/** The sample generator's machinery: its random streams, samplers, columns and value pools. */
const GENERATOR_FILES = /(^|\/)sample\/(random|column|columns|column-kinds|key-hash)\.ts$/;
const GENERATOR_NAMES = new Set([
  'Random', 'mix32', 'hash2', 'deriveSeed', 'normalizeSeed',
  'createAliasSampler', 'createZipfSampler', 'createHotKeySampler', 'createTodaySampler', 'createRankSampler',
  'Column', 'createColumn', 'createRankColumn',
  'FIRST_NAMES', 'LAST_NAMES', 'PRODUCTS', 'CATEGORIES', 'STATUSES', 'COUNTRIES', 'CITIES', 'CURRENCIES', 'CATEGORICAL_POOLS',
]);
/** Modules through which that machinery can be reached: the sample module and the model's value heuristics. */
const GENERATOR_HOMES = /(^|\/)(sample(\/[a-z-]+\.ts)?|model\/value-heuristics\.ts|model\/index\.ts|model)$/;

/**
 * Attribute values are generated in one place, src-shared/sample (its columns over the value model
 * of model/value-model.ts): key previews, sample data, the exports' items and the simulator's key
 * space all read them from there (`createSampleStore`, `previewItems`, `previewSamples`,
 * `rankedValuesOf`). Elsewhere, nothing imports the generator's random streams, samplers, columns or
 * value pools, which is what a second generator would start from.
 */
const valueGeneration = {
  meta: {
    type: 'problem',
    docs: { description: 'Generate attribute values only in src-shared/sample' },
    messages: {
      file: 'Generate attribute values only in src-shared/sample: read them through its API (createSampleStore, previewItems, previewSamples, rankedValuesOf), not {{source}}.',
      name: 'Generate attribute values only in src-shared/sample: {{name}} is its generator\'s own; read values through its API (createSampleStore, previewItems, previewSamples, rankedValuesOf).',
    },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      if (GENERATOR_FILES.test(source)) {
        context.report({ node, messageId: 'file', data: { source } });
        return;
      }
      if (!GENERATOR_HOMES.test(source)) return;
      for (const s of node.specifiers ?? []) {
        const name = s.type === 'ImportSpecifier' ? (s.imported.name ?? s.imported.value) : s.type === 'ExportSpecifier' ? (s.local.name ?? s.local.value) : undefined;
        if (name !== undefined && GENERATOR_NAMES.has(name)) context.report({ node: s, messageId: 'name', data: { name } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

/**
 * src-shared's modules, from the ground floor up. A module imports only modules on floors below its
 * own: never a neighbour on its floor, never one above (so no import runs back down the ladder and
 * no two modules import each other). Error codes are declared by the module that raises them and
 * unioned at the top, in `ipc/error-codes.ts`.
 */
export const LADDER = [
  ['errors.ts', 'text', 'numbers', 'hash'],
  ['model'],
  ['workload-stats'],
  ['planner', 'capacity'],
  ['costing'],
  ['sample'],
  ['partition'],
  ['formats', 'run', 'compare', 'solver'],
  ['ipc'],
];
const FLOOR = new Map(LADDER.flatMap((floor, i) => floor.map((name) => [name, i])));

/**
 * The files of a module that another module, src-main or src-renderer may import: its `index.ts`
 * (a top-level file such as `errors.ts` is its own entry). `ipc/host.ts` is the host's second entry
 * (what the renderer may not load); the sandboxed preload imports `ipc/contract.ts` alone, since it
 * can require no package.
 */
const EXTRA_ENTRIES = new Map([
  ['src-shared/ipc/host.ts', () => true],
  ['src-shared/ipc/contract.ts', (from) => from === 'src-main/preload.ts'],
]);

/** The src-shared module a repository-relative path belongs to (`model`, `errors.ts`), or undefined. */
const moduleOf = (path) => {
  const parts = path.split('/');
  return parts[0] === 'src-shared' && parts.length >= 2 ? parts[1] : undefined;
};

const isEntry = (target, from) => {
  const name = moduleOf(target);
  if (target === `src-shared/${name}` && name.endsWith('.ts')) return true;
  if (target === `src-shared/${name}/index.ts`) return true;
  return EXTRA_ENTRIES.get(target)?.(from) ?? false;
};

const floorText = (name) => (FLOOR.has(name) ? `floor ${FLOOR.get(name)}` : 'on no floor');

/**
 * src-shared's ladder and its modules' front doors: a module imports only modules below it
 * (`LADDER`), and anything outside a module imports it through its `index.ts`, types included.
 */
const layers = {
  meta: {
    type: 'problem',
    docs: { description: "Keep src-shared's module ladder and import each module through its index.ts" },
    messages: {
      upward: 'src-shared/{{from}} ({{fromFloor}}) imports src-shared/{{to}} ({{toFloor}}): a module imports only modules on floors below its own (the ladder, LADDER in scripts/lint-rules.mjs), so no import runs back down and no two modules import each other.',
      unknown: 'src-shared/{{name}} is on no floor of the ladder: add it to LADDER in scripts/lint-rules.mjs.',
      entry: "Import {{target}} through src-shared/{{name}}/index.ts (ipc: index.ts, or host.ts on the host): another module, src-main and src-renderer use a module's index only, so its inner files can move.",
    },
    schema: [],
  },
  create(context) {
    const from = relative(context.cwd, context.filename).split('\\').join('/');
    const fromModule = moduleOf(from);
    const isTest = /\.test\.ts$/.test(from);
    /** Tests, e2e and benchmarks may read a module's fixtures, which no index exports. */
    const readsFixtures = isTest || /^(e2e|tests|bench)\//.test(from);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = posix.normalize(posix.join(posix.dirname(from), source.replace(/\?.*$/, '')));
      const toModule = moduleOf(target);
      if (toModule === undefined || toModule === fromModule) return;
      if (!FLOOR.has(toModule)) return context.report({ node, messageId: 'unknown', data: { name: toModule } });
      if (fromModule !== undefined && !isTest) {
        if (!FLOOR.has(fromModule)) return context.report({ node, messageId: 'unknown', data: { name: fromModule } });
        if (FLOOR.get(toModule) >= FLOOR.get(fromModule)) {
          context.report({ node, messageId: 'upward', data: { from: fromModule, fromFloor: floorText(fromModule), to: toModule, toFloor: floorText(toModule) } });
        }
      }
      if (readsFixtures && target.includes('/__fixtures__/')) return;
      if (!isEntry(target, from)) context.report({ node, messageId: 'entry', data: { target, name: toModule } });
    };
    const literal = (node) => (node?.type === 'Literal' ? node.value : undefined);
    return {
      ImportDeclaration: (node) => check(node, literal(node.source)),
      ExportNamedDeclaration: (node) => check(node, literal(node.source)),
      ExportAllDeclaration: (node) => check(node, literal(node.source)),
      ImportExpression: (node) => check(node, literal(node.source)),
      TSImportType: (node) => check(node, literal(node.source ?? node.argument?.literal)),
    };
  },
};

export default { meta: { name: 'keyplan' }, rules: { 'pattern-kinds': patternKinds, 'number-format': numberFormat, 'value-generation': valueGeneration, layers } };
