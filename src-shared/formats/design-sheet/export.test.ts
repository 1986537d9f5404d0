/**
 * The design sheet's Markdown and HTML as a reader's tools read them: Markdown through a GFM parser
 * (marked, the one Monaco ships), HTML through the WHATWG parser (parse5), with user text that tries
 * to break out of a table cell or into markup.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { marked, type Tokens } from 'marked';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/index.ts';
import { toDesignSheetHtml } from './html.ts';
import { markdownCode, markdownText, toDesignSheetMarkdown } from './markdown.ts';

const root = resolve(import.meta.dirname, '../../..');
const example = (): Design => JSON.parse(readFileSync(resolve(root, 'examples/ecommerce.keyplan.json'), 'utf8')) as Design;

const SCRIPT_NAME = '<script>alert("entity")</script> | User';
const PATTERN_NAME = 'Get `user` | profile *now* <img src=x onerror=alert(1)>';

/** The example with user text a renderer must not take as markup: pipes, backticks, tags. */
function hostile(): Design {
  const design = example();
  const table = design.tables[0]!;
  return {
    ...design,
    name: 'Shop </title><script>alert(1)</script>',
    description: '1. <b>bold</b> & | pipes',
    tables: [
      {
        ...table,
        entities: table.entities.map((e) =>
          e.name === 'User' ? { ...e, name: SCRIPT_NAME, keys: { ...e.keys, PK: { template: 'USER|{userId}' }, SK: { template: 'A``B' } } } : e,
        ),
        accessPatterns: table.accessPatterns.map((p, i) => (i === 0 ? { ...p, name: PATTERN_NAME } : p)),
      },
    ],
  };
}

describe('the design sheet in Markdown', () => {
  it('keeps a pipe in a template inside its table cell, as code', () => {
    const tokens = marked.lexer(toDesignSheetMarkdown(hostile()));
    const tables = tokens.filter((t): t is Tokens.Table => t.type === 'table');
    expect(tables.length).toBeGreaterThanOrEqual(4);
    for (const table of tables) for (const row of table.rows) expect(row).toHaveLength(table.header.length);
    const entityChart = tables.find((t) => t.header[0]!.text === 'Entity')!;
    const user = entityChart.rows.find((r) => r[0]!.text.includes('alert'))!;
    const html = marked.parse(toDesignSheetMarkdown(hostile())) as string;
    expect(user).toHaveLength(7);
    expect(html).toContain('<code>USER|{userId}</code>');
    expect(html).toContain('<code>A``B</code>');
  });

  it('shows tags and Markdown punctuation in names as text', () => {
    const html = marked.parse(toDesignSheetMarkdown(hostile())) as string;
    expect(html).not.toMatch(/<script|<img|<b>|<em>/);
    expect(html).toContain('&lt;script&gt;alert(&quot;entity&quot;)&lt;/script&gt; | User');
    expect(html).toContain('Get `user` | profile *now* &lt;img src=x onerror=alert(1)&gt;');
    // A description starting "1." is a paragraph, not a list.
    expect(html).toContain('<p>1. &lt;b&gt;bold&lt;/b&gt; &amp; | pipes</p>');
  });

  it('says a pattern written before its entity needs a key design, with why, and shows no figures for it', () => {
    const design = example();
    const table = design.tables[0]!;
    table.accessPatterns.push({ id: 'p-first', name: 'List returns', action: 'query', known: ['orderId'], ratePerSecond: 5, consistency: 'eventual' });
    const markdown = toDesignSheetMarkdown(design);
    expect(markdown).toContain('| 12 | List returns — no entity yet · query · 5/s · eventual | needs a key design | — | — | — | — | — |');
    expect(markdown).toMatch(/^- 12\. List returns: Not costed, it needs a key design: No entity yet/m);
    const body = textOf(elements(parse(toDesignSheetHtml(design))).find((e) => e.tagName === 'body')!);
    expect(body).toContain('needs a key designNo entity yet');
  });

  it.each([
    ['a|b', '`a\\|b`'],
    ['a`b', '``a`b``'],
    ['`edge`', '`` `edge` ``'],
    ['two\nlines', '`two lines`'],
    ['', '(empty)'],
  ])('writes %j as the table code span %s', (text, expected) => {
    expect(markdownCode(text)).toBe(expected);
  });

  it('escapes Markdown punctuation in plain text, but not an underscore inside a word', () => {
    expect(markdownText('_a_ *c* [d](e) <f> #1 & g|h')).toBe('\\_a\\_ \\*c\\* \\[d\\](e) \\<f\\> \\#1 \\& g\\|h');
    expect(markdownText('NEW_AND_OLD_IMAGES')).toBe('NEW_AND_OLD_IMAGES');
    expect(marked.parseInline(markdownText('snake_case_name and _emphasis_?'))).toBe('snake_case_name and _emphasis_?');
  });
});

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

function elements(node: Node): Element[] {
  const children = 'childNodes' in node ? node.childNodes : [];
  const own = 'tagName' in node ? [node as Element] : [];
  return [...own, ...children.flatMap((c) => elements(c as Node))];
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? node.childNodes.map((c) => textOf(c as Node)).join('') : '';
}

describe('the design sheet as a standalone HTML page', () => {
  const errorsOf = (html: string): string[] => {
    const errors: string[] = [];
    parse(html, { onParseError: (e) => errors.push(`${e.code} at ${e.startLine}:${e.startCol}`) });
    return errors;
  };

  it('parses without an error', () => {
    expect(errorsOf(toDesignSheetHtml(example()))).toEqual([]);
    expect(errorsOf(toDesignSheetHtml(hostile()))).toEqual([]);
  });

  it('has no script, no event handler and nothing fetched: one self-contained file', () => {
    const all = elements(parse(toDesignSheetHtml(hostile())));
    const tags = new Set(all.map((e) => e.tagName));
    expect(tags.has('script')).toBe(false);
    expect(tags.has('img')).toBe(false);
    expect([...tags].filter((t) => ['link', 'iframe', 'object', 'embed', 'img'].includes(t))).toEqual([]);
    expect(all.flatMap((e) => e.attrs.map((a) => a.name)).filter((name) => name.startsWith('on') || name === 'src' || name === 'style')).toEqual([]);
    expect(all.filter((e) => e.tagName === 'style')).toHaveLength(1);
    // Links go to the AWS pages the numbers cite, or to the page's own list of sources.
    const hrefs = all.flatMap((e) => e.attrs.filter((a) => a.name === 'href').map((a) => a.value));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^(https:\/\/(docs\.)?aws\.amazon\.com\/|#source-\d+$)/);
  });

  it("shows the user's text as text, tags and all", () => {
    const document = parse(toDesignSheetHtml(hostile()));
    const all = elements(document);
    expect(textOf(all.find((e) => e.tagName === 'title')!)).toBe('Design sheet: Shop </title><script>alert(1)</script>');
    const body = textOf(all.find((e) => e.tagName === 'body')!);
    expect(body).toContain(SCRIPT_NAME);
    expect(body).toContain(PATTERN_NAME);
    expect(body).toContain('USER|{userId}');
    expect(body).toContain('1. <b>bold</b> & | pipes');
  });

  it('prints with the table headers repeated on each page and rows kept whole', () => {
    const html = toDesignSheetHtml(example());
    expect(html).toMatch(/@media print \{[\s\S]*thead \{ display: table-header-group; \}/);
    expect(html).toMatch(/tr, dl\.settings, \.derivation \{ break-inside: avoid; \}/);
  });
});
