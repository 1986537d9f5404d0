import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CONTENT_SECURITY_POLICY } from './csp.ts';

const root = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(resolve(root, path), 'utf8');

/** The content of index.html's `<meta http-equiv="Content-Security-Policy">`, attributes in any order. */
function metaPolicy(html: string): string[] {
  const tags = html.match(/<meta\b[^>]*>/gis) ?? [];
  return tags
    .filter((tag) => /http-equiv\s*=\s*"Content-Security-Policy"/i.test(tag))
    .map((tag) => /\bcontent\s*=\s*"([^"]*)"/i.exec(tag)?.[1] ?? '');
}

const directives = (policy: string) => policy.split(';').map((d) => d.trim()).filter(Boolean);

describe('the Content-Security-Policy', () => {
  test('is one string literal in csp.ts, readable by a scanner without running the code', () => {
    const literal = /export const CONTENT_SECURITY_POLICY =\s*"([^"\\]*)";/.exec(read('src-main/csp.ts'));
    expect(literal?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });

  test("equals index.html's meta tag, plus frame-ancestors (which only works as a header)", () => {
    const metas = metaPolicy(read('src-renderer/index.html'));
    expect(metas).toHaveLength(1);
    expect(`${metas[0]}; frame-ancestors 'none'`).toBe(CONTENT_SECURITY_POLICY);
  });

  test('names each directive once, allows no eval, no wildcard source and no remote origin', () => {
    const parsed = directives(CONTENT_SECURITY_POLICY).map((d) => d.split(/\s+/));
    const names = parsed.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    const sources = parsed.flatMap(([, ...values]) => values);
    expect(sources).not.toContain("'unsafe-eval'");
    expect(sources).not.toContain('*');
    expect(sources.filter((s) => /^(https?|wss?):/.test(s))).toEqual(['ws://127.0.0.1:*']);
    expect(directives(CONTENT_SECURITY_POLICY)).toEqual(expect.arrayContaining(["script-src 'self'", "object-src 'none'", "base-uri 'none'"]));
  });
});
