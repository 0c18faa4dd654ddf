/**
 * Planning an edit of a memory file (nothing is written): read the files the change touches,
 * with their hashes, and hand them to the pure rules of src/core/memory/edit-plan.ts.
 */
import { realpath } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { MEMORY_INDEX_NAME } from '../../core/memory/cutoff'
import {
  findIndexEntry,
  planDeleteEntry,
  planExtractToTopic,
  planMoveEntryAboveCutoff,
  planReplaceText,
  type EditSource,
  type ReplaceRegion,
  type TopicFileState,
} from '../../core/memory/edit-plan'
import { notesFromInstructionFile } from '../../core/memory/notes'
import type { EditPlan, EditPlanRequest } from '../../shared/model'
import { escapesFolder } from '../fs/path-guard'
import { pathExists } from '../fs/safe-read'
import { findNote, memoryNotes } from './memory-notes'
import { readForEdit } from './read-for-edit'

/**
 * Why `path`, a file named inside the memory folder `dir`, must not be read: a symlink that
 * leads out of the folder (issue 11 item 5: a plan would return the outside file's text).
 * Null when it stays inside. Same rule as the walkers (`escapesFolder`).
 */
export async function leavesMemoryFolder(path: string, dir: string): Promise<string | null> {
  let realDir: string
  try {
    realDir = await realpath(dir)
  } catch {
    return null
  }
  return (await escapesFolder(path, realDir))
    ? `is a symlink that leaves the memory folder (${path})`
    : null
}

function planTitle(request: EditPlanRequest): string {
  switch (request.kind) {
    case 'move-entry-above-cutoff':
      return 'Move an entry above the load cutoff'
    case 'delete-entry':
      return 'Delete an index entry'
    case 'extract-to-topic':
      return `Extract an entry to ${request.topicName}`
    case 'replace-text':
      return 'Replace text in a note'
  }
}

/** The regions of the note at file:line that a replacement may touch. */
async function replaceRegions(
  file: string,
  line: number,
  read: EditSource,
): Promise<
  { title: string; regions: ReplaceRegion[] } | { problem: { path: string; reason: string } }
> {
  const dir = dirname(file)
  const memory =
    basename(file) === MEMORY_INDEX_NAME || (await pathExists(join(dir, MEMORY_INDEX_NAME)))
  const notes = memory ? await memoryNotes(dir) : notesFromInstructionFile(file, read.text)
  const note = findNote(notes, file, line)
  if (!note) return { problem: { path: file, reason: `no note starts at or spans line ${line}` } }
  const sources = new Map<string, EditSource>([[file, read]])
  const source = async (path: string): Promise<EditSource | { path: string; reason: string }> => {
    const known = sources.get(path)
    if (known) return known
    // A topic file of a memory index is read only while it stays in the memory folder.
    const leaves = memory && path !== file ? await leavesMemoryFolder(path, dir) : null
    if (leaves !== null) return { path, reason: `${path} ${leaves}` }
    const r = await readForEdit(path)
    if (!r.ok) return { path, reason: r.reason }
    const s = { path, text: r.text, hash: r.hash }
    sources.set(path, s)
    return s
  }
  const regions: ReplaceRegion[] = []
  const add = async (path: string, startLine: number, endLine: number): Promise<string | null> => {
    const s = await source(path)
    if (!('hash' in s)) return s.reason
    regions.push({ source: s, startLine, endLine })
    return null
  }
  let problem: string | null
  if (note.kind === 'index-entry') {
    const idx = await source(note.file)
    const entry = 'hash' in idx ? findIndexEntry(idx.text, note.line) : null
    problem = await add(note.file, note.line, entry?.endLine ?? note.endLine)
    if (problem === null && note.topicFile !== null) {
      problem = await add(note.topicFile, 1, Number.MAX_SAFE_INTEGER)
    }
  } else if (note.kind === 'topic') {
    problem = await add(note.file, 1, Number.MAX_SAFE_INTEGER)
  } else {
    problem = await add(note.file, note.line, note.endLine)
  }
  if (problem !== null) return { problem: { path: file, reason: problem } }
  return { title: note.title, regions }
}
/** The plan for `request`, computed on the files as they are now. */
export async function planEdit(request: EditPlanRequest): Promise<EditPlan> {
  const file = resolve(request.file)
  const failed = (path: string, reason: string): EditPlan => ({
    title: planTitle(request),
    changes: [],
    problems: [{ path, reason }],
  })
  if (!Number.isInteger(request.line) || request.line < 1) {
    return failed(file, `line ${request.line} is not a line number`)
  }
  const read = await readForEdit(file)
  if (!read.ok) return failed(file, read.reason)
  const index: EditSource = { path: file, text: read.text, hash: read.hash }
  switch (request.kind) {
    case 'move-entry-above-cutoff':
      return planMoveEntryAboveCutoff(index, request.line)
    case 'delete-entry': {
      let topic: TopicFileState | null = null
      const entry = request.deleteTopic ? findIndexEntry(read.text, request.line) : null
      if (entry !== null && entry.topicName !== null) {
        const path = join(dirname(file), ...entry.topicName.split('/'))
        const leaves = await leavesMemoryFolder(path, dirname(file))
        const t = leaves === null ? await readForEdit(path) : null
        topic =
          t === null
            ? { name: entry.topicName, path, current: null, reason: leaves ?? '' }
            : t.ok
              ? { name: entry.topicName, path, current: { text: t.text, hash: t.hash } }
              : {
                  name: entry.topicName,
                  path,
                  current: null,
                  ...(t.problem === 'missing' ? {} : { reason: `cannot be read (${t.reason})` }),
                }
      }
      return planDeleteEntry(index, request.line, request.deleteTopic, topic)
    }
    case 'extract-to-topic': {
      const path = join(dirname(file), request.topicName)
      return planExtractToTopic(index, request.line, {
        name: request.topicName,
        path,
        exists: await pathExists(path),
      })
    }
    case 'replace-text': {
      const found = await replaceRegions(file, request.line, index)
      if ('problem' in found) return failed(found.problem.path, found.problem.reason)
      return planReplaceText(found.regions, request.from, request.to, found.title)
    }
  }
}
