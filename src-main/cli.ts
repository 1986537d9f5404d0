/**
 * The `keyplan` command line: headless checks over the same domain code as the app. The commands are
 * the COMMANDS registry below; README's "Command line" section describes each of them
 * (tests/cli-readme.test.ts keeps the two in step).
 *
 * `main` never throws and never exits the process: it writes to the streams it is given and returns
 * the exit code (bin/keyplan.mjs sets it). Errors are one line each on stderr, without stack traces.
 */
import packageJson from '../package.json' with { type: 'json' };
import { asksForHelp, parseCommandArgs } from './cli/args.ts';
import type { Command } from './cli/command.ts';
import { errorLine, EXIT, writeLines, type CliIo } from './cli/io.ts';

export { EXIT, type CliIo } from './cli/io.ts';

/**
 * Each command's module, by name in the order of the help, loaded when that command runs: a start
 * compiles one command's code, not every exporter, the simulator and the comparison besides.
 */
const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map([
  ['size', async () => (await import('./cli/size.ts')).sizeCommand],
  ['check', async () => (await import('./cli/check.ts')).checkCommand],
  ['cost', async () => (await import('./cli/cost.ts')).costCommand],
  ['export', async () => (await import('./cli/export.ts')).exportCommand],
  ['import', async () => (await import('./cli/import.ts')).importCommand],
  ['sample', async () => (await import('./cli/sample.ts')).sampleCommand],
  ['simulate', async () => (await import('./cli/simulate.ts')).simulateCommand],
  ['compare', async () => (await import('./cli/compare.ts')).compareCommand],
  ['solve', async () => (await import('./cli/solve.ts')).solveCommand],
  ['run', async () => (await import('./cli/run.ts')).runCommand],
]);

async function usage(): Promise<string> {
  const commands = await Promise.all([...COMMANDS.values()].map((load) => load()));
  const width = Math.max(...commands.map((c) => c.synopsis.length));
  return `Usage: keyplan <command> <file> [options]

Keyplan checks and prices DynamoDB single-table designs (*.keyplan.json) offline.

Commands:
${commands.map((c) => `  ${c.synopsis.padEnd(width)}  ${c.summary}`).join('\n')}
  ${'keyplan help [command]'.padEnd(width)}  this help, or a command's (also: keyplan <command> --help)

Options:
  --json      print JSON instead of text (shapes in "keyplan <command> --help")
  --explain   print how each number is derived (size, cost)
  --to, --out, --from, --items  formats and files of export and import ("keyplan export --help")
  --seed N    the seed of a simulation (simulate) or of exported sample items (export)
  --markdown, --fail-if-costlier PCT, --no-simulate  compare's report and CI guard ("keyplan compare --help")
  --endpoint URL, --region R, --profile P, --yes, --repeat K  run's engine and calls ("keyplan run --help")
  -h, --help  print help
  --version   print the version

Exit codes:
  0  done, and the input passed
  1  the input has problems: a file that cannot be read, is not JSON or not a Keyplan design;
     design problems or unserved access patterns (check); an invalid or oversized item (size);
     a design with problems (export); a file that is not an importable model (import); an
     output file that cannot be written; a later design that is worse (compare --fail-if-costlier);
     a pattern measured off its prediction beyond a known cause, or failed (run)
  2  usage error: unknown command or option, a missing or extra argument

Errors go to stderr, one line each. Examples:
  keyplan check examples/ecommerce.keyplan.json
  keyplan cost examples/ecommerce.keyplan.json --json
  keyplan size item.json
  keyplan export examples/ecommerce.keyplan.json --to cloudformation --out template.yaml
  keyplan import model.json --from nosql-workbench --out model.keyplan.json
  keyplan run examples/ecommerce.keyplan.json --items 5 --json`;
}

// Imported rather than read beside this file: the bundle in out/cli is built in with it.
function version(): string {
  return `keyplan ${(packageJson as { version?: string }).version ?? 'unknown'}`;
}

const findCommand = async (name: string): Promise<Command | undefined> => COMMANDS.get(name)?.();

function unknownCommand(name: string, io: CliIo): number {
  const names = `${[...COMMANDS.keys()].join(', ')} or help`;
  const message = name.startsWith('-') ? `unknown option "${name}"; expected a command first: ${names}` : `unknown command "${name}"; expected ${names}`;
  writeLines(io.stderr, [errorLine(`${message} (see "keyplan --help").`)]);
  return EXIT.usage;
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    writeLines(io.stderr, [await usage()]);
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h') {
    writeLines(io.stdout, [await usage()]);
    return EXIT.ok;
  }
  if (name === '--version') {
    writeLines(io.stdout, [version()]);
    return EXIT.ok;
  }
  if (name === 'help') {
    const [topic, ...extra] = rest.filter((a) => a !== '--help' && a !== '-h');
    if (extra.length > 0) {
      writeLines(io.stderr, [errorLine(`"keyplan help" takes at most one command, got ${rest.length}.`)]);
      return EXIT.usage;
    }
    if (topic === undefined) {
      writeLines(io.stdout, [await usage()]);
      return EXIT.ok;
    }
    const command = await findCommand(topic);
    if (!command) return unknownCommand(topic, io);
    writeLines(io.stdout, [command.help]);
    return EXIT.ok;
  }
  const command = await findCommand(name);
  if (!command) return unknownCommand(name, io);
  if (asksForHelp(rest)) {
    writeLines(io.stdout, [command.help]);
    return EXIT.ok;
  }
  const parsed = parseCommandArgs(command.name, rest, command.flags, command.fileName, command.options, command.fileCount);
  if (!parsed.ok) {
    writeLines(io.stderr, parsed.errors.map(errorLine));
    return EXIT.usage;
  }
  return command.run(parsed.value, io);
}

/** Runs `keyplan` with `args` (without the node and script paths); returns the exit code. */
export async function main(args: string[], io: CliIo): Promise<number> {
  try {
    return await run(args, io);
  } catch (error) {
    // Anything reaching here is a bug, not bad input: still one line, no stack trace.
    const message = error instanceof Error ? error.message : String(error);
    writeLines(io.stderr, [errorLine(`internal error: ${message.split('\n')[0]} (please report this).`)]);
    return EXIT.problems;
  }
}
