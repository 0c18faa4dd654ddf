/**
 * The notes of a memory folder as the curation back end reads them (the audit's note model):
 * index entries with their topics and continuation lines, free index text, orphan topics,
 * and the notes of instruction files outside the folder.
 */
import { join } from 'node:path'
import { MEMORY_INDEX_NAME } from '../../core/memory/cutoff'
import { findIndexEntry } from '../../core/memory/edit-plan'
import {
  notesFromInstructionFile,
  notesFromMemory,
  type Note,
  type TopicText,
} from '../../core/memory/notes'
import { listTopicFiles } from '../memory/cutoff-file'
import { isInside } from '../fs/path-guard'
import { readTextFile } from '../fs/safe-read'

/** Notes of a memory folder (index entries with their topics, free index text, orphan topics). */
export async function memoryNotes(memoryDir: string): Promise<Note[]> {
  const indexPath = join(memoryDir, MEMORY_INDEX_NAME)
  const index = await readTextFile(indexPath, { lenient: true })
  const listing = await listTopicFiles(memoryDir)
  const topics: TopicText[] = []
  for (const name of listing.files) {
    const path = join(memoryDir, ...name.split('/'))
    const r = await readTextFile(path, { lenient: true })
    if (r.ok) topics.push({ name, path, text: r.text })
  }
  if (!index.ok && topics.length === 0) return []
  const notes = notesFromMemory({ indexPath, indexText: index.ok ? index.text : null, topics })
  return index.ok ? notes.map((n) => withContinuation(n, index.text)) : notes
}

/**
 * An index entry's indented continuation lines are part of it: a stamp must see them
 * change and their references count (the audit's note is the entry line alone).
 */
function withContinuation(note: Note, indexText: string): Note {
  if (note.kind !== 'index-entry') return note
  const entry = findIndexEntry(indexText, note.line)
  if (entry === null || entry.continuation.length === 0) return note
  const more = entry.continuation.join('\n')
  return {
    ...note,
    endLine: entry.endLine,
    text: `${note.text}\n${more}`,
    checkText: `${note.checkText}\n\n${more}`,
  }
}

/** Notes of a memory folder plus those of instruction files outside it. */
export async function notesFor(
  memoryDir: string,
  instructionFiles: readonly string[],
): Promise<Note[]> {
  const notes = await memoryNotes(memoryDir)
  for (const f of new Set(instructionFiles)) {
    if (isInside(memoryDir, f)) continue
    const r = await readTextFile(f, { lenient: true })
    if (r.ok) notes.push(...notesFromInstructionFile(f, r.text))
  }
  return notes
}

/** The note at file:line; a linked topic file stands for its index entry. */ export function findNote(
  notes: readonly Note[],
  file: string,
  line: number,
): Note | null {
  return (
    notes.find((n) => n.file === file && n.line <= line && line <= n.endLine) ??
    notes.find((n) => n.kind === 'index-entry' && n.topicFile === file) ??
    null
  )
}
