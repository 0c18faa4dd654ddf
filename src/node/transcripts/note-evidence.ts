/**
 * The session that wrote each note (issue 12 items 9 and 10): which recorded writes added the
 * note's lines (the provenance histories, provenance-collect.ts, and the line attribution of
 * src/core/transcripts/replay.ts), the excerpt of the turns before each write (excerpt.ts), and
 * the archive that keeps those excerpts after Claude Code deletes the transcript
 * (evidence-archive.ts; docs/memory-rules.md §1.7).
 *
 * Decisions:
 * - A note's lines are its own lines plus, for an index entry, the whole topic file it links.
 * - Every excerpt seen is archived at once (the first time the app or the CLI sees it).
 * - Lines no live write explains are looked up in the archive by their text, since the line
 *   numbers of a file move while its notes stay.
 * - A note without any record "never will" have one: written before any transcript we have seen
 *   (its date is older than the oldest recorded write to the folder), or else by hand.
 */
import type { Problem } from '../../shared/model'
import type {
  NoteEvidence,
  NoteEvidenceEntry,
  NoteEvidenceResult,
  NoteOrigin,
  NoteOriginWrite,
} from '../../shared/evidence-model'
import type { Note } from '../../core/memory/notes'
import { attributeLines } from '../../core/transcripts/replay'
import { EVIDENCE_MAX_WRITES_PER_NOTE } from '../../core/limits'
import { splitLines } from '../../core/text'
import { mapLimited } from '../jobs/concurrency'
import { memoryFolderNotes } from '../memory/memory-folder-notes'
import { collect } from './provenance-collect'
import type { Call } from './provenance-types'
import { EvidenceArchive, type ArchivedEvidence } from './evidence-archive'
import { readExcerpts } from './excerpt'

export interface EvidenceOptions {
  readonly claudeHome: string
  /** Our state folder: the archive lives in it (never the Claude home). */
  readonly stateDir: string
  readonly memoryDir: string
  /** Folder of the transcript index cache. */
  readonly cacheDir?: string
  readonly signal?: AbortSignal
}

/** Transcripts read at once for excerpts. */
const TRANSCRIPT_READS = 4

/** One note's writes, live (with their calls) and archived. */
interface NoteWrites {
  readonly note: Note
  readonly live: Call[]
  readonly archived: ArchivedEvidence[]
}

export interface FolderEvidence {
  readonly notes: readonly NoteWrites[]
  /** Written excerpt per write (`sessionId\0toolUseId`), archived or read now. */
  readonly origins: ReadonlyMap<string, NoteOriginWrite>
  /** Oldest write on record for the folder (live or archived), or null. */
  readonly oldest: string | null
  readonly mtimes: ReadonlyMap<string, number>
  readonly problems: Problem[]
}

const keyOf = (sessionId: string, toolUseId: string): string => `${sessionId}\0${toolUseId}`

