/**
 * The notes an audit reads: a memory folder's `MEMORY.md` and topic files, and instruction
 * files (CLAUDE.md, AGENTS.md), with the problems met and what each file held when read.
 */
import { resolve } from 'node:path'
import type { Problem } from '../../shared/model'
import { notesFromInstructionFile } from '../../core/memory/notes'
import type { Note } from '../../core/memory/notes'
import { readTextFile } from '../fs/safe-read'
import { memoryFolderNotes } from '../memory/memory-folder-notes'

export const MEMORY_INDEX = 'MEMORY.md'

export interface Loaded {
  readonly notes: Note[]
  readonly problems: Problem[]
  /** Absolute file → mtime (ms) of every file read. */
  readonly mtimes: Map<string, number>
  /** Absolute file → the text read, for every file read (a kept audit compares them later). */
  readonly texts?: Map<string, string>
}

/** Read the memory folder (the one reader, memory-folder-notes.ts) and instruction files into notes. */
export async function loadNotes(
  memoryDir: string,
  instructionFiles: readonly string[],
): Promise<Loaded> {
  const folder = await memoryFolderNotes(memoryDir)
  const problems: Problem[] = [...folder.problems]
  const mtimes = new Map(folder.mtimes)
  const texts = new Map(folder.texts)
  const notes = [...folder.notes]
  for (const f of instructionFiles) {
    const path = resolve(f)
    const r = await readTextFile(path, { lenient: true })
    if (!r.ok) {
      problems.push({ path, reason: r.reason })
      continue
    }
    mtimes.set(path, r.mtimeMs)
    texts.set(path, r.text)
    notes.push(...notesFromInstructionFile(path, r.text))
  }
  return { notes, problems, mtimes, texts }
}
