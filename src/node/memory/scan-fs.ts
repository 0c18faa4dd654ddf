/**
 * Small readings the scan shares between its project and memory-folder parts: what a path is,
 * how that is worded in a problem, an entry of a listing, and the name order used throughout.
 */
import { stat } from 'node:fs/promises'

/** A path from a directory listing; `listed` when the listing said regular file (not a symlink). */
export interface Listed {
  readonly path: string
  readonly listed: boolean
}

/** What a path is, for the folders the scan expects. */
export type DirKind = 'dir' | 'missing' | 'not-a-folder' | { readonly unreadable: string }

export async function dirKind(path: string): Promise<DirKind> {
  try {
    return (await stat(path)).isDirectory() ? 'dir' : 'not-a-folder'
  } catch (err) {
    const code = codeOf(err)
    return code === 'ENOENT' ? 'missing' : { unreadable: code }
  }
}

/** How a path that is not a folder is worded in a problem. */
export function describe(kind: Exclude<DirKind, 'dir'>): string {
  if (kind === 'missing') return 'does not exist'
  if (kind === 'not-a-folder') return 'is not a folder'
  return `cannot be read: ${kind.unreadable}`
}

/** Byte order (not locale order): the same on every machine. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
}
