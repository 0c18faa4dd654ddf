/**
 * The notes an audit reads: a memory folder's `MEMORY.md` and topic files, and instruction
 * files (CLAUDE.md, AGENTS.md), with the problems met and what each file held when read.
 */
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Problem } from '../../shared/model'
import { notesFromInstructionFile, notesFromMemory } from '../../core/memory/notes'
import type { Note, TopicText } from '../../core/memory/notes'
import { FILE_READ_CONCURRENCY, mapLimited } from '../jobs/concurrency'
import { readTextFile } from '../fs/safe-read'

export const MEMORY_INDEX = 'MEMORY.md'

export interface Loaded {
  readonly notes: Note[]
  readonly problems: Problem[]
  /** Absolute file → mtime (ms) of every file read. */
  readonly mtimes: Map<string, number>
  /** Absolute file → the text read, for every file read (a kept audit compares them later). */
  readonly texts?: Map<string, string>
}

/** Read the memory folder and instruction files into notes. */
export async function loadNotes(
  memoryDir: string,
  instructionFiles: readonly string[],
): Promise<Loaded> {
  const problems: Problem[] = []
  const mtimes = new Map<string, number>()
  const texts = new Map<string, string>()
  const dir = resolve(memoryDir)
  let indexText: string | null = null
  const topics: TopicText[] = []
  const indexPath = join(dir, MEMORY_INDEX)
  let names: string[] = []
  try {
    names = await listMarkdown(dir)
  } catch (err) {
    problems.push({
      path: dir,
      reason: `cannot list the memory folder: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    })
  }
  // Read with bounded concurrency (a folder can hold thousands of topic files), then use in order.
  const reads = await mapLimited(names, FILE_READ_CONCURRENCY, (name) =>
    readTextFile(join(dir, ...name.split('/')), { lenient: true }),
  )
  for (const [i, name] of names.entries()) {
    const path = join(dir, ...name.split('/'))
    const r = reads[i]!
    if (!r.ok) {
      problems.push({ path, reason: r.reason })
      continue
    }
    mtimes.set(path, r.mtimeMs)
    texts.set(path, r.text)
    if (name === MEMORY_INDEX) indexText = r.text
    else topics.push({ name, path, text: r.text })
  }
  const notes = names.length > 0 ? notesFromMemory({ indexPath, indexText, topics }) : []
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

/** `*.md` files of a memory folder, one level of subfolders included, relative and sorted. */
async function listMarkdown(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.md')) out.push(e.name)
    else if (e.isDirectory() && !e.name.startsWith('.')) {
      try {
        for (const s of await readdir(join(dir, e.name), { withFileTypes: true })) {
          if (s.isFile() && s.name.endsWith('.md')) out.push(`${e.name}/${s.name}`)
        }
      } catch {
        // An unreadable subfolder holds no notes we can audit.
      }
    }
  }
  return out.sort()
}
