/**
 * Small readings the scan shares between its project and memory-folder parts: what a path is,
 * how that is worded in a problem, an entry of a listing, and the name order used throughout.
 *
 * Folders are listed and stat'ed synchronously, a slice at a time (fs/sync-slice.ts): through
 * the thread pool, the ~1,000 listings of the heavy home's scan cost ~130 ms of the one thread
 * in a `--cpu-prof` of `serve` at a second start (issue 16), far more than the calls themselves.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { yieldIfSliceUsed } from '../fs/sync-slice'

/** A path from a directory listing; `listed` when the listing said regular file (not a symlink). */
export interface Listed {
  readonly path: string
  readonly listed: boolean
}

/** What a path is, for the folders the scan expects. */
export type DirKind = 'dir' | 'missing' | 'not-a-folder' | { readonly unreadable: string }

export async function dirKind(path: string): Promise<DirKind> {
  await yieldIfSliceUsed()
  try {
    return statSync(path).isDirectory() ? 'dir' : 'not-a-folder'
  } catch (err) {
    const code = codeOf(err)
    return code === 'ENOENT' ? 'missing' : { unreadable: code }
  }
}

/** The entries of folder `dir` with their kinds (throws as `readdir` does). */
export async function listFolder(dir: string): Promise<Dirent[]> {
  await yieldIfSliceUsed()
  return readdirSync(dir, { withFileTypes: true })
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
