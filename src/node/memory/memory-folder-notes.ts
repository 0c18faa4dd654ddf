/**
 * The notes of a memory folder as every feature reads them: the one listing (memory-folder.ts),
 * each file read leniently with bounded concurrency, and the one pure parser
 * (src/core/memory/notes.ts `notesFromMemory`). Audit, curation, provenance's evidence and the
 * window's lists all take their notes from here (issue 12 item 7).
 */
import { join, resolve } from 'node:path'
import type { Problem } from '../../shared/model'
import { notesFromMemory, type Note, type TopicText } from '../../core/memory/notes'
import { FILE_READ_CONCURRENCY, mapLimited } from '../jobs/concurrency'
import { readTextFile } from '../fs/safe-read'
import { listMemoryFolder, MEMORY_INDEX_NAME } from './memory-folder'

export interface MemoryFolderRead {
  /** The folder, resolved. */
  readonly dir: string
  readonly indexPath: string
  /** The index text, or null when `MEMORY.md` is missing or unreadable. */
  readonly indexText: string | null
  readonly topics: readonly TopicText[]
  readonly problems: readonly Problem[]
  /** Absolute file → mtime (ms) of every file read. */
  readonly mtimes: ReadonlyMap<string, number>
  /** Absolute file → the text read. */
  readonly texts: ReadonlyMap<string, string>
}

/** Absolute path of a listed topic file (`sub/x.md` → `<dir>/sub/x.md`). */
export function topicPath(dir: string, name: string): string {
  return join(dir, ...name.split('/'))
}

/** List the folder and read its index and topic files (unreadable ones become problems). */
export async function readMemoryFolder(memoryDir: string): Promise<MemoryFolderRead> {
  const dir = resolve(memoryDir)
  const problems: Problem[] = []
  const mtimes = new Map<string, number>()
  const texts = new Map<string, string>()
  const indexPath = join(dir, MEMORY_INDEX_NAME)
  const listing = await listMemoryFolder(dir)
  problems.push(...listing.problems)
  const paths = [indexPath, ...listing.files.map((name) => topicPath(dir, name))]
  // Bounded concurrency: a folder can hold thousands of topic files; results keep the order.
  const reads = await mapLimited(paths, FILE_READ_CONCURRENCY, (p) =>
    readTextFile(p, { lenient: true }),
  )
  let indexText: string | null = null
  const topics: TopicText[] = []
  for (const [i, path] of paths.entries()) {
    const r = reads[i]!
    if (!r.ok) {
      // A missing index is an index-less folder, not a problem; a directory is said by the listing.
      if (i === 0 && (r.problem === 'missing' || r.problem === 'not-a-file')) continue
      problems.push({ path, reason: r.reason })
      continue
    }
    mtimes.set(path, r.mtimeMs)
    texts.set(path, r.text)
    if (i === 0) indexText = r.text
    else topics.push({ name: listing.files[i - 1], path, text: r.text })
  }
  return { dir, indexPath, indexText, topics, problems, mtimes, texts }
}

/** The notes of a memory folder (index entries with their topics, free index text, orphan topics). */
export async function memoryFolderNotes(
  memoryDir: string,
): Promise<MemoryFolderRead & { readonly notes: Note[] }> {
  const read = await readMemoryFolder(memoryDir)
  const notes =
    read.indexText === null && read.topics.length === 0
      ? []
      : notesFromMemory({
          indexPath: read.indexPath,
          indexText: read.indexText,
          topics: read.topics,
        })
  return { ...read, notes }
}
