/**
 * The evidence archive (issue 12 item 10): Claude Code deletes transcripts after
 * `cleanupPeriodDays` while memory folders stay (docs/memory-rules.md §1.7), so the excerpt of
 * the session that wrote a note is kept in our own state folder the first time we see it.
 *
 * Decisions:
 * - One file per write, `<state>/evidence/v1/<memory file hash>/<write hash>.json`, created once
 *   and never rewritten: temp file written durably beside it (edits/temp-files.ts), then
 *   `link`ed into place, which refuses to replace an existing entry — two processes archiving
 *   the same write cannot lose a byte, and no read-modify-write of a shared file exists.
 * - Bounded: one entry at most EVIDENCE_ENTRY_MAX_BYTES (older excerpt items are dropped to fit),
 *   the archive at most EVIDENCE_ARCHIVE_MAX_BYTES; when full, new entries are refused and said to
 *   be, old ones are never dropped (once the transcript is gone they cannot be rebuilt). Two
 *   processes filling it at once may pass the bound by one entry each.
 * - Everything read back is checked like any input: a damaged or foreign file is skipped.
 * - Never inside the Claude home: the state folder is ours (src/node/app/setup.ts).
 */
import { createHash } from 'node:crypto'
import { link, mkdir, readdir, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Problem } from '../../shared/model'
import type { Excerpt } from '../../core/transcripts/excerpt'
import {
  EVIDENCE_ARCHIVE_MAX_BYTES,
  EVIDENCE_ENTRY_MAX_BYTES,
  EVIDENCE_LINES_MAX_CHARS,
} from '../../core/limits'
import { readTextFile } from '../fs/safe-read'
import { sweepStaleTemps, tempPathFor, writeTemp } from '../edits/temp-files'

/** Bump when an entry's layout changes (older entries stay readable in their own folder). */
const LAYOUT = 'v1'

export interface ArchivedEvidence {
  /** The memory file the write changed (absolute). */
  readonly memoryFile: string
  readonly sessionId: string
  readonly toolUseId: string
  readonly timestamp: string
  readonly tool: string
  readonly transcript: string
  /** The lines of the memory file this write had added when archived (to find its notes later). */
  readonly lines: readonly string[]
  readonly excerpt: Excerpt
  readonly archivedAt: string
}

export type PutResult =
  | { readonly ok: true; readonly entry: ArchivedEvidence }
  | { readonly ok: false; readonly reason: string }

const hash = (s: string, n: number): string =>
  createHash('sha256').update(s).digest('hex').slice(0, n)

export class EvidenceArchive {
  readonly root: string
  #total: Promise<number> | null = null

  constructor(stateDir: string) {
    this.root = join(stateDir, 'evidence', LAYOUT)
  }

  /** The folder of one memory file's entries. */
  dirFor(memoryFile: string): string {
    return join(this.root, hash(memoryFile, 16))
  }

