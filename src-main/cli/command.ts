/** One `keyplan` command: its help text, the flags it takes, and what it does with one file. */
import type { CommandArgs, FileCount } from './args.ts';
import type { CliIo } from './io.ts';

export interface Command {
  name: string;
  /** `keyplan size <item.json> [--json] [--explain]` */
  synopsis: string;
  /** One line for the command list of `keyplan --help`. */
  summary: string;
  /** How the file argument is named in messages: `<item.json>`. */
  fileName: string;
  /** Flags besides `--help`. */
  flags: readonly string[];
  /** Options that take a value (`--to`, `--out`); none when absent. */
  options?: readonly string[];
  /** How many file arguments it takes; exactly one when absent. */
  fileCount?: FileCount;
  /** The full text of `keyplan <command> --help`. */
  help: string;
  /** Runs the command; returns the exit code. */
  run(args: CommandArgs, io: CliIo): Promise<number>;
}
