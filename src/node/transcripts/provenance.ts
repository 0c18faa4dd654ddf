/**
 * Who wrote each memory note, from the transcripts of every project folder (docs/memory-rules.md §1,
 * §5): worktree sessions keep their transcripts in their own project folder while their memory
 * writes land in the main repository's memory folder, so all folders are read. The report of
 * each memory file is kept on disk (cache/persistent-cache.ts) and reused while its history and
 * the file are unchanged.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { Problem } from '../../shared/model'
import { findLostLines, type ReplayStep, type StepOutcome } from '../../core/transcripts/replay'
import { RecordsCache } from '../cache/persistent-cache'
import { contentIdentity } from '../cache/file-identity'
import { mapLimited } from '../jobs/concurrency'
import { readTextFile } from '../fs/safe-read'
import { collect } from './provenance-collect'
import type {
  Call,
  FileHistory,
  LostLineInfo,
  ProvenanceFileInfo,
  ProvenanceOptions,
  ProvenanceReport,
  ProvenanceWriteInfo,
} from './provenance-types'
import { syncSliceUsed, yieldToLoop } from './stream'

export type {
  LineAttribution,
  LineAttributionResult,
  LostLineInfo,
  ProvenanceFileInfo,
  ProvenanceOptions,
  ProvenanceReport,
  ProvenanceStats,
  ProvenanceWriteInfo,
} from './provenance-types'
export { lineAttribution, lineAttributions, writtenAtProvider } from './line-attribution'

/** Memory files read at once for the report (only those with recorded writes are read). */
const MEMORY_READ_CONCURRENCY = 16

/**
 * Provenance of every memory file in the target folder (or in every `<claudeHome>/projects/*\/memory/`
 * when none is given): its writes in time order and the lines parallel sessions lost.
 */
export async function provenance(options: ProvenanceOptions): Promise<ProvenanceReport> {
  const c = await collect(options, null)
  const paths = [...new Set([...c.histories.keys(), ...c.existing])].sort()
  // In its own subfolder: the cache folder's top level holds the transcript indexes.
  const reportDir =
    options.cacheDir !== undefined ? join(options.cacheDir, 'provenance-reports') : null
  const reportName = c.memoryDirs.length > 0 ? hashText(c.memoryDirs.join('\n')) : 'home'
  const cachePath =
    reportDir !== null && c.signature !== ''
      ? join(reportDir, `report-v${REPORT_CACHE_VERSION}-${reportName}.json`)
      : null
  const cached = cachePath
    ? await reportFiles.load(cachePath, c.signature)
    : new Map<string, CachedFile>()
  const fresh = new Map<string, CachedFile>()
  // Only files with recorded writes need their text (to find lost lines); for the others the
  // folder listing already says they exist (issue 7: reading all 8,000 was 49% of a warm run).
  const files: { info: ProvenanceFileInfo; problem: Problem | null }[] = new Array(paths.length)
  const misses: { index: number; path: string; key: string | null; history: FileHistory }[] = []
  for (let index = 0; index < paths.length; index++) {
    if (syncSliceUsed()) await yieldToLoop()
    const path = paths[index]
    const history = c.histories.get(path)
    if (!history) {
      files[index] = {
        info: { path, writes: [], lost: [], exists: true, drifts: 0 },
        problem: null,
      }
      continue
    }
    // Same histories and the file unchanged since the last report: its result is reused.
    const key = contentIdentity(path)
    const hit = key !== null ? cached.get(path) : undefined
    if (hit && hit.key === key) {
      fresh.set(path, hit)
      files[index] = { info: hit.info, problem: hit.problem }
    } else misses.push({ index, path, key, history })
  }
  await mapLimited(misses, MEMORY_READ_CONCURRENCY, async ({ index, path, key, history }) => {
    const current = await readTextFile(path, { lenient: true })
    const problem =
      !current.ok && current.problem !== 'missing' ? { path, reason: current.reason } : null
    const writes = history.calls.map((x, i) =>
      writeInfo(x, history.steps[i], history.replay.outcomes[i]),
    )
    const lost = findLostLines(history.replay, current.ok ? current.text : null).map(
      (l): LostLineInfo => ({
        text: l.text,
        addedBy: l.addedBy,
        removedBy: l.removedBy,
        addedAt: history.steps[l.addedStep].timestamp,
        removedAt: history.steps[l.removedStep].timestamp,
        removedByTool: history.steps[l.removedStep].input.tool,
        exact: l.exact,
      }),
    )
    const info = { path, writes, lost, exists: current.ok, drifts: history.replay.drifts }
    // The key is taken before the read: a file changed meanwhile is recomputed next time.
    if (key !== null) fresh.set(path, { key, info, problem })
    files[index] = { info, problem }
  })
  for (const f of files) if (f.problem) c.problems.push(f.problem)
  if (cachePath && (misses.length > 0 || fresh.size !== cached.size))
    await reportFiles.save(cachePath, c.signature, [...fresh.values()], c.problems)
  return {
    files: files.map((f) => f.info),
    memoryDirs: c.memoryDirs,
    stats: c.stats,
    problems: c.problems,
  }
}

/** Bump when a report file's result or the cache layout changes. */
const REPORT_CACHE_VERSION = 1

interface CachedFile {
  /** `contentIdentity` of the memory file when its result was computed. */
  readonly key: string
  readonly info: ProvenanceFileInfo
  readonly problem: Problem | null
}

function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16)
}

/**
 * The per-file results of the last report of each set of memory folders, valid for the
 * signature of the histories they were built from.
 */
const reportFiles = new RecordsCache<CachedFile>({
  version: REPORT_CACHE_VERSION,
  max: 8,
  fields: { key: 'signature', records: 'files' },
  isRecord: (f): f is CachedFile => {
    const r = f as Partial<CachedFile> | null
    return typeof r?.key === 'string' && typeof r.info?.path === 'string'
  },
  pathOf: (f) => f.info.path,
})

function writeInfo(x: Call, step: ReplayStep, outcome: StepOutcome): ProvenanceWriteInfo {
  return {
    sessionId: x.call.sessionId,
    timestamp: x.call.timestamp,
    cwd: x.call.cwd,
    gitBranch: x.call.gitBranch,
    tool: x.call.input.tool,
    transcript: x.transcript,
    // A call without a result counts as written only when a later anchor proved it took effect.
    ok: step.status === 'ok' || outcome.kind === 'applied',
    toolUseId: x.call.toolUseId,
    agentId: x.call.agentId,
    status: step.status,
    replay: outcome.kind,
    reason: outcome.kind === 'applied' ? null : outcome.reason,
  }
}
