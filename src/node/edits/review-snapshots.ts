/**
 * Review snapshots and lost-line restore (issue 5): "what changed in this memory file since I
 * last looked, and which session wrote it", and putting back a line a parallel worktree session
 * overwrote (docs/memory-rules.md §1.5 shared memory folder, §6.4 one writer per page).
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, realpath } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { diffArrays } from 'diff'
import type { CuratorApi } from '../../shared/api-contract'
import type { Problem } from '../../shared/model'
import { applyWrite } from '../../core/transcripts/replay'
import { planLineRestore } from '../../core/memory/restore-line'
import { previewLineRestore } from '../../core/memory/restore-preview'
import { MEMORY_INDEX_NAME } from '../../core/memory/cutoff'
import { splitLines } from '../../core/text'
import type { ToolResultEvent, WriteCallEvent, WriteInput } from '../../core/transcripts/line'
import { newStoreId } from './backups'
import { describeFsError } from '../fs/fs-errors'
import { BackendError } from '../app/errors'
import { lineAttribution, provenance, type ProvenanceFileInfo } from '../transcripts/provenance'
import { hashContent, readForEdit } from './safe-write'
import { streamTranscript } from '../transcripts/stream'

export interface ReviewDeps {
  /** Our state folder: review snapshots live under it. */
  readonly stateDir: string
  readonly claudeHome: string
  /** The one safe write path (the curation module's writeFile). */
  readonly writeFile: CuratorApi['writeFile']
}

/** The part of the contract review snapshots serve. */
export type Review = Pick<
  CuratorApi,
  'markReviewed' | 'reviewDiff' | 'restoreLostLine' | 'previewRestore'
>

/** Bump when the snapshot file format changes. */
const SNAPSHOT_VERSION = 1

/** One kept snapshot: the exact bytes (base64), the time and their hash. */
interface SnapshotFile {
  readonly version: number
  readonly file: string
  readonly at: string
  readonly hash: string
  readonly bytes: string
}

export interface Snapshot {
  readonly at: string
  readonly hash: string
  readonly text: string
}

export function createReview(deps: ReviewDeps): Review {
  const snapshotsRoot = join(deps.stateDir, 'review-snapshots')
  // Shared with the backend's provenance calls, so the transcript index is read once.
  const cacheDir = join(deps.stateDir, 'provenance-cache')

  /** One folder per reviewed file, named by a hash of its absolute path. */
  const folderOf = (file: string): string =>
    join(snapshotsRoot, createHash('sha256').update(resolve(file)).digest('hex').slice(0, 24))

  async function latestSnapshot(file: string, problems: Problem[]): Promise<Snapshot | null> {
    const dir = folderOf(file)
    let names: string[]
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.json'))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        problems.push({
          path: dir,
          reason: `cannot list review snapshots: ${describeFsError(err)}`,
        })
      return null
    }
    // Names are store ids, which sort by time: the greatest is the latest (history is kept).
    for (const name of names.sort().reverse()) {
      const path = join(dir, name)
      try {
        const s = JSON.parse(await readFile(path, 'utf8')) as SnapshotFile
        if (s.version !== SNAPSHOT_VERSION || typeof s.bytes !== 'string') {
          problems.push({ path, reason: 'review snapshot in an unknown format; skipped' })
          continue
        }
        const bytes = Buffer.from(s.bytes, 'base64')
        if (hashContent(bytes) !== s.hash) {
          problems.push({ path, reason: 'review snapshot damaged (hash mismatch); skipped' })
          continue
        }
        return { at: s.at, hash: s.hash, text: decodeSnapshot(bytes) }
      } catch (err) {
        problems.push({ path, reason: `unreadable review snapshot: ${describeFsError(err)}` })
      }
    }
    return null
  }

  return {
    async markReviewed(file, hash) {
      const abs = resolve(file)
      const read = await readForEdit(abs)
      // The caller named a file that is not there (or not text): a 4xx, not an internal error.
      if (!read.ok) {
        const code = read.reason === 'no such file' ? 'not-found' : 'bad-request'
        throw new BackendError(code, `${abs}: cannot mark reviewed: ${read.reason}`)
      }
      // The bytes of the snapshot must be exactly the version the person saw.
      let bytes: Buffer
      try {
        bytes = await readFile(abs)
      } catch (err) {
        throw new Error(`${abs}: cannot read: ${describeFsError(err)}`, { cause: err })
      }
      if (read.hash !== hash || hashContent(bytes) !== hash) {
        throw new BackendError(
          'bad-request',
          `${abs} changed since you looked at it: not marked reviewed. Look at the new version and mark it again.`,
        )
      }
      const now = Date.now()
      const at = new Date(now).toISOString()
      const dir = folderOf(abs)
      const snapshot: SnapshotFile = {
        version: SNAPSHOT_VERSION,
        file: abs,
        at,
        hash,
        bytes: bytes.toString('base64'),
      }
      const name = `${newStoreId(now)}.json`
      try {
        await mkdir(dir, { recursive: true })
        await writeFileAtomic(join(dir, name), JSON.stringify(snapshot), { fsync: true })
      } catch (err) {
        throw new Error(
          `${join(dir, name)}: cannot keep the review snapshot: ${describeFsError(err)}`,
          {
            cause: err,
          },
        )
      }
      return { at, hash }
    },

    async reviewDiff(memoryDir, file) {
      const abs = resolve(file)
      const problems: Problem[] = []
      const snapshot = await latestSnapshot(abs, problems)
      const read = await readForEdit(abs)
      if (!read.ok) {
        problems.push({ path: abs, reason: read.reason })
        return { file: abs, snapshot, current: null, attributions: [], problems }
      }
      const added = addedLines(snapshot?.text ?? '', read.text)
      let owners: Awaited<ReturnType<typeof lineAttribution>>['lines'] = []
      if (added.length > 0) {
        const attr = await lineAttribution({
          claudeHome: deps.claudeHome,
          memoryDir,
          file: abs,
          cacheDir,
        })
        owners = attr.lines
        problems.push(...attr.problems)
      }
      const attributions = added.map((line) => {
        const o = owners[line - 1] ?? null
        return {
          line,
          sessionId: o?.sessionId ?? null,
          timestamp: o?.timestamp ?? null,
          gitBranch: o?.gitBranch ?? null,
          cwd: o?.cwd ?? null,
        }
      })
      return {
        file: abs,
        snapshot,
        current: { text: read.text, hash: read.hash },
        attributions,
        problems,
      }
    },

    async restoreLostLine(memoryDir, file, text, expectedHash) {
      const abs = resolve(file)
      const read = await readForEdit(abs)
      if (!read.ok) return { kind: 'error', path: abs, reason: read.reason }
      if (read.hash !== expectedHash) {
        return { kind: 'conflict', path: abs, currentHash: read.hash, currentText: read.text }
      }
      let versions: string[]
      try {
        versions = await fileVersions(deps.claudeHome, cacheDir, memoryDir, abs)
      } catch (err) {
        return {
          kind: 'error',
          path: abs,
          reason: `cannot read the file's history: ${describeFsError(err)}`,
        }
      }
      const plan = planLineRestore(read.text, text, versions)
      if (plan.kind === 'refused') return { kind: 'error', path: abs, reason: plan.reason }
      return deps.writeFile(abs, expectedHash, plan.text, 'restore lost line')
    },
    /** Where the line would go and whether it would load (issue 15 item 2); nothing is written. */
    async previewRestore(memoryDir, file, text, placement) {
      const abs = resolve(file)
      const read = await readForEdit(abs)
      if (!read.ok) throw new BackendError('not-found', `${abs}: ${read.reason}`)
      const versions = await fileVersions(deps.claudeHome, cacheDir, memoryDir, abs)
      const isIndex = basename(abs) === MEMORY_INDEX_NAME
      return previewLineRestore(
        { path: abs, text: read.text, hash: read.hash },
        text,
        versions,
        placement,
        isIndex,
      )
    },
  }
}

