/**
 * The wording of a failed file-system call, in one place: the errno in plain words
 * (ENOSPC → "disk full (ENOSPC)") and, for every write, delete and undo path, one sentence
 * naming the file. Messages keep the code in brackets so a person can search for it.
 */

/** Plain words for a failed file-system call (ENOSPC → "disk full (ENOSPC)", …). */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  switch (code) {
    case 'ENOSPC':
      return 'disk full (ENOSPC)'
    case 'EDQUOT':
      return 'disk quota exceeded (EDQUOT)'
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`
    case 'EROFS':
      return 'read-only file system (EROFS)'
    case 'ENOENT':
      return 'no such file or folder (ENOENT)'
    case 'ENOTDIR':
      return 'a part of the path is not a folder (ENOTDIR)'
    case 'EISDIR':
      return 'is a folder (EISDIR)'
    case 'ENAMETOOLONG':
      return 'name too long (ENAMETOOLONG)'
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${code})`
    case 'EIO':
      return 'input/output error (EIO)'
    default:
      return code ? code : err instanceof Error ? err.message : String(err)
  }
}

/** True for the errors of a full disk or an exhausted quota. */
export const isDiskFull = (err: unknown): boolean =>
  ['ENOSPC', 'EDQUOT'].includes((err as NodeJS.ErrnoException)?.code ?? '')

/**
 * The one sentence for a failed action on a file: `cannot <action> <path>: <why>` and, when
 * given, `; <what became of it>`. `why` is an error (described in words) or text already.
 */
export function fsFailure(action: string, path: string, why: unknown, after?: string): string {
  const words = typeof why === 'string' ? why : describeFsError(why)
  return `cannot ${action} ${path}: ${words}${after === undefined ? '' : `; ${after}`}`
}