/** Gather the writes of the notes `pick` keeps, archive every excerpt seen, and say where each is. */
export async function folderEvidence(
  opts: EvidenceOptions,
  pick: (note: Note) => boolean = () => true,
): Promise<FolderEvidence> {
  const folder = await memoryFolderNotes(opts.memoryDir)
  const problems: Problem[] = [...folder.problems]
  const c = await collect(
    {
      claudeHome: opts.claudeHome,
      memoryDir: folder.dir,
      cacheDir: opts.cacheDir,
      signal: opts.signal,
    },
    null,
  )
  problems.push(...c.problems)
  const archive = new EvidenceArchive(opts.stateDir)

  // Per memory file: which call added each line as it is now, and what each call added.
  const owners = new Map<string, (Call | null)[]>()
  const addedBy = new Map<string, string[]>()
  let oldest: string | null = null
  const older = (t: string): void => {
    if (t !== '' && (oldest === null || t < oldest)) oldest = t
  }
  for (const [file, history] of c.histories) {
    for (const x of history.calls) older(x.call.timestamp)
    const text = folder.texts.get(file)
    if (text === undefined) continue
    const lines = splitLines(text)
    const own = attributeLines(text, history.replay).map((o) =>
      o === null ? null : history.calls[o],
    )
    owners.set(file, own)
    own.forEach((x, i) => {
      if (!x) return
      const k = keyOf(x.call.sessionId, x.call.toolUseId)
      const list = addedBy.get(k) ?? []
      list.push(lines[i])
      addedBy.set(k, list)
    })
  }

  const archivedOf = new Map<string, ArchivedEvidence[]>()
  const archivedFor = async (file: string): Promise<ArchivedEvidence[]> => {
    let list = archivedOf.get(file)
    if (!list) {
      list = await archive.list(file, problems)
      for (const e of list) older(e.timestamp)
      archivedOf.set(file, list)
    }
    return list
  }

  // Each file split once: an index of 2,000 entries is 2,000 notes of one file (bad input).
  const linesOf = new Map<string, string[]>()
  const fileLines = (file: string): string[] => {
    let lines = linesOf.get(file)
    if (!lines) linesOf.set(file, (lines = splitLines(folder.texts.get(file) ?? '')))
    return lines
  }
  const notes: NoteWrites[] = []
  for (const note of folder.notes.filter(pick)) {
    const live = new Map<string, Call>()
    const unexplained: { file: string; text: string }[] = []
    for (const seg of segmentsOf(note, folder.texts)) {
      const own = owners.get(seg.file)
      const lines = fileLines(seg.file)
      for (let l = seg.from; l <= Math.min(seg.to, lines.length); l++) {
        const x = own?.[l - 1] ?? null
        if (x) live.set(keyOf(x.call.sessionId, x.call.toolUseId), x)
        else if (lines[l - 1].trim() !== '')
          unexplained.push({ file: seg.file, text: lines[l - 1].trim() })
      }
    }
    const archived: ArchivedEvidence[] = []
    for (const file of new Set(unexplained.map((u) => u.file))) {
      const wanted = new Set(unexplained.filter((u) => u.file === file).map((u) => u.text))
      for (const e of await archivedFor(file)) {
        if (live.has(keyOf(e.sessionId, e.toolUseId))) continue
        if (e.lines.some((l) => wanted.has(l.trim()))) archived.push(e)
      }
    }
    const newestFirst = [...live.values()].sort((a, b) =>
      cmpDesc(a.call.timestamp, b.call.timestamp),
    )
    notes.push({
      note,
      live: newestFirst.slice(0, EVIDENCE_MAX_WRITES_PER_NOTE),
      archived: archived.sort((a, b) => cmpDesc(a.timestamp, b.timestamp)),
    })
  }

  // Excerpts: from the archive when kept, else from the transcript (then archived at once).
  const origins = new Map<string, NoteOriginWrite>()
  const missing = new Map<string, Call[]>()
  for (const n of notes) {
    for (const x of n.live) {
      const k = keyOf(x.call.sessionId, x.call.toolUseId)
      if (origins.has(k)) continue
      const kept = await archive.get(x.path, x.call.sessionId, x.call.toolUseId)
      if (kept) origins.set(k, originOf(kept, 'live'))
      else {
        const list = missing.get(x.transcript) ?? []
        if (!list.some((y) => y.call.toolUseId === x.call.toolUseId)) list.push(x)
        missing.set(x.transcript, list)
      }
    }
    for (const e of n.archived)
      origins.set(keyOf(e.sessionId, e.toolUseId), originOf(e, 'archived'))
  }
  await mapLimited([...missing], TRANSCRIPT_READS, async ([transcript, calls]) => {
    const read = await readExcerpts(
      transcript,
      calls.map((x) => x.call.toolUseId),
      opts.signal,
    )
    if (read.problem) problems.push(read.problem)
    for (const x of calls) {
      const excerpt = read.excerpts.get(x.call.toolUseId)
      if (!excerpt) continue
      const entry = {
        memoryFile: x.path,
        sessionId: x.call.sessionId,
        toolUseId: x.call.toolUseId,
        timestamp: x.call.timestamp,
        tool: x.call.input.tool,
        transcript,
        lines: addedBy.get(keyOf(x.call.sessionId, x.call.toolUseId)) ?? [],
        excerpt,
      }
      const put = await archive.put(entry)
      if (!put.ok) problems.push({ path: archive.root, reason: put.reason })
      const shown = put.ok ? put.entry : { ...entry, archivedAt: null }
      origins.set(keyOf(x.call.sessionId, x.call.toolUseId), originOf(shown, 'live'))
    }
  })
  return { notes, origins, oldest, mtimes: folder.mtimes, problems }
}

