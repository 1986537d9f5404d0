/** Node fs errors as the file codes of the contract, with a message that names the file. */
import { AppError } from '../../src-shared/errors.ts';

/** `ENOENT`/`ENOTDIR` → `file.notFound`; anything else → `file.io` with the system's code. */
export function toFileError(error: unknown, label: string, action: 'read' | 'write' | 'list'): AppError {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new AppError({ code: 'file.notFound', message: `"${label}" does not exist.` });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError({
    code: 'file.io',
    message: `Could not ${action} "${label}": ${reason}`,
    ...(code ? { details: { systemCode: code } } : {}),
  });
}