  #pathFor(memoryFile: string, sessionId: string, toolUseId: string): string {
    return join(this.dirFor(memoryFile), `${hash(`${sessionId}\0${toolUseId}`, 24)}.json`)
  }

  /** The archived entry of one write, or null. */
  async get(
    memoryFile: string,
    sessionId: string,
    toolUseId: string,
  ): Promise<ArchivedEvidence | null> {
    return readEntry(this.#pathFor(memoryFile, sessionId, toolUseId), memoryFile)
  }

  /** Every entry archived for `memoryFile`, oldest write first. */
  async list(memoryFile: string, problems: Problem[] = []): Promise<ArchivedEvidence[]> {
    const dir = this.dirFor(memoryFile)
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'ENOENT')
        problems.push({ path: dir, reason: `cannot list the evidence archive: ${code}` })
      return []
    }
    const out: ArchivedEvidence[] = []
    for (const name of names.filter((n) => /^[0-9a-f]{24}\.json$/.test(n)).sort()) {
      const e = await readEntry(join(dir, name), memoryFile)
      if (e) out.push(e)
    }
    return out.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0))
  }

  /** Bytes the archive holds now (computed once, then kept up to date by `put`). */
  totalBytes(): Promise<number> {
    return (this.#total ??= sizeOf(this.root))
  }

  /** Archive one write's excerpt, unless it already is (then the entry kept is returned). */
  async put(entry: Omit<ArchivedEvidence, 'archivedAt'>, now = new Date()): Promise<PutResult> {
    const path = this.#pathFor(entry.memoryFile, entry.sessionId, entry.toolUseId)
    const known = await readEntry(path, entry.memoryFile)
    if (known) return { ok: true, entry: known }
    const full: ArchivedEvidence = { ...fitted(entry), archivedAt: now.toISOString() }
    const bytes = Buffer.from(JSON.stringify({ layout: LAYOUT, ...full }))
    if (bytes.length > EVIDENCE_ENTRY_MAX_BYTES)
      return { ok: false, reason: 'the excerpt is too large to archive' }
    const total = await this.totalBytes()
    if (total + bytes.length > EVIDENCE_ARCHIVE_MAX_BYTES) {
      const mib = Math.round(EVIDENCE_ARCHIVE_MAX_BYTES / 1024 / 1024)
      return { ok: false, reason: `not archived: the evidence archive is full (${mib} MiB)` }
    }
    const dir = this.dirFor(entry.memoryFile)
    const tmp = tempPathFor(path)
    try {
      await mkdir(dir, { recursive: true })
      await sweepStaleTemps(dir)
      await writeTemp(tmp, bytes, null)
      try {
        await link(tmp, path)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
        // Another process archived the same write first: its entry stands.
        const other = await readEntry(path, entry.memoryFile)
        if (other) return { ok: true, entry: other }
        throw err
      }
      this.#total = Promise.resolve(total + bytes.length)
      return { ok: true, entry: full }
    } catch (err) {
      return {
        ok: false,
        reason: `not archived: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      }
    } finally {
      await unlink(tmp).catch(() => undefined)
    }
  }
}

/** The entry cut to its bounds: lines to EVIDENCE_LINES_MAX_CHARS, the oldest excerpt items dropped to fit. */
function fitted(entry: Omit<ArchivedEvidence, 'archivedAt'>): Omit<ArchivedEvidence, 'archivedAt'> {
  const lines: string[] = []
  let chars = 0
  for (const l of entry.lines) {
    if (chars + l.length > EVIDENCE_LINES_MAX_CHARS) break
    lines.push(l)
    chars += l.length
  }
  let items = [...entry.excerpt.items]
  let omitted = entry.excerpt.omitted
  const size = (): number =>
    Buffer.byteLength(JSON.stringify({ ...entry, lines, excerpt: { items, omitted } })) + 200
  // The write itself is the last item and always kept.
  while (items.length > 1 && size() > EVIDENCE_ENTRY_MAX_BYTES) {
    items = items.slice(1)
    omitted++
  }
  return { ...entry, lines, excerpt: { items, omitted } }
}

const isStr = (v: unknown): v is string => typeof v === 'string'

/** One entry read back, checked field by field; null when missing, damaged or another file's. */
async function readEntry(path: string, memoryFile: string): Promise<ArchivedEvidence | null> {
  const r = await readTextFile(path, { maxBytes: EVIDENCE_ENTRY_MAX_BYTES })
  if (!r.ok) return null
  let v: unknown
  try {
    v = JSON.parse(r.text)
  } catch {
    return null
  }
  const e = v as Partial<ArchivedEvidence> & { layout?: unknown }
  if (
    typeof e !== 'object' ||
    e === null ||
    e.layout !== LAYOUT ||
    e.memoryFile !== memoryFile ||
    ![e.sessionId, e.toolUseId, e.timestamp, e.tool, e.transcript, e.archivedAt].every(isStr) ||
    !Array.isArray(e.lines) ||
    !e.lines.every(isStr) ||
    typeof e.excerpt !== 'object' ||
    e.excerpt === null ||
    !Array.isArray(e.excerpt.items) ||
    typeof e.excerpt.omitted !== 'number'
  )
    return null
  // Rebuilt field by field: nothing but strings and flags reaches the window.
  const items = e.excerpt.items
    .filter(
      (it) =>
        typeof it === 'object' &&
        it !== null &&
        ['person', 'agent', 'tool', 'write'].includes(it.kind) &&
        isStr(it.text) &&
        isStr(it.timestamp),
    )
    .map((it) => ({
      kind: it.kind,
      timestamp: it.timestamp,
      tool: isStr(it.tool) ? it.tool : null,
      input: isStr(it.input) ? it.input : null,
      text: it.text,
      truncated: it.truncated === true,
      failed: it.failed === true,
    }))
  const { layout: _layout, ...entry } = e as ArchivedEvidence & { layout: string }
  return { ...entry, excerpt: { items, omitted: e.excerpt.omitted } }
}

/** Bytes of the files two levels under `root` (the archive's layout). */
async function sizeOf(root: string): Promise<number> {
  let total = 0
  let dirs: string[]
  try {
    dirs = await readdir(root)
  } catch {
    return 0
  }
  for (const d of dirs) {
    let names: string[]
    try {
      names = await readdir(join(root, d))
    } catch {
      continue
    }
    for (const n of names) {
      try {
        total += (await stat(join(root, d, n))).size
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return total
}