/** The evidence of one note, from what `folderEvidence` gathered. */
export function evidenceOf(n: NoteWrites, f: FolderEvidence): NoteEvidence {
  const live = n.live.filter((x) => f.origins.has(keyOf(x.call.sessionId, x.call.toolUseId)))
  if (live.length > 0) {
    const s = live.length === 1 ? '' : 's'
    return {
      state: 'live',
      never: null,
      reason: `written by ${live.length} recorded session write${s}; the transcript is on disk (and archived)`,
      writes: live.length + n.archived.length,
    }
  }
  if (n.live.length > 0 && n.archived.length === 0) {
    return {
      state: 'live',
      never: null,
      reason: 'a recorded session wrote it, but its excerpt could not be read',
      writes: 0,
    }
  }
  if (n.archived.length > 0) {
    return {
      state: 'archived',
      never: null,
      reason: 'the transcript is gone; its excerpt was archived when first seen',
      writes: n.archived.length,
    }
  }
  const at = noteTime(n.note, f.mtimes)
  if (f.oldest === null || (at !== null && at < f.oldest)) {
    return {
      state: 'none',
      never: 'before-transcripts',
      reason:
        f.oldest === null
          ? 'no transcript we have seen wrote to this memory folder'
          : 'written before the oldest transcript we have seen',
      writes: 0,
    }
  }
  return {
    state: 'none',
    never: 'by-hand',
    reason: 'no recorded session wrote these lines: written by hand or by another tool',
    writes: 0,
  }
}

/** The entry of one note for the contract. */
export function entryOf(n: NoteWrites, f: FolderEvidence): NoteEvidenceEntry {
  const { note } = n
  return {
    file: note.file,
    line: note.line,
    endLine: note.endLine,
    title: note.title,
    topicFile: note.topicFile,
    evidence: evidenceOf(n, f),
  }
}

/** The shown writes of one note, newest first (live ones with an excerpt, then archived ones). */
export function writesOf(n: NoteWrites, f: FolderEvidence): NoteOriginWrite[] {
  const out: NoteOriginWrite[] = []
  for (const x of n.live) {
    const o = f.origins.get(keyOf(x.call.sessionId, x.call.toolUseId))
    if (o) out.push(o)
  }
  for (const e of n.archived) {
    if (out.length >= EVIDENCE_MAX_WRITES_PER_NOTE) break
    const o = f.origins.get(keyOf(e.sessionId, e.toolUseId))
    if (o) out.push(o)
  }
  return out
}

function originOf(
  e: Omit<ArchivedEvidence, 'archivedAt'> & { readonly archivedAt: string | null },
  source: 'live' | 'archived',
): NoteOriginWrite {
  return {
    sessionId: e.sessionId,
    timestamp: e.timestamp,
    tool: e.tool,
    transcript: e.transcript,
    toolUseId: e.toolUseId,
    source,
    archivedAt: e.archivedAt,
    items: e.excerpt.items,
    omitted: e.excerpt.omitted,
  }
}

/** The file line ranges a note stands on. */
function segmentsOf(
  note: Note,
  texts: ReadonlyMap<string, string>,
): { file: string; from: number; to: number }[] {
  const segs = [{ file: note.file, from: note.line, to: note.endLine }]
  if (note.kind === 'index-entry' && note.topicFile !== null) {
    const lines = splitLines(texts.get(note.topicFile) ?? '').length
    segs.push({ file: note.topicFile, from: 1, to: lines })
  }
  return segs
}

/** When the note was written as far as the files say: its frontmatter date, else its file's mtime. */
function noteTime(note: Note, mtimes: ReadonlyMap<string, number>): string | null {
  for (const k of ['updated', 'created', 'date']) {
    const v = note.frontmatter?.[k]
    const d = v instanceof Date ? v : typeof v === 'string' ? new Date(v) : null
    if (d && !Number.isNaN(d.getTime())) return d.toISOString()
  }
  const m = mtimes.get(note.topicFile ?? note.file)
  return m === undefined ? null : new Date(m).toISOString()
}

function cmpDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0
}

/** The evidence of every note of a memory folder (archiving every excerpt seen for the first time). */
export async function noteEvidence(opts: EvidenceOptions): Promise<NoteEvidenceResult> {
  const f = await folderEvidence(opts)
  return { notes: f.notes.map((n) => entryOf(n, f)), problems: f.problems }
}

/** The note at `file`:`line` (a linked topic file stands for its entry) with the excerpts that wrote it. */
export async function noteOrigin(
  opts: EvidenceOptions & { readonly file: string; readonly line: number },
): Promise<NoteOrigin | null> {
  const at = (n: Note): boolean =>
    n.file === opts.file && n.line <= opts.line && opts.line <= n.endLine
  let f = await folderEvidence(opts, at)
  if (f.notes.length === 0)
    f = await folderEvidence(opts, (n) => n.kind === 'index-entry' && n.topicFile === opts.file)
  const n = f.notes[0]
  if (!n) return null
  return {
    file: n.note.file,
    line: n.note.line,
    endLine: n.note.endLine,
    title: n.note.title,
    evidence: evidenceOf(n, f),
    writes: writesOf(n, f),
    problems: f.problems,
  }
}
