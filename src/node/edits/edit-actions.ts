/**
 * The curation back end (issue 6): safe edits and deletes with an undo log, verification
 * stamps of notes, and edit plans. Writes go through safe-write.ts (compare-and-swap, a
 * backup first, atomic replace); plans are computed by the pure rules of
 * src/core/memory/edit-plan.ts and stamps are judged by src/core/audit/stamps.ts.
 */
import { createHash } from 'node:crypto'
import { constants as fsConstants } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { open, realpath } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
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
import type {
  EditOutcome,
  EditPlan,
  EditPlanRequest,
  NoteStamp,
  NoteStampStatus,
  OperationInfo,
} from '../../shared/model'
import {
  notesFromInstructionFile,
  notesFromMemory,
  type Note,
  type TopicText,
} from '../../core/memory/notes'
import { extractReferences } from '../../core/audit/references'
import {
  compareStamp,
  isNoteStamp,
  stampKeySource,
  type ReferenceNow,
} from '../../core/audit/stamps'
import { absolute, candidatePaths } from '../../core/audit/repo-paths'
import { describeFsError, pickLastUndoable, readOperations, undo as undoOperation } from './backups'
import { listTopicFiles } from '../memory/cutoff-file'
import { BackendError } from '../app/errors'
import { findRepo } from '../git/repo'
import { escapesFolder } from '../fs/path-guard'
import { readTextFile, pathExists } from '../fs/safe-read'
import type { TrashFn } from './safe-write'
import { hashContent, readForEdit, safeDelete, safeWrite } from './safe-write'

/** A small persistent key-value store (electron-store in the window, a JSON file in `serve`). */
export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
  keys(): string[]
}

export interface CurationDeps {
  /** Our state folder: backups and the undo log live under it. */
  readonly stateDir: string
  /** Moves a file to the OS trash; null when none is available (the file then stays, and the person is told). */
  readonly trash: TrashFn | null
  /** Where verification stamps are kept. */
  readonly stamps: KeyValueStore
}

export interface Curation {
  writeFile(
    path: string,
    expectedHash: string | null,
    newText: string,
    reason: string,
  ): Promise<EditOutcome>
  deleteFile(path: string, expectedHash: string, reason: string): Promise<EditOutcome>
  listOperations(): Promise<OperationInfo[]>
  undo(operationId: string | null): Promise<EditOutcome>
  verifyNote(memoryDir: string, repo: string | null, file: string, line: number): Promise<NoteStamp>
  listStamps(memoryDir: string, repo: string | null): Promise<NoteStampStatus[]>
  planEdit(request: EditPlanRequest): Promise<EditPlan>
}

/** What the stamp store keeps per key: the stamp plus where it belongs. */
interface StoredStamp {
  readonly stamp: NoteStamp
  /** The memory folder the note was verified in (listStamps filters on it). */
  readonly memoryDir: string
  /** The repository root its references were resolved in; null without a repository. */
  readonly root: string | null
}

function toStoredStamp(value: unknown): StoredStamp | null {
  if (typeof value !== 'object' || value === null) return null
  const v = value as Record<string, unknown>
  if (!isNoteStamp(v.stamp) || typeof v.memoryDir !== 'string') return null
  if (!(v.root === null || typeof v.root === 'string')) return null
  return { stamp: v.stamp, memoryDir: v.memoryDir, root: v.root }
}

/** The stamp key of a note: its file and title hashed, so it survives the note moving lines. */
function stampKey(note: Note): string {
  return hashContent(stampKeySource(note.file, note.title))
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err))

// ---- reading notes (the same note model as the audit) -------------------------------

