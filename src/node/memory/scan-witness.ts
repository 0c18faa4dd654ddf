/**
 * What a scan saw of the memory folders and project folders, recorded while it reads (issue 16),
 * so the back end can tell later what changed since without a walk of its own before the scan:
 * each folder's identity taken before it was listed (and, for the projects folder and the
 * memory folders, the names the listing held), and each memory file's identity taken before it
 * was read or its kept reading believed (cache/file-identity.ts).
 *
 * A change after the scan read something changes what it recorded: a folder's identity when an
 * entry is added, removed or renamed, a file's when it is written. Transcripts are not recorded
 * (the home's watcher never watches them, memory/watch.ts); a new or removed one changes its
 * project folder. The limit is the file system clock's: a change in the same tick as the reading,
 * keeping size, leaves the identity as it was (as for the scan cache).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileIdentity, type Identity } from '../cache/file-identity'
import { syncSliceUsed, yieldToLoop } from '../fs/sync-slice'

/** What a scan calls as it reads (scan.ts, memory-folder-scan.ts, memory-folder.ts). */
export interface ScanWitness {
  /** Before folder `path` is listed (or found missing): its identity now, symlinks followed. */
  folder(path: string): void
  /** The names the listing of `path` held (only folders whose new entries are worth naming). */
  listed(path: string, names: readonly string[]): void
  /** A memory file read, or believed from the scan cache, with the identity taken before. */
  file(path: string, id: Identity | null): void
}

interface FolderSeen {
  readonly id: Identity | null
  names: readonly string[] | null
}

/** A scan's record; `changes` compares it with the disk. */
export interface ScanSeen {
  readonly folders: ReadonlyMap<string, FolderSeen>
  readonly files: ReadonlyMap<string, Identity | null>
}

export function createScanWitness(): ScanWitness & { readonly seen: ScanSeen } {
  const folders = new Map<string, FolderSeen>()
  const files = new Map<string, Identity | null>()
  return {
    seen: { folders, files },
    folder(path) {
      // The first record is the earliest: what was read after it.
      if (!folders.has(path)) folders.set(path, { id: fileIdentity(path, 'dir'), names: null })
    },
    listed(path, names) {
      const f = folders.get(path)
      if (f && f.names === null) f.names = [...names]
    },
    file(path, id) {
      // A file that could not be opened has no identity from its reading: taken now instead.
      if (!files.has(path)) files.set(path, id ?? fileIdentity(path))
    },
  }
}

/** The names in folder `path` now (none when it cannot be listed). */
function namesIn(path: string): string[] {
  try {
    return readdirSync(path)
  } catch {
    return []
  }
}

/**
 * What changed on disk since `seen` was recorded, sorted: each folder, file and (in a folder
 * whose names were kept) entry added, removed or changed. With `firstOnly`, stops at the first.
 */
export async function scanChanges(seen: ScanSeen, firstOnly = false): Promise<string[]> {
  const out = new Set<string>()
  for (const [path, f] of seen.folders) {
    // Checked without an await: a promise per entry costs more than the stat.
    if (syncSliceUsed()) await yieldToLoop()
    if (fileIdentity(path, 'dir') === f.id) continue
    out.add(path)
    if (firstOnly) return [...out]
    if (f.names === null) continue
    const before = new Set(f.names)
    const now = new Set(namesIn(path))
    for (const n of now) if (!before.has(n)) out.add(join(path, n))
    for (const n of before) if (!now.has(n)) out.add(join(path, n))
  }
  for (const [path, id] of seen.files) {
    if (syncSliceUsed()) await yieldToLoop()
    if (fileIdentity(path) === id) continue
    out.add(path)
    if (firstOnly) return [...out]
  }
  return [...out].sort()
}
