/**
 * One error type for the whole app, on the ground floor of src-shared: every module imports it, so
 * it imports nothing. Codes are `area.problem` string literals declared next to the code that raises
 * them (`ModelErrorCode` in model, `ItemErrorCode` in capacity, each format's own in formats, ...);
 * `ErrorCode` in `ipc/error-codes.ts`, at the top of the ladder, unions them for what crosses the
 * wire, so a caller can switch on them and the UI can mark the field named by `path`.
 */

/** The JSON-safe shape of an error: what crosses the IPC wire and what the UI shows. `C`: the codes it may carry. */
export interface ErrorData<C extends string = string> {
  code: C;
  message: string;
  /** Where the problem is, e.g. `tables[0].entities[2].keys.GSI1PK`. */
  path?: string;
  /** Structured extras, such as the list of problems of a file that failed to parse. */
  details?: unknown;
}

export class AppError<C extends string = string> extends Error implements ErrorData<C> {
  readonly code: C;
  readonly path?: string;
  readonly details?: unknown;

  constructor(data: ErrorData<C>) {
    super(data.message);
    this.name = 'AppError';
    this.code = data.code;
    if (data.path !== undefined) this.path = data.path;
    if (data.details !== undefined) this.details = data.details;
  }

  toData(): ErrorData<C> {
    const data: ErrorData<C> = { code: this.code, message: this.message };
    if (this.path !== undefined) data.path = this.path;
    if (this.details !== undefined) data.details = this.details;
    return data;
  }
}

/** The result of anything that takes input from outside: the value, or every problem found. */
export type Result<T, E = ErrorData> = { ok: true; value: T } | { ok: false; errors: E[] };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = <E>(errors: E[]): Result<never, E> => ({ ok: false, errors });