function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/** Notes of a memory folder (index entries with their topics, free index text, orphan topics). */
async function memoryNotes(memoryDir: string): Promise<Note[]> {
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
async function notesFor(memoryDir: string, instructionFiles: readonly string[]): Promise<Note[]> {
  const notes = await memoryNotes(memoryDir)
  for (const f of new Set(instructionFiles)) {
    if (isInside(memoryDir, f)) continue
    const r = await readTextFile(f, { lenient: true })
    if (r.ok) notes.push(...notesFromInstructionFile(f, r.text))
  }
  return notes
}

/** The note at file:line; a linked topic file stands for its index entry. */
function findNote(notes: readonly Note[], file: string, line: number): Note | null {
  return (
    notes.find((n) => n.file === file && n.line <= line && line <= n.endLine) ??
    notes.find((n) => n.kind === 'index-entry' && n.topicFile === file) ??
    null
  )
}

// ---- hashing referenced files ----------------------------------------------------------

type FileState =
  | { readonly kind: 'file'; readonly hash: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'dir' }
  | { readonly kind: 'unreadable'; readonly reason: string }

/** SHA-256 of a file's bytes (same digest as `hashContent`), streamed; FIFOs never block. */
async function fileState(path: string): Promise<FileState> {
  let handle: FileHandle
  try {
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    if (code === 'EISDIR') return { kind: 'dir' }
    return { kind: 'unreadable', reason: describeFsError(err) }
  }
  try {
    const st = await handle.stat()
    if (st.isDirectory()) return { kind: 'dir' }
    if (!st.isFile()) return { kind: 'unreadable', reason: 'not a regular file' }
    const digest = createHash('sha256')
    const buf = Buffer.allocUnsafe(64 * 1024)
    for (let pos = 0; ;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos)
      if (bytesRead === 0) break
      digest.update(buf.subarray(0, bytesRead))
      pos += bytesRead
    }
    return { kind: 'file', hash: digest.digest('hex') }
  } catch (err) {
    return { kind: 'unreadable', reason: describeFsError(err) }
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/** The folder references are resolved in: the repository's top level, else the folder itself. */
async function repoRoot(repo: string): Promise<string> {
  const dir = resolve(repo)
  const info = await findRepo(dir)
  return info ? info.toplevel : dir
}

/**
 * Every file a note names that resolves in the repository (paths and script files, as the
 * audit resolves them), with its content hash; null for a named file that does not exist.
 * Folders, unreadable files, git's own files and links out of the repository are left out.
 */
async function referencedFiles(note: Note, root: string): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {}
  const realRoot = await realpath(root).catch(() => root)
  // Issue 11: a note is read against its repository's files, never git's own or, through a
  // symlink, a file outside it; such a reference is left out, like an unreadable one.
  const outOfBounds = async (rel: string, abs: string): Promise<boolean> =>
    rel.split('/').includes('.git') || (await escapesFolder(abs, realRoot))
  for (const r of extractReferences(note.checkText)) {
    const named =
      r.kind === 'path' ? r.path : r.kind === 'command' && r.runner === 'file' ? r.target : null
    if (named === null) continue
    const candidates = candidatePaths(named, root, dirname(note.file))
    if (candidates === null) continue
    let found = false
    for (const c of candidates) {
      const abs = absolute(root, c)
      if (await outOfBounds(c, abs)) {
        found = true
        break
      }
      const s = await fileState(abs)
      if (s.kind === 'missing') continue
      found = true
      if (s.kind === 'file') out[abs] = s.hash
      break
    }
    if (!found) out[absolute(root, candidates[0])] = null
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

// ---- plans -----------------------------------------------------------------------------

/**
 * Why `path`, a file named inside the memory folder `dir`, must not be read: a symlink that
 * leads out of the folder (issue 11 item 5: a plan would return the outside file's text).
 * Null when it stays inside. Same rule as the walkers (`escapesFolder`).
 */
async function leavesMemoryFolder(path: string, dir: string): Promise<string | null> {
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

// ---- the module ------------------------------------------------------------------------

/** Build the curation back end over one state folder, trash and stamp store. */
export function createCuration(deps: CurationDeps): Curation {
  const backupsDir = join(resolve(deps.stateDir), 'backups')

  async function writeFile(
    path: string,
    expectedHash: string | null,
    newText: string,
    reason: string,
  ): Promise<EditOutcome> {
    const abs = resolve(path)
    try {
      const r = await safeWrite({ path: abs, expectedHash, newText, backupsDir, reason })
      switch (r.kind) {
        case 'written':
          return { kind: 'written', path: abs, hash: r.hash, operationId: r.operation?.id ?? null }
        case 'conflict':
          return {
            kind: 'conflict',
            path: abs,
            currentHash: r.currentHash,
            currentText: r.currentText,
          }
        case 'error':
          return { kind: 'error', path: abs, reason: r.reason }
      }
    } catch (err) {
      return { kind: 'error', path: abs, reason: `cannot write ${abs}: ${errorText(err)}` }
    }
  }

  async function deleteFile(
    path: string,
    expectedHash: string,
    reason: string,
  ): Promise<EditOutcome> {
    const abs = resolve(path)
    if (deps.trash === null) {
      // Without a trash our backup would be the only copy: keep the file and say so.
      return {
        kind: 'error',
        path: abs,
        reason: `no trash is available here, so ${abs} was not deleted`,
      }
    }
    try {
      const r = await safeDelete({ path: abs, expectedHash, backupsDir, trash: deps.trash, reason })
      switch (r.kind) {
        case 'deleted':
          return {
            kind: 'deleted',
            path: abs,
            trashed: r.trashed,
            operationId: r.operation?.id ?? null,
            warning: r.warning ?? null,
          }
        case 'conflict':
          return {
            kind: 'conflict',
            path: abs,
            currentHash: r.currentHash,
            currentText: r.currentText,
          }
        case 'error':
          return { kind: 'error', path: abs, reason: r.reason }
      }
    } catch (err) {
      return { kind: 'error', path: abs, reason: `cannot delete ${abs}: ${errorText(err)}` }
    }
  }

  async function listOperations(): Promise<OperationInfo[]> {
    const { operations } = await readOperations(backupsDir)
    const undone = new Set(operations.flatMap((o) => (o.undoes === undefined ? [] : [o.undoes])))
    return operations
      .map((o) => ({
        id: o.id,
        op: o.op === 'write' && o.beforeHash === null ? 'create' : o.op,
        path: o.path,
        time: o.time,
        reason: o.reason ?? '',
        undone: undone.has(o.id),
      }))
      .reverse()
  }

  async function undo(operationId: string | null): Promise<EditOutcome> {
    const { operations } = await readOperations(backupsDir)
    const op =
      operationId === null
        ? pickLastUndoable(operations)
        : (operations.find((o) => o.id === operationId) ?? null)
    if (op === null) {
      const reason =
        operationId === null
          ? 'there is nothing to undo'
          : `no operation ${operationId} in the undo log`
      return { kind: 'error', path: backupsDir, reason }
    }
    try {
      const r = await undoOperation(backupsDir, op.id, { trash: deps.trash })
      if (r.kind === 'conflict') {
        return {
          kind: 'conflict',
          path: op.path,
          currentHash: r.currentHash,
          currentText: r.currentText,
        }
      }
      if (r.kind === 'error') return { kind: 'error', path: op.path, reason: r.reason }
      const operationId2 = r.operation?.id ?? null
      if (op.beforeHash === null) {
        // Undoing a creation removes the file again.
        return {
          kind: 'deleted',
          path: op.path,
          trashed: deps.trash !== null,
          operationId: operationId2,
          warning: r.warning ?? null,
        }
      }
      // The backup restored holds exactly the bytes the operation replaced.
      return { kind: 'written', path: op.path, hash: op.beforeHash, operationId: operationId2 }
    } catch (err) {
      return { kind: 'error', path: op.path, reason: `cannot undo ${op.id}: ${errorText(err)}` }
    }
  }

  async function verifyNote(
    memoryDir: string,
    repo: string | null,
    file: string,
    line: number,
  ): Promise<NoteStamp> {
    const dir = resolve(memoryDir)
    const abs = resolve(file)
    const note = findNote(await notesFor(dir, [abs]), abs, line)
    if (note === null) throw new BackendError('not-found', `no note at ${abs}:${line}`)
    const root = repo === null ? null : await repoRoot(repo)
    const stamp: NoteStamp = {
      key: stampKey(note),
      file: note.file,
      title: note.title,
      noteHash: hashContent(note.text),
      references: root === null ? {} : await referencedFiles(note, root),
      at: new Date().toISOString(),
    }
    const stored: StoredStamp = { stamp, memoryDir: dir, root }
    deps.stamps.set(stamp.key, stored)
    return stamp
  }

  async function listStamps(memoryDir: string, repo: string | null): Promise<NoteStampStatus[]> {
    const dir = resolve(memoryDir)
    const records: StoredStamp[] = []
    for (const key of deps.stamps.keys()) {
      const rec = toStoredStamp(deps.stamps.get(key))
      if (rec !== null && rec.memoryDir === dir && rec.stamp.key === key) records.push(rec)
    }
    if (records.length === 0) return []
    const notes = await notesFor(
      dir,
      records.map((r) => r.stamp.file),
    )
    const byKey = new Map<string, string[]>()
    for (const n of notes) {
      const k = stampKey(n)
      byKey.set(k, [...(byKey.get(k) ?? []), hashContent(n.text)])
    }
    const fallbackRoot = repo === null ? null : await repoRoot(repo)
    const out: NoteStampStatus[] = []
    for (const { stamp, root } of records) {
      const hashes = byKey.get(stamp.key) ?? []
      // Two notes may share a file and title: the stamp holds while either matches it.
      const noteHash = hashes.includes(stamp.noteHash) ? stamp.noteHash : (hashes[0] ?? null)
      const references: Record<string, ReferenceNow> = {}
      for (const path of Object.keys(stamp.references)) {
        const s = await fileState(path)
        references[path] =
          s.kind === 'dir' ? { kind: 'unreadable', reason: 'it is a folder now' } : s
      }
      out.push(compareStamp(stamp, { noteHash, references }, root ?? fallbackRoot))
    }
    return out.sort((a, b) =>
      a.stamp.file === b.stamp.file
        ? a.stamp.title.localeCompare(b.stamp.title)
        : a.stamp.file < b.stamp.file
          ? -1
          : 1,
    )
  }

  async function planEdit(request: EditPlanRequest): Promise<EditPlan> {
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

  return { writeFile, deleteFile, listOperations, undo, verifyNote, listStamps, planEdit }
}
