/**
 * What a `keyplan` command talks to: two output streams and the folder relative paths start from.
 * The bin passes the process's; tests pass string buffers.
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Relative file arguments are resolved against this folder. */
  cwd: string;
}

/** Exit codes of every command (documented in `keyplan --help`). */
export const EXIT = {
  /** Done, and the input passed. */
  ok: 0,
  /** The input has problems: unreadable, not JSON, not valid, oversized, or (check) errors or unserved patterns. */
  problems: 1,
  /** The command line itself is wrong: unknown command or option, missing or extra argument. */
  usage: 2,
} as const;

/** Writes lines to a stream, each ending with a newline. */
export function writeLines(stream: CliIo['stdout'], lines: readonly string[]): void {
  if (lines.length > 0) stream.write(`${lines.join('\n')}\n`);
}

/**
 * An error line as every command prints it to stderr: `keyplan: <message>`, kept to one line (each
 * run of white space that holds a line break becomes one space). Linear in the message's length: a
 * pattern like `\s*\n\s*` would rescan every long run of spaces without a line break from each of its
 * positions, which is quadratic on a message quoting such a run.
 */
export function errorLine(message: string): string {
  return `keyplan: ${message.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run))}`;
}

/** Writes a value as indented JSON with a final newline. */
export function writeJson(stream: CliIo['stdout'], value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}
