/**
 * What the scan read from each transcript head and memory file, kept in the app's state folder
 * between runs (never the Claude home), so a scan re-reads only the files that changed since
 * the last one (issue 16: the window waits for the whole scan before it draws the list).
 *
 * Decisions:
 * - A kept reading is used only while the file keeps its identity (file-identity.ts: device,
 *   inode, size, mtime, ctime), taken from the descriptor the reading came from before it read;
 *   a later write changes it. So a warm scan answers exactly what a cold one does
 *   (tests/unit/node/memory/scan-cache.test.ts).
 * - Only plain files reached from a listing are kept (the scan's fast paths), and only readings
 *   without a problem; anything unusual is read every time, as before.
 * - The file keeps what the last scan saw and nothing else (files gone are dropped), at most
 *   SCAN_CACHE_MAX_RECORDS of them. A missing, damaged or foreign file counts as empty
 *   (persistent-cache.ts), and every record is type-checked before it is believed.
 */
import { createHash } from 'node:crypto'
import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import type { MemoryFileInfo, Problem } from '../../shared/model'
import { statsIdentity, type Identity } from '../cache/file-identity'
import { RecordsCache } from '../cache/persistent-cache'
import { yieldIfSliceUsed } from '../fs/sync-slice'
import type { TranscriptHeadRead } from '../transcripts/head'

/** Records kept at most (the heavy home of issue 7 has ~9,200: 8,000 memory files, 1,200 heads; ~400 bytes each). */
export const SCAN_CACHE_MAX_RECORDS = 50_000
const VERSION = 1

/** What a memory file's reading says, apart from its path (memory-folder-scan.ts `textInfo`). */
export interface MemoryFacts {
  readonly role: MemoryFileInfo['role']
  readonly lines: number
  readonly bytes: number
  readonly frontmatter: MemoryFileInfo['frontmatter'] | null
  readonly heading: string | null
}

type HeadFacts = Omit<TranscriptHeadRead, 'problem' | 'isFile'>

type ScanRecord =
  | {
      readonly kind: 'head'
      readonly path: string
      readonly id: Identity
      readonly head: HeadFacts
    }
  | {
      readonly kind: 'memory'
      readonly path: string
      readonly id: Identity
      readonly memory: MemoryFacts
    }

/** One scan's use of the kept readings: look up, keep, then `finish` saves what it saw. */
export interface ScanCacheSession {
  /** The kept head of a listed transcript, when the file is unchanged; else null. */
  head(path: string): Promise<TranscriptHeadRead | null>
  keepHead(path: string, id: Identity, read: TranscriptHeadRead): void
  /**
   * The kept facts of a listed memory file in this role, when the file is unchanged, with the
   * identity they were believed for; else null.
   */
  memory(
    path: string,
    role: MemoryFacts['role'],
  ): Promise<{ readonly facts: MemoryFacts; readonly id: Identity } | null>
  keepMemory(path: string, id: Identity, facts: MemoryFacts): void
  /** Make what this scan saw the readings the next scan of this cache object starts from. */
  publish(): void
  /** Publish, then save to the state folder; problems saving are returned, never thrown. */
  finish(): Promise<Problem[]>
  /** Readings answered from the cache, and files read. */
  readonly counts: { hits: number; misses: number }
}

export interface ScanCache {
  begin(claudeHome: string): Promise<ScanCacheSession>
}

const isStr = (v: unknown): v is string => typeof v === 'string'
const isStrOrNull = (v: unknown): boolean => v === null || typeof v === 'string'
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function isHeadFacts(h: unknown): h is HeadFacts {
  if (!isObj(h)) return false
  return (
    isStrOrNull(h.cwd) &&
    isStrOrNull(h.sessionId) &&
    isStrOrNull(h.gitBranch) &&
    isStrOrNull(h.firstTimestamp) &&
    isCount(h.badLines) &&
    isCount(h.linesRead) &&
    isCount(h.bytesRead) &&
    typeof h.cut === 'boolean' &&
    isCount(h.size) &&
    typeof h.mtimeMs === 'number' &&
    Number.isFinite(h.mtimeMs)
  )
}

const FRONTMATTER_KEYS = new Set(['name', 'description', 'type'])

function isFrontmatter(f: unknown): boolean {
  if (f === null) return true
  if (!isObj(f)) return false
  // A loop, not Object.entries: this runs for each of ~8,000 records at every load.
  for (const k in f) {
    if (!Object.hasOwn(f, k)) continue
    if (!FRONTMATTER_KEYS.has(k)) return false
    const v = f[k]
    if (v !== undefined && !isStr(v)) return false
  }
  return true
}

