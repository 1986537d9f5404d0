/** Node fs errors as the file codes of the contract, with a message that names the file. */
import { basename } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import { TEMP_FILE_NAME } from './atomic-write.ts';

/** `ENOENT`/`ENOTDIR` → `file.notFound`; anything else → `file.io` with the system's code. */
export function toFileError(error: unknown, label: string, action: 'read' | 'write' | 'list'): AppError {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new AppError({ code: 'file.notFound', message: `"${label}" does not exist.` });
  }
  // The system's message names the path it failed on: said in words when that is a save's temporary file.
  const failedOn = (error as NodeJS.ErrnoException | undefined)?.path;
  const isTempFile = typeof failedOn === 'string' && TEMP_FILE_NAME.test(basename(failedOn));
  const reason = isTempFile ? describeFsFailure(error) : error instanceof Error ? error.message : String(error);
  return new AppError({
    code: 'file.io',
    message: `Could not ${action} "${label}": ${reason}`,
    ...(code ? { details: { systemCode: code } } : {}),
  });
}

/** What common system codes mean, said as a user would. */
const SYSTEM_REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  EISDIR: 'a folder stands where the file should be',
  ENOTDIR: 'a file stands where a folder of its path should be',
  EIO: 'an input/output error of the disk',
};

/**
 * Why a file operation failed, in words and with the system's code (`the disk is full (ENOSPC)`),
 * without the raw message, which names the temporary files a write goes through.
 */
export function describeFsFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  const reason = SYSTEM_REASONS[code];
  return reason === undefined ? code : `${reason} (${code})`;
}
