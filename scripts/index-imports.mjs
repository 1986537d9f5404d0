/**
 * Codemod: every import of a src-shared module from outside it goes through the module's index.ts
 * (the `keyplan/layers` lint rule). It rewrites `from '…/src-shared/model/schema.ts'` to
 * `from '…/src-shared/model/index.ts'` in src-shared, src-main, src-renderer, e2e, tests and bench
 * (imports, `export … from`, `import('…')` types), merges the imports that then name the same index,
 * and adds to each index.ts the names it did not yet export. It asks the type checker whether the
 * index's name is the inner file's: a name the index exports for something else, a namespace import
 * or a dynamic import is listed for a person to settle, and left as it is. An import of an entry
 * longer than 120 characters gets one name a line.
 *
 *   node scripts/index-imports.mjs          rewrite (then run the lint and the type checks)
 *   node scripts/index-imports.mjs --dry    list what it would do, write nothing
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const dry = process.argv.includes('--dry');
const DIRS = ['src-shared', 'src-main', 'src-renderer', 'e2e', 'tests', 'bench'];
/** Host-side ipc files, reached through ipc/host.ts (the renderer may not load them). */
const HOST_FILES = new Set(['src-shared/ipc/dispatch.ts', 'src-shared/ipc/validate.ts', 'src-shared/ipc/memory.ts']);

const walk = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : walk(path);
    return /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
const files = DIRS.flatMap(walk);

const moduleOf = (path) => {
  const parts = path.split('/');
  return parts[0] === 'src-shared' && parts.length >= 3 ? parts[1] : undefined;
};

/** The file's entry for `target` (a src-shared inner file), or undefined if `target` is an entry already. */
function entryFor(target, from) {
  const name = moduleOf(target);
  if (name === undefined || target === `src-shared/${name}/index.ts` || target === 'src-shared/ipc/host.ts') return undefined;
  if (target === 'src-shared/ipc/contract.ts' && from === 'src-main/preload.ts') return undefined;
  if (target.includes('/__fixtures__/')) return undefined;
  return HOST_FILES.has(target) ? 'src-shared/ipc/host.ts' : `src-shared/${name}/index.ts`;
}

