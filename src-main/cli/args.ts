/**
 * The command line of one command: exactly one file argument, the flags it accepts and the options
 * that take a value (`--to terraform` or `--to=terraform`), or a usage error naming what was wrong.
 * `--` ends the options (for a file named like a flag).
 */
import { fail, ok, type Result } from '../../src-shared/errors.ts';

export interface CommandArgs {
  /** The (first) file argument as typed (relative paths are resolved later, against the cwd); '' when none (a command whose `min` is 0). */
  file: string;
  /** Every file argument, in order (one, unless the command takes several: `keyplan compare`). */
  files: readonly string[];
  flags: ReadonlySet<string>;
  /** Options that take a value, by name (`--out` → `"table.yaml"`); each at most once. */
  options: ReadonlyMap<string, string>;
}

/** How many file arguments a command takes (`max` absent: no limit). */
export interface FileCount {
  min: number;
  max?: number;
}

/** `--help` or `-h` anywhere before `--`. */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * Splits `args` (what follows the command name) into the file and the flags. Errors are one
 * sentence each, without the `keyplan:` prefix.
 */
export function parseCommandArgs(
  command: string,
  args: readonly string[],
  allowed: readonly string[],
  fileName: string,
  valued: readonly string[] = [],
  fileCount: FileCount = { min: 1, max: 1 },
): Result<CommandArgs, string> {
  const flags = new Set<string>();
  const options = new Map<string, string>();
  const files: string[] = [];
  let isOptionsEnd = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!isOptionsEnd && arg === '--') {
      isOptionsEnd = true;
    } else if (!isOptionsEnd && arg.startsWith('-') && arg !== '-') {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (valued.includes(name)) {
        const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
        if (value === undefined || value === '') {
          return fail([`option "${name}" of "keyplan ${command}" needs a value (see "keyplan ${command} --help").`]);
        }
        if (options.has(name)) return fail([`option "${name}" of "keyplan ${command}" is given twice; expected it once.`]);
        options.set(name, value);
        continue;
      }
      if (!allowed.includes(arg)) {
        const all = [...allowed, ...valued];
        const known = all.length === 0 ? 'it takes no options' : `it takes ${all.join(', ')}`;
        return fail([`unknown option "${arg}" for "keyplan ${command}"; ${known} (see "keyplan ${command} --help").`]);
      }
      flags.add(arg);
    } else {
      files.push(arg);
    }
  }
  const [file] = files;
  if (files.length < fileCount.min || (file === undefined && fileCount.min > 0)) {
    const usage = [...valued.map((o) => `[${o} …]`), ...allowed.map((f) => `[${f}]`)].join(' ');
    const got = fileCount.min > 1 && files.length > 0 ? ` (got ${files.length})` : '';
    return fail([`"keyplan ${command}" needs ${fileName}${got}; usage: keyplan ${command} ${fileName} ${usage}`.trimEnd()]);
  }
  if (fileCount.max !== undefined && files.length > fileCount.max) {
    const takes = fileCount.max === 1 ? 'one file' : `at most ${fileCount.max} files`;
    return fail([`"keyplan ${command}" takes ${takes}, got ${files.length}: ${files.map((f) => JSON.stringify(f)).join(', ')}.`]);
  }
  return ok({ file: file ?? '', files, flags, options });
}
