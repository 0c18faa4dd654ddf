/**
 * One rule for "is this still the file a cached result was built from": its identity. A file
 * or folder is the same while its device, inode, size, mtime and ctime are the same; a git
 * work tree is the same while its HEAD commit and its index file are the same.
 *
 * Decisions:
 * - ctime is part of it: a rewrite that restores size and mtime (`touch -r`, a copy that keeps
 *   times) still changes ctime. An atomic save (temp file + rename) changes the inode.
 * - A folder's identity changes when an entry is added, removed or renamed (its mtime), not when
 *   a file inside it is edited: a folder listing may be kept, a file's content may not.
 * - No identity (null) means "do not cache": a path that is missing, unreadable or of the
 *   wrong kind is never a hit.
 */
import { statSync, type Stats } from 'node:fs'
import { stat } from 'node:fs/promises'

/** Names one version of a file, folder or work tree; equal identities mean the same version. */
export type Identity = string

/** What a path must be for its identity to count. */
export type EntryKind = 'file' | 'dir'

/** The identity of stat data (symlinks followed or not, as the caller stat'ed). */
export function statsIdentity(st: Stats): Identity {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`
}

function ofKind(st: Stats, kind: EntryKind): Identity | null {
  return (kind === 'dir' ? st.isDirectory() : st.isFile()) ? statsIdentity(st) : null
}

/** The identity of what `path` names (symlinks followed), or null when it is not a `kind`. */
export function fileIdentity(path: string, kind: EntryKind = 'file'): Identity | null {
  try {
    return ofKind(statSync(path), kind)
  } catch {
    return null
  }
}

/** `fileIdentity` without blocking the thread (for callers that are already async). */
export async function fileIdentityAsync(
  path: string,
  kind: EntryKind = 'file',
): Promise<Identity | null> {
  try {
    return ofKind(await stat(path), kind)
  } catch {
    return null
  }
}

/** Stands for "nothing there": a result computed from a missing file holds until it appears. */
export const MISSING: Identity = 'missing'

/**
 * The identity of a regular file, `MISSING` when nothing is there, null when unknown (another
 * kind of entry, or a stat that failed for another reason).
 */
export function contentIdentity(path: string): Identity | null {
  try {
    return ofKind(statSync(path), 'file')
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? MISSING : null
  }
}

/**
 * The identity of a work tree: its HEAD commit (null before the first commit) and the identity
 * of its index file. Null when the index is unknown (not a plain file): nothing is cached then.
 */
export function repoIdentity(head: string | null, index: Identity | null): Identity | null {
  return index === null ? null : `${head ?? ''}\0${index}`
}
