/**
 * The `keyplan` command line: headless checks over the same domain code as the app.
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

export async function main(args: string[], io: CliIo): Promise<number> {
  io.stdout.write(`keyplan ${args.join(' ')}\n`);
  return 0;
}
