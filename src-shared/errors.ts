/**
 * One error type for the whole app. Codes are `area.problem` string literals declared next to the
 * code that raises them and unioned here, so a caller can switch on them and the UI can mark the
 * field named by `path`.
 */
import type { ModelErrorCode } from './model/problems.ts';
import type { KeyTemplateErrorCode } from './model/key-template.ts';
import type { IpcErrorCode } from './ipc/wire.ts';
import type { FileErrorCode } from './ipc/contract.ts';
import type { ItemErrorCode } from './capacity/item-size.ts';
import type { DynamoDbJsonErrorCode, ImportErrorCode, WorkbenchErrorCode } from './formats/index.ts';

export type ErrorCode = ModelErrorCode | KeyTemplateErrorCode | IpcErrorCode | FileErrorCode | ItemErrorCode | WorkbenchErrorCode | DynamoDbJsonErrorCode | ImportErrorCode;

/** The JSON-safe shape of an error: what crosses the IPC wire and what the UI shows. */
export interface ErrorData {
  code: ErrorCode;
  message: string;
  /** Where the problem is, e.g. `tables[0].entities[2].keys.GSI1PK`. */
  path?: string;
  /** Structured extras, such as the list of problems of a file that failed to parse. */
  details?: unknown;
}

export class AppError extends Error implements ErrorData {
  readonly code: ErrorCode;
  readonly path?: string;
  readonly details?: unknown;

  constructor(data: ErrorData) {
    super(data.message);
    this.name = 'AppError';
    this.code = data.code;
    if (data.path !== undefined) this.path = data.path;
    if (data.details !== undefined) this.details = data.details;
  }

  toData(): ErrorData {
    const data: ErrorData = { code: this.code, message: this.message };
    if (this.path !== undefined) data.path = this.path;
    if (this.details !== undefined) data.details = this.details;
    return data;
  }
}

/** The result of anything that takes input from outside: the value, or every problem found. */
export type Result<T, E = ErrorData> = { ok: true; value: T } | { ok: false; errors: E[] };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = <E>(errors: E[]): Result<never, E> => ({ ok: false, errors });