function isMemoryFacts(m: unknown): m is MemoryFacts {
  if (!isObj(m)) return false
  return (
    (m.role === 'index' || m.role === 'topic') &&
    isCount(m.lines) &&
    isCount(m.bytes) &&
    isFrontmatter(m.frontmatter) &&
    isStrOrNull(m.heading)
  )
}

function isScanRecord(r: unknown): r is ScanRecord {
  if (!isObj(r) || !isStr(r.path) || !isStr(r.id)) return false
  if (r.kind === 'head') return isHeadFacts(r.head)
  return r.kind === 'memory' && isMemoryFacts(r.memory)
}

/**
 * Records are keyed by path alone (a transcript and a memory file never share one; a record of
 * the other kind is a miss): joining kind and path made a new string per record at every load.
 */
const pathOf = (r: ScanRecord): string => r.path

/** The identity of a plain file at `path` (a symlink is never one), or null. */
async function plainIdentity(path: string): Promise<Identity | null> {
  await yieldIfSliceUsed()
  try {
    const st = lstatSync(path)
    return st.isFile() ? statsIdentity(st) : null
  } catch {
    return null
  }
}

/** A head as the reader returns it, from kept facts (the same fields, in the same order). */
function headFrom(facts: HeadFacts): TranscriptHeadRead {
  return {
    cwd: facts.cwd,
    sessionId: facts.sessionId,
    gitBranch: facts.gitBranch,
    firstTimestamp: facts.firstTimestamp,
    badLines: facts.badLines,
    linesRead: facts.linesRead,
    problem: null,
    bytesRead: facts.bytesRead,
    isFile: true,
    cut: facts.cut,
    size: facts.size,
    mtimeMs: facts.mtimeMs,
  }
}

/** The scan cache of one state folder: one JSON file per Claude home. */
export function createScanCache(stateDir: string): ScanCache {
  const records = new RecordsCache<ScanRecord>({
    version: VERSION,
    max: 4,
    fields: { key: 'claudeHome', records: 'files' },
    isRecord: isScanRecord,
    pathOf,
  })
  // The last published readings per home: a scan that starts before the last one's save
  // (the back end saves late, off the window's first load) still finds them.
  const published = new Map<string, ReadonlyMap<string, ScanRecord>>()
  return {
    async begin(claudeHome) {
      const name = createHash('sha256').update(claudeHome).digest('hex').slice(0, 16)
      const file = join(stateDir, 'scan-cache', `${name}.json`)
      const loadProblems: Problem[] = []
      const kept = published.get(claudeHome) ?? (await records.load(file, claudeHome, loadProblems))
      const seen = new Map<string, ScanRecord>()
      const counts = { hits: 0, misses: 0 }
      const lookup = async (
        kind: ScanRecord['kind'],
        path: string,
        fits: (r: ScanRecord) => boolean = () => true,
      ): Promise<ScanRecord | null> => {
        const r = kept.get(path)
        if (r === undefined || r.kind !== kind || !fits(r)) return null
        if ((await plainIdentity(path)) !== r.id) return null
        seen.set(path, r)
        counts.hits++
        return r
      }
      const keep = (r: ScanRecord): void => {
        counts.misses++
        if (seen.size < SCAN_CACHE_MAX_RECORDS) seen.set(r.path, r)
      }
      return {
        counts,
        async head(path) {
          const r = await lookup('head', path)
          return r?.kind === 'head' ? headFrom(r.head) : null
        },
        keepHead(path, id, read) {
          if (read.problem !== null || !read.isFile) return
          const { problem: _p, isFile: _f, ...head } = read
          keep({ kind: 'head', path, id, head })
        },
        async memory(path, role) {
          const r = await lookup(
            'memory',
            path,
            (k) => k.kind === 'memory' && k.memory.role === role,
          )
          return r?.kind === 'memory' ? { facts: r.memory, id: r.id } : null
        },
        keepMemory(path, id, memory) {
          keep({ kind: 'memory', path, id, memory })
        },
        publish() {
          published.set(claudeHome, seen)
        },
        async finish() {
          published.set(claudeHome, seen)
          const unchanged =
            seen.size === kept.size && [...seen].every(([k, r]) => kept.get(k) === r)
          if (unchanged) return loadProblems
          const problems = [...loadProblems]
          await records.save(file, claudeHome, [...seen.values()], problems)
          return problems
        },
      }
    },
  }
}
