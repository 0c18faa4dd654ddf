/**
 * An on-disk cache of the write events found in transcripts, so a second run reads only what
 * changed. Keyed by transcript path, size and mtime; grown files are read from the offset
 * already covered (transcripts are append-only), shrunk or rewritten files are read again,
 * deleted files are dropped. The file is loaded, kept in memory and saved atomically by
 * cache/persistent-cache.ts, like the provenance report.
 */
import { createHash } from 'node:crypto'
import { statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { Problem } from '../../shared/model'
import type { TranscriptEvent, WriteCallEvent } from '../../core/transcripts/line'
import { RecordsCache } from '../cache/persistent-cache'
import { mapLimited } from '../jobs/concurrency'
import { streamTranscript, syncSliceUsed, yieldToLoop } from './stream'
import {
  TRANSCRIPT_CHUNK_BYTES,
  TRANSCRIPT_INDEX_HEAD_BYTES,
  TRANSCRIPT_LINE_MAX_BYTES,
} from '../../core/limits'

/** Bump when the entry format or the event parser changes: old caches are then ignored. */
export const TRANSCRIPT_INDEX_VERSION = 1

/** What the cached events were filtered by; a different scope uses a different cache file. */
export interface IndexScope {
  /** Stable text naming the filter (e.g. the memory folders); hashed into the cache file name. */
  readonly key: string
  readonly pathNeedle: string | null
  readonly isTarget: (call: WriteCallEvent) => boolean
}

export interface IndexEntry {
  readonly path: string
  readonly size: number
  readonly mtimeMs: number
  /** Bytes covered: just after the last complete line read. */
  readonly offset: number
  readonly headLen: number
  readonly headHash: string
  readonly events: readonly TranscriptEvent[]
  /** Kept calls still waiting for their result at `offset`. */
  readonly pending: readonly string[]
}

export interface IndexStats {
  readonly files: number
  /** Transcript bytes read this run (head checks not included, see `headBytes`). */
  readonly bytesRead: number
  readonly headBytes: number
  readonly linesParsed: number
  readonly skippedLines: number
  /** Files whose size and mtime were unchanged: nothing read. */
  readonly cacheHits: number
  /** Files that grew and were read from the cached offset. */
  readonly appended: number
  /** Files read from the start (new, shrunk, rewritten, or no cache). */
  readonly fullReads: number
}

export interface IndexUpdate {
  /** One entry per readable file, in the order given. */
  readonly entries: readonly IndexEntry[]
  readonly problems: readonly Problem[]
  readonly stats: IndexStats
}

export interface IndexOptions {
  /** Every transcript to cover; cached entries of other paths are dropped (deleted files). */
  readonly files: readonly string[]
  readonly scope: IndexScope
  /** Folder for the cache file; without it nothing is cached. */
  readonly cacheDir?: string
  readonly maxLineBytes?: number
  readonly signal?: AbortSignal
  readonly onProgress?: (doneBytes: number, totalBytes: number) => void
}

/** The cache file used for a scope inside `cacheDir`. */
export function indexCachePath(cacheDir: string, scopeKey: string): string {
  const h = createHash('sha1').update(scopeKey).digest('hex').slice(0, 16)
  return join(cacheDir, `transcript-index-v${TRANSCRIPT_INDEX_VERSION}-${h}.json`)
}

type Plan =
  | { readonly kind: 'hit'; readonly entry: IndexEntry }
  | { readonly kind: 'append'; readonly entry: IndexEntry; readonly size: number }
  | { readonly kind: 'full'; readonly size: number }

/** Transcripts streamed at once: reads overlap the needle search (issue 7: 26% idle one at a time). */
export const INDEX_READ_CONCURRENCY = 4

/** Bring the index up to date for `files` and return the entries (cache read and written when `cacheDir` is set). */
export async function updateTranscriptIndex(options: IndexOptions): Promise<IndexUpdate> {
  const problems: Problem[] = []
  const cachePath = options.cacheDir ? indexCachePath(options.cacheDir, options.scope.key) : null
  const cached = cachePath
    ? await indexFiles.load(cachePath, options.scope.key, problems)
    : new Map<string, IndexEntry>()

  let headBytes = 0
  // Planned concurrently, kept in the order given (entries and problems come out as before).
  // Planned in order with synchronous stats, a slice at a time: a warm run is mostly these
  // 4,000 stats (issue 7). Only grown files need a read (their head) here.
  const plans: { path: string; plan: Plan }[] = []
  for (const path of options.files) {
    if (syncSliceUsed()) await yieldToLoop()
    let st
    try {
      st = statSync(path)
    } catch (err) {
      // A transcript deleted between listing and reading is simply gone (cleanup, docs/memory-rules.md §1.7).
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        problems.push({
          path,
          reason: `cannot stat: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        })
      }
      continue
    }
    if (!st.isFile()) {
      problems.push({ path, reason: 'not a regular file' })
      continue
    }
    const old = cached.get(path)
    if (old && old.size === st.size && old.mtimeMs === st.mtimeMs) {
      plans.push({ path, plan: { kind: 'hit', entry: old } })
    } else if (old && st.size > old.size) {
      const head = await readHead(path, old.headLen)
      headBytes += old.headLen
      const same = head !== null && hashBytes(head) === old.headHash
      plans.push({
        path,
        plan: same
          ? { kind: 'append', entry: old, size: st.size }
          : { kind: 'full', size: st.size },
      })
    } else {
      plans.push({ path, plan: { kind: 'full', size: st.size } })
    }
  }

  const totalBytes = plans.reduce((sum, { plan }) => {
    if (plan.kind === 'hit') return sum
    return sum + Math.max(0, plan.size - (plan.kind === 'append' ? plan.entry.offset : 0))
  }, 0)
  let doneBytes = 0
  let bytesRead = 0
  let linesParsed = 0
  let skippedLines = 0
  let cacheHits = 0
  let appended = 0
  let fullReads = 0
  // One reusable read buffer per worker (issue 7: a new 1 MiB buffer per file cost 15% in GC).
  const buffers: Buffer[] = []
  const chunkBytes = Math.max(
    1,
    Math.min(TRANSCRIPT_CHUNK_BYTES, options.maxLineBytes ?? TRANSCRIPT_LINE_MAX_BYTES),
  )
  const toRead = plans.filter((p) => p.plan.kind !== 'hit')
  const read = await mapLimited(
    toRead,
    INDEX_READ_CONCURRENCY,
    async ({ path, plan }, worker): Promise<IndexEntry | Problem> => {
      if (plan.kind === 'hit') return plan.entry
      const prior = plan.kind === 'append' ? plan.entry : null
      buffers[worker] ??= Buffer.allocUnsafe(chunkBytes)
      const result = await streamTranscript(path, {
        startOffset: prior?.offset ?? 0,
        pendingIds: prior?.pending ?? [],
        pathNeedle: options.scope.pathNeedle,
        isTarget: options.scope.isTarget,
        maxLineBytes: options.maxLineBytes,
        signal: options.signal,
        readBuffer: buffers[worker],
        // A full read hashes its head from its own first chunk: no second open (issue 7).
        headHashBytes: prior ? 0 : TRANSCRIPT_INDEX_HEAD_BYTES,
        onBytes: (n) => {
          doneBytes += n
          options.onProgress?.(Math.min(doneBytes, totalBytes), totalBytes)
        },
      })
      if (result.kind === 'error') return result.problem
      if (prior) appended++
      else fullReads++
      bytesRead += result.bytesRead
      linesParsed += result.linesParsed
      skippedLines += result.skippedLines
      const headLen = Math.min(result.size, TRANSCRIPT_INDEX_HEAD_BYTES)
      let headHash: string
      if (!prior) {
        headHash = result.headHash ?? ''
        if (result.headHash !== null) headBytes += headLen
      } else if (prior.headLen === headLen) headHash = prior.headHash
      else {
        // A small file that grew past its old head: the longer head is read once more.
        const head = await readHead(path, headLen)
        if (head) headBytes += headLen
        headHash = head ? hashBytes(head) : prior.headHash
      }
      return {
        path,
        size: result.size,
        mtimeMs: result.mtimeMs,
        offset: result.endOffset,
        headLen,
        headHash,
        events: prior ? [...prior.events, ...result.events] : result.events,
        pending: result.pending,
      }
    },
  )
  // Back in the order given: hits in place, read files in their turn.
  const entries: IndexEntry[] = []
  let nextRead = 0
  for (const { plan } of plans) {
    if (plan.kind === 'hit') {
      cacheHits++
      entries.push(plan.entry)
      continue
    }
    const r = read[nextRead++]
    if ('events' in r) entries.push(r)
    else problems.push(r)
  }
  options.onProgress?.(totalBytes, totalBytes)

  if (cachePath) {
    const unchanged = cacheHits === entries.length && cached.size === entries.length
    if (!unchanged) await indexFiles.save(cachePath, options.scope.key, entries, problems)
  }
  return {
    entries,
    problems,
    stats: {
      files: options.files.length,
      bytesRead,
      headBytes,
      linesParsed,
      skippedLines,
      cacheHits,
      appended,
      fullReads,
    },
  }
}

function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex')
}

/** The first `len` bytes of a file, or null when it can't be read. */
async function readHead(path: string, len: number): Promise<Buffer | null> {
  let handle
  try {
    handle = await open(path, 'r')
    const buf = Buffer.alloc(len)
    let got = 0
    while (got < len) {
      const { bytesRead } = await handle.read(buf, got, len - got, got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    return got === len ? buf : null
  } catch {
    return null
  } finally {
    await handle?.close()
  }
}

function isEntry(v: unknown): v is IndexEntry {
  if (typeof v !== 'object' || v === null) return false
  const e = v as Record<string, unknown>
  return (
    typeof e.path === 'string' &&
    typeof e.size === 'number' &&
    typeof e.mtimeMs === 'number' &&
    typeof e.offset === 'number' &&
    typeof e.headLen === 'number' &&
    typeof e.headHash === 'string' &&
    Array.isArray(e.events) &&
    Array.isArray(e.pending)
  )
}

/** Index files, one per scope in use (each holds write events, not transcripts). */
const indexFiles = new RecordsCache<IndexEntry>({
  version: TRANSCRIPT_INDEX_VERSION,
  max: 4,
  fields: { key: 'scopeKey', records: 'entries' },
  isRecord: isEntry,
  pathOf: (e) => e.path,
})
