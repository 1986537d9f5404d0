/**
 * The CLI's usage text and README's "Command line" section name the same commands, with the same
 * options: `keyplan --help` is built from the command registry (src-main/cli.ts), and README lists
 * one example line and one bullet per command. A command added, removed or given a new option in
 * one place and not the other fails here.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../src-main/cli.ts';

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('\n## Command line'), readme.indexOf('\n## ', readme.indexOf('\n## Command line') + 1));

async function usage(args: string[]): Promise<string> {
  let out = '';
  const code = await main(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, cwd: root });
  expect(code).toBe(0);
  return out;
}

/** The commands of `keyplan --help`, each with its synopsis, in the help's order. */
async function helpCommands(): Promise<Map<string, string>> {
  const help = await usage(['--help']);
  const block = help.slice(help.indexOf('Commands:\n'), help.indexOf('\n\n', help.indexOf('Commands:\n')));
  const synopses = [...block.matchAll(/^ {2}(keyplan (\S+).*?)(?: {2,}|$)/gm)].filter((m) => m[2] !== 'help');
  return new Map(synopses.map((m) => [m[2]!, m[1]!.trim()]));
}

/** README's bullets, `- **\`keyplan NAME …\`**`, by command name. */
const readmeBullets = new Map([...section.matchAll(/^- \*\*`(keyplan (\S+)[^`]*)`\*\*/gm)].map((m) => [m[2]!, m[1]!]));
/** README's examples, `npx keyplan NAME …`. */
const readmeExamples = new Set([...section.matchAll(/^npx keyplan ([a-z]+)\b/gm)].map((m) => m[1]!));

describe("the CLI's usage text and README's command list", () => {
  test('name the same commands', async () => {
    const commands = [...(await helpCommands()).keys()];
    expect(commands).toContain('sample');
    expect(commands).toContain('solve');
    expect([...readmeBullets.keys()].sort()).toEqual([...commands].sort());
    expect([...readmeExamples].sort()).toEqual([...commands].sort());
  });

  test("README's bullet for each command names every option of its synopsis", async () => {
    for (const [name, synopsis] of await helpCommands()) {
      const options = synopsis.match(/--[a-z-]+/g) ?? [];
      const bullet = readmeBullets.get(name) ?? '';
      const missing = options.filter((o) => !new RegExp(`${o}\\b`).test(bullet));
      expect(missing, `README's "keyplan ${name}" bullet lacks options of: ${synopsis}`).toEqual([]);
    }
  });
});
