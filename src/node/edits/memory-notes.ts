/**
 * The notes of a memory folder as the curation back end reads them — the same notes as the
 * audit's (memory-folder-notes.ts) — and the notes of instruction files outside the folder.
 */
import { notesFromInstructionFile, type Note } from '../../core/memory/notes'
import { memoryFolderNotes } from '../memory/memory-folder-notes'
import { isInside } from '../fs/path-guard'
import { readTextFile } from '../fs/safe-read'

/** Notes of a memory folder, as every feature reads them (memory-folder-notes.ts). */
export async function memoryNotes(memoryDir: string): Promise<Note[]> {
  return (await memoryFolderNotes(memoryDir)).notes
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
