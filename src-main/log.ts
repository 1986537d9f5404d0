/**
 * Where the host reports its own problems when no log is given: one line on stderr, prefixed so a
 * terminal full of other output still shows whose line it is, with the error (and its stack) after it.
 */
export function logToConsole(message: string, error?: unknown): void {
  console.error(`[keyplan] ${message}`, ...(error === undefined ? [] : [error]));
}
