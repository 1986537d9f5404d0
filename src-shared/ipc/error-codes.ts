/**
 * Every error code that can cross the wire, unioned from the areas that declare them. This file sits
 * at the top of src-shared's ladder and imports their unions as types only, downward, so
 * `errors.ts` on the ground floor names none of them.
 */
import { AppError } from '../errors.ts';
import type { ItemErrorCode } from '../capacity/index.ts';
import type { DynamoDbJsonErrorCode, ImportErrorCode, WorkbenchErrorCode } from '../formats/index.ts';
import type { ConditionErrorCode, KeyTemplateErrorCode, ModelErrorCode } from '../model/index.ts';
import type { RunErrorCode } from '../run/index.ts';
import type { FileErrorCode, TaskErrorCode } from './contract.ts';

/** Codes of the wire itself: what the transports and the dispatcher refuse. */
export type IpcErrorCode =
  | 'ipc.unknownChannel'
  | 'ipc.badInput'
  | 'ipc.forbidden'
  | 'ipc.disconnected'
  | 'ipc.unsupported'
  | 'ipc.tooLarge'
  | 'ipc.internal';

export type ErrorCode =
  | ModelErrorCode
  | ConditionErrorCode
  | KeyTemplateErrorCode
  | ItemErrorCode
  | WorkbenchErrorCode
  | DynamoDbJsonErrorCode
  | ImportErrorCode
  | RunErrorCode
  | IpcErrorCode
  | FileErrorCode
  | TaskErrorCode;

/** Whether `error` is an `AppError` with `code`; the code is checked against `ErrorCode`, so a misspelt one fails to compile. */
export function hasErrorCode<C extends ErrorCode>(error: unknown, code: C): error is AppError<C> {
  return error instanceof AppError && error.code === code;
}
