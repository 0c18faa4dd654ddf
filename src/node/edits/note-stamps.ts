/**
 * Verification stamps of notes: "this note was checked against these files", kept until the
 * note or a file it names changes. Stamps are judged by src/core/audit/stamps.ts; this module
 * reads the notes and hashes the files they reference.
 */
import { createHash } from 'node:crypto'
import { constants as fsConstants } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { open, realpath } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { CuratorApi } from '../../shared/api-contract'
import type { NoteStamp, NoteStampStatus } from '../../shared/model'
import type { Note } from '../../core/memory/notes'
import { extractReferences } from '../../core/audit/references'
import {
  compareStamp,
  isNoteStamp,
  stampKeySource,
  type ReferenceNow,
} from '../../core/audit/stamps'
import { absolute, candidatePaths } from '../../core/audit/repo-paths'
import { BackendError } from '../app/errors'
import { describeFsError } from '../fs/fs-errors'
import { escapesFolder } from '../fs/path-guard'
import { findRepo } from '../git/repo'
import { findNote, notesFor } from './memory-notes'
import { hashContent } from './read-current'

/** A small persistent key-value store (electron-store in the window, a JSON file in `serve`). */
export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
  keys(): string[]
}

export type NoteStamps = Pick<CuratorApi, 'listStamps'> & {
  /** `referenceState`: what the audit found for the note's references (core/audit/note-review.ts). */
  verifyNote(
    ...args: [...Parameters<CuratorApi['verifyNote']>, referenceState?: string]
  ): ReturnType<CuratorApi['verifyNote']>
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

/** Stamps kept in `store`. */
export function createNoteStamps(store: KeyValueStore): NoteStamps {
  async function verifyNote(
    memoryDir: string,
    repo: string | null,
    file: string,
    line: number,
    referenceState?: string,
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
      ...(referenceState === undefined ? {} : { referenceState }),
    }
    const stored: StoredStamp = { stamp, memoryDir: dir, root }
    store.set(stamp.key, stored)
    return stamp
  }

  async function listStamps(memoryDir: string, repo: string | null): Promise<NoteStampStatus[]> {
    const dir = resolve(memoryDir)
    const records: StoredStamp[] = []
    for (const key of store.keys()) {
      const rec = toStoredStamp(store.get(key))
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

  return { verifyNote, listStamps }
}