/**
 * 1-based lines of `current` that are not in `before`. Lines are compared as `splitLines` counts
 * them (the line numbers lineAttribution uses), so a missing final newline is no change.
 */
export function addedLines(before: string, current: string): number[] {
  const out: number[] = []
  let line = 0
  for (const part of diffArrays(splitLines(before), splitLines(current))) {
    if (part.removed) continue
    for (let i = 0; i < part.value.length; i++) {
      line++
      if (part.added) out.push(line)
    }
  }
  return out
}

/** Snapshot bytes as text, decoded like safe-read does for the common encodings. */
function decodeSnapshot(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  const text = new TextDecoder('utf-8').decode(bytes)
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/**
 * The file's successive contents as its recorded writes produced them, oldest first: the
 * provenance report names the writes that took effect, their transcripts give the inputs.
 */
async function fileVersions(
  claudeHome: string,
  cacheDir: string,
  memoryDir: string,
  file: string,
): Promise<string[]> {
  const report = await provenance({ claudeHome, memoryDir, cacheDir })
  const info = report.files.find((f) => f.path === file) ?? (await byRealPath(report.files, file))
  if (!info) return []
  const applied = info.writes.filter((w) => w.replay === 'applied')
  const ids = new Set(applied.map((w) => w.toolUseId))
  const calls = new Map<string, WriteCallEvent>()
  const results = new Map<string, ToolResultEvent>()
  for (const transcript of new Set(applied.map((w) => w.transcript))) {
    const r = await streamTranscript(transcript, { isTarget: (c) => ids.has(c.toolUseId) })
    if (r.kind === 'error') continue
    for (const e of r.events) {
      if (!ids.has(e.toolUseId)) continue
      if (e.kind === 'write-call') calls.set(e.toolUseId, e)
      else if (!results.has(e.toolUseId)) results.set(e.toolUseId, e)
    }
  }
  const versions: string[] = []
  let text: string | null = null
  for (const w of applied) {
    const call = calls.get(w.toolUseId)
    if (!call) continue
    const result = results.get(w.toolUseId) ?? null
    // An anchor (`originalFile`) is the file as it really was before the call.
    if (result?.originalFile != null && result.originalFile !== text) {
      text = result.originalFile
      versions.push(text)
    }
    const input: WriteInput = result?.applied ?? call.input
    const next = applyWrite(text, input)
    if (!next.ok) continue
    text = next.text
    versions.push(text)
  }
  return versions
}

async function byRealPath(
  files: readonly ProvenanceFileInfo[],
  file: string,
): Promise<ProvenanceFileInfo | undefined> {
  const real = await realpath(file).catch(() => file)
  for (const f of files) {
    if ((await realpath(f.path).catch(() => f.path)) === real) return f
  }
  return undefined
}
