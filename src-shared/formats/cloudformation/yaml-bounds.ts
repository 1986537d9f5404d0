/**
 * The bounds a YAML template is held to before it is built into values, each found in one pass
 * without recursion: how deep its collections nest (from the lexer's tokens, then the concrete
 * syntax tree), how many values its aliases add, and where a map repeats a key. The limits and
 * why they are what they are: docs/limits.md.
 */
import { isAlias, isCollection, isMap, isNode, isPair, isScalar, Lexer, type CST, type Document, type Node } from 'yaml';
import { MAX_IMPORT_DEPTH } from '../common/bounds.ts';

/**
 * How many values YAML aliases may add to a template, beyond the values its text writes: as many as
 * the text writes (so aliases at most double it), and at least this many for a small one. The yaml
 * package's alias count alone lets 99 aliases each repeat a 1,000-index block: 171 KB of text that
 * the importer then read as 99,000 indexes (21.7 s, 304 MB).
 */
export const MIN_ALIAS_VALUES = 10_000;
/**
 * How deep YAML collections may nest. The yaml package builds nested collections by recursion; a text
 * nested hundreds deep exhausts the stack, and V8 can even abort the process when that happens while
 * it compiles a regular expression. A template nests a dozen levels at most.
 */
export const MAX_YAML_DEPTH = MAX_IMPORT_DEPTH;

/** A node's children, in document order: a collection's items, a pair's key and value. */
function childrenOf(node: unknown): unknown[] {
  if (isCollection(node)) return node.items;
  if (isPair(node)) return [node.key, node.value];
  return [];
}

/**
 * How many values `doc`'s aliases add to it, counted on the document before anything expands them
 * (each anchored node's size is worked out once, so the count costs one pass however large the
 * expansion): undefined when they add at most as many values as the text writes (or
 * `MIN_ALIAS_VALUES`), else the counts and the offset of the alias that goes past. An alias resolves
 * as the yaml package resolves it: to the last node before it with that anchor. An alias inside the
 * node it names (a cycle) adds nothing: it becomes a reference to that value, not a copy.
 */
export function aliasExpansion(doc: Document): { added: number; written: number; allowed: number; offset: number } | undefined {
  const sizes = new Map<Node, number>();
  const anchors = new Map<string, Node>();
  const aliases: Array<[offset: number, addedSoFar: number]> = [];
  let written = 0;
  let added = 0;
  // Post-order without recursion: an entry is entered (its children pushed), then left (its size summed).
  const stack: Array<{ node: unknown; sum: number; isLeft: boolean; parent: { sum: number } | undefined }> = [{ node: doc.contents, sum: 0, isLeft: false, parent: undefined }];
  while (stack.length > 0) {
    const entry = stack[stack.length - 1]!;
    const { node } = entry;
    if (entry.isLeft) {
      stack.pop();
      const size = (isPair(node) ? 0 : 1) + entry.sum;
      if (isNode(node) && node.anchor) sizes.set(node, size);
      if (entry.parent) entry.parent.sum += size;
      continue;
    }
    entry.isLeft = true;
    if (node === null || node === undefined) {
      entry.sum = -1;
      continue;
    }
    if (!isPair(node)) written += 1;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const size = target === undefined ? undefined : sizes.get(target);
      // Unresolved (toJS reports it) or a cycle: the alias stands for one value.
      if (size !== undefined && size > 1) {
        added += size - 1;
        aliases.push([node.range?.[0] ?? 0, added]);
        entry.sum = size - 1;
      }
      continue;
    }
    if (isNode(node) && node.anchor) anchors.set(node.anchor, node);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ node: children[i], sum: 0, isLeft: false, parent: entry });
  }
  const allowed = Math.max(written, MIN_ALIAS_VALUES);
  if (added <= allowed) return undefined;
  const offset = aliases.find(([, sum]) => sum > allowed)?.[0] ?? 0;
  return { added, written, allowed, offset };
}

/** Lexer tokens that mark a place in the text without being part of it (the yaml package's CST): doc mode, flow error end, scalar. */
const CONTROL_TOKENS = new Set(['\x02', '\x18', '\x1f']);

/**
 * The offset where a YAML text's tokens alone show it nested deeper than `MAX_YAML_DEPTH`, or
 * undefined: flow collections open inside each other (`[[[…`, `{a: {a: …`), or block sequences and
 * explicit keys opened in a row on one line (`- - - …`). Read from the lexer's stream of tokens and
 * stopped there, so such a text costs the bytes up to that point, not the parser's tree: before this
 * check, 512 KB of `[` cost 2.7 s and 290 MB. Deeper nesting that takes lines of its own costs a
 * line per level, and `yamlDepth` measures it.
 */
export function deepTokenOffset(text: string): number | undefined {
  let offset = 0;
  let flow = 0;
  let compact = 0;
  for (const token of new Lexer().lex(text)) {
    if (CONTROL_TOKENS.has(token)) continue;
    if (token === '[' || token === '{') flow += 1;
    else if ((token === ']' || token === '}') && flow > 0) flow -= 1;
    if (token === '-' || token === '?') compact += 1;
    else if (token[0] !== ' ') compact = 0;
    if (flow > MAX_YAML_DEPTH || compact > MAX_YAML_DEPTH) return offset;
    offset += token.length;
  }
  return undefined;
}

/**
 * The deepest nesting of collections in a YAML text, and where it first goes past `MAX_YAML_DEPTH`,
 * found without recursion from the yaml package's concrete syntax tree.
 */
export function yamlDepth(tokens: readonly CST.Token[]): { depth: number; offset: number } {
  let depth = 0;
  let offset = Infinity;
  for (const token of tokens) {
    const stack: Array<[CST.Token | null | undefined, number]> = [[token, 0]];
    while (stack.length > 0) {
      const [t, d] = stack.pop()!;
      if (!t) continue;
      depth = Math.max(depth, d);
      if (d > MAX_YAML_DEPTH) {
        offset = Math.min(offset, t.offset);
        continue;
      }
      if (t.type === 'document') stack.push([t.value, d]);
      else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
        for (const item of t.items) stack.push(['key' in item ? item.key : undefined, d + 1], [item.value, d + 1]);
      }
    }
  }
  return { depth, offset: Number.isFinite(offset) ? offset : 0 };
}

/**
 * The offset of the first key that repeats an earlier key of its map, or undefined: keys are equal as
 * the yaml package's `uniqueKeys` compares them (the same node, or scalars of equal value), found
 * with a set per map, so a map of n keys costs n, not n².
 */
export function duplicateKeyOffset(doc: Document): number | undefined {
  let first: number | undefined;
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key: unknown = isScalar(pair.key) ? pair.key.value : pair.key;
        const offset = isNode(pair.key) ? pair.key.range?.[0] : undefined;
        if (seen.has(key) && offset !== undefined) first = first === undefined ? offset : Math.min(first, offset);
        seen.add(key);
      }
    }
    for (const child of childrenOf(node)) stack.push(child);
  }
  return first;
}

