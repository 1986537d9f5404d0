/**
 * The command line of one command: exactly one file argument and the flags it accepts, or a usage
 * error naming what was wrong. `--` ends the options (for a file named like a flag).
 */
import { fail, ok, type Result } from '../../src-shared/errors.ts';

export interface CommandArgs {
  /** The file argument as typed (relative paths are resolved later, against the cwd). */
  file: string;
  flags: ReadonlySet<string>;
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
export function parseCommandArgs(command: string, args: readonly string[], allowed: readonly string[], fileName: string): Result<CommandArgs, string> {
  const flags = new Set<string>();
  const files: string[] = [];
  let isOptionsEnd = false;
  for (const arg of args) {
    if (!isOptionsEnd && arg === '--') {
      isOptionsEnd = true;
    } else if (!isOptionsEnd && arg.startsWith('-') && arg !== '-') {
      if (!allowed.includes(arg)) {
        const known = allowed.length === 0 ? 'it takes no options' : `it takes ${allowed.join(', ')}`;
        return fail([`unknown option "${arg}" for "keyplan ${command}"; ${known} (see "keyplan ${command} --help").`]);
      }
      flags.add(arg);
    } else {
      files.push(arg);
    }
  }
  const [file, ...extra] = files;
  if (file === undefined) {
    return fail([`"keyplan ${command}" needs ${fileName}; usage: keyplan ${command} ${fileName} ${allowed.map((f) => `[${f}]`).join(' ')}`.trimEnd()]);
  }
  if (extra.length > 0) {
    return fail([`"keyplan ${command}" takes one file, got ${files.length}: ${files.map((f) => JSON.stringify(f)).join(', ')}.`]);
  }
  return ok({ file, flags });
}