// The type checker over src-shared, to compare what an index exports with what the inner file does.
const program = ts.createProgram(
  files.filter((f) => f.startsWith('src-shared/') && f.endsWith('.ts')).map((f) => join(root, f)),
  { ...ts.getDefaultCompilerOptions(), target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, noEmit: true, strict: true },
);
const checker = program.getTypeChecker();
const exportsCache = new Map();
/** Name → resolved symbol of everything `path` (repository-relative) exports. */
function exportsOf(path) {
  if (exportsCache.has(path)) return exportsCache.get(path);
  const source = program.getSourceFile(join(root, path));
  const symbol = source && checker.getSymbolAtLocation(source);
  const map = new Map();
  for (const s of symbol ? checker.getExportsOfModule(symbol) : []) {
    map.set(s.escapedName, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  }
  exportsCache.set(path, map);
  return map;
}

/** entry → Map(inner file → Map(name → isType)) of the names to add to the entry. */
const additions = new Map();
const manual = [];
let rewritten = 0;

/** Whether `name` of `inner` is (or can be made) the same through `entry`; records an addition if needed. */
function throughEntry(name, inner, entry, where) {
  const innerSym = exportsOf(inner).get(name);
  if (innerSym === undefined) return manual.push(`${where}: ${inner} exports no ${name}`), false;
  const entrySym = exportsOf(entry).get(name);
  if (entrySym === innerSym) return true;
  const pending = [...(additions.get(entry)?.entries() ?? [])].find(([file, names]) => file !== inner && names.has(name));
  if (entrySym !== undefined || pending) return manual.push(`${where}: ${entry} exports another ${name} than ${inner}`), false;
  if (!additions.has(entry)) additions.set(entry, new Map());
  const byFile = additions.get(entry);
  if (!byFile.has(inner)) byFile.set(inner, new Map());
  byFile.get(inner).set(name, (innerSym.flags & ts.SymbolFlags.Value) === 0);
  return true;
}

const relativeSpecifier = (from, target) => {
  const r = posix.relative(posix.dirname(from), target);
  return r.startsWith('.') ? r : `./${r}`;
};

/** Edits ({ start, end, text }) for one script's text, `path` being the file it is in. */
function editsOf(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  const retarget = (literal, entry) => {
    const quote = text[literal.getStart(source)];
    edits.push({ start: literal.getStart(source), end: literal.getEnd(), text: `${quote}${relativeSpecifier(path, entry)}${quote}` });
    rewritten += 1;
  };
  const resolveLiteral = (literal) =>
    ts.isStringLiteral(literal) && literal.text.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), literal.text)) : undefined;
  const where = (node) => `${path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const imports = [];

  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const target = resolveLiteral(node.moduleSpecifier);
      const entry = target && entryFor(target, path);
      if (entry && moduleOf(target) !== moduleOf(path)) {
        let names;
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          names = clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
        } else {
          names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
        }
        if (names === undefined) manual.push(`${where(node)}: namespace, default or side-effect import of ${target}`);
        else if (names.every((s) => throughEntry((s.propertyName ?? s.name).text, target, entry, where(node)))) {
          retarget(node.moduleSpecifier, entry);
          if (ts.isImportDeclaration(node)) imports.push({ node, entry });
        }
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const target = resolveLiteral(node.argument.literal);
      const entry = target && entryFor(target, path);
      if (entry && moduleOf(target) !== moduleOf(path)) {
        let first = node.qualifier;
        while (first && ts.isQualifiedName(first)) first = first.left;
        if (first && throughEntry(first.text, target, entry, where(node))) retarget(node.argument.literal, entry);
        else if (!first) manual.push(`${where(node)}: import('${target}') type without a name`);
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const target = node.arguments[0] && resolveLiteral(node.arguments[0]);
      if (target && entryFor(target, path) && moduleOf(target) !== moduleOf(path)) manual.push(`${where(node)}: dynamic import of ${target}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  // Merge the named imports that now name the same entry, `import type` kept apart from value imports.
  const groups = new Map();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) continue;
    const target = resolveLiteral(statement.moduleSpecifier);
    const rewrittenTo = imports.find((i) => i.node === statement)?.entry;
    const key = `${rewrittenTo ?? target}\0${clause.isTypeOnly}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(statement);
  }
  for (const group of groups.values()) {
    if (group.length < 2 || !group.some((s) => imports.some((i) => i.node === s))) continue;
    const specifiers = [...new Set(group.flatMap((s) => s.importClause.namedBindings.elements.map((e) => e.getText(source))))];
    const [first, ...rest] = group;
    const bindings = first.importClause.namedBindings;
    edits.push({ start: bindings.getStart(source), end: bindings.getEnd(), text: `{ ${specifiers.join(', ')} }` });
    for (const s of rest) {
      const end = text[s.getEnd()] === '\n' ? s.getEnd() + 1 : s.getEnd();
      const lineStart = text.lastIndexOf('\n', s.getStart(source) - 1) + 1;
      const start = /^[ \t]*$/.test(text.slice(lineStart, s.getStart(source))) ? lineStart : s.getStart(source);
      edits.push({ start, end, text: '' });
    }
  }
  return edits;
}

/** Applies the edits; an edit inside a removed import (its specifier) goes with it. */
function apply(text, edits) {
  const removals = edits.filter((e) => e.text === '');
  const kept = edits.filter((e) => e.text === '' || !removals.some((r) => r.start <= e.start && e.end <= r.end));
  let out = '';
  let at = 0;
  for (const e of kept.sort((a, b) => a.start - b.start)) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** Lines longer than this that import a src-shared entry get one name a line, as the code writes long imports. */
const MAX_LINE = 120;

/** Edits that put each name of a long single-line import of a src-shared entry on its own line. */
function wrapsOf(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!/(^|\/)src-shared\/([a-z-]+\/(index|host)\.ts|errors\.ts)$|^(\.\.\/)+[a-z-]+\/(index|host)\.ts$/.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings) || statement.getText(source).includes('\n')) continue;
    const lineStart = text.lastIndexOf('\n', statement.getStart(source) - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))[0];
    if (statement.getEnd() - lineStart <= MAX_LINE) continue;
    const names = bindings.elements.map((e) => `${indent}  ${e.getText(source)},\n`).join('');
    edits.push({ start: bindings.getStart(source), end: bindings.getEnd(), text: `{\n${names}${indent}}` });
  }
  return edits;
}

const rewrite = (path, text) => {
  const once = apply(text, editsOf(path, text));
  return apply(once, wrapsOf(path, once));
};

const changed = new Map();
for (const path of files) {
  const text = readFileSync(join(root, path), 'utf8');
  let next;
  if (path.endsWith('.svelte')) {
    next = text.replace(/(<script\b[^>]*>)([\s\S]*?)(<\/script>)/g, (_m, open, body, close) => open + rewrite(path, body) + close);
  } else {
    next = rewrite(path, text);
  }
  if (next !== text) changed.set(path, next);
}

for (const [entry, byFile] of additions) {
  const lines = [];
  for (const [inner, names] of byFile) {
    const from = relativeSpecifier(entry, inner);
    const values = [...names].filter(([, isType]) => !isType).map(([n]) => n).sort();
    const types = [...names].filter(([, isType]) => isType).map(([n]) => n).sort();
    if (values.length > 0) lines.push(`export { ${values.join(', ')} } from '${from}';`);
    if (types.length > 0) lines.push(`export type { ${types.join(', ')} } from '${from}';`);
  }
  const text = changed.get(entry) ?? readFileSync(join(root, entry), 'utf8');
  changed.set(entry, `${text.replace(/\n*$/, '\n')}${lines.join('\n')}\n`);
  console.log(`${entry}: +${lines.length} export lines`);
}

console.log(`${rewritten} specifiers rewritten in ${changed.size} files`);
if (manual.length > 0) console.log(`For a person to settle (${manual.length}):\n  ${manual.join('\n  ')}`);
if (!dry) for (const [path, text] of changed) writeFileSync(join(root, path), text);
console.log(dry ? '(dry run: nothing written)' : 'written');
