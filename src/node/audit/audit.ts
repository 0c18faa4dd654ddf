/**
 * `audit`: check every note of a memory folder (and of instruction files) against
 * the code it names (docs/cli.md §7 `audit`, docs/memory-rules.md §6). Reads the notes
 * (load-notes.ts), gathers repository facts in a few batched git runs (prepare-notes.ts),
 * then judges each note (judge-notes.ts) with the pure rules of src/core/audit.
 */
import { flushKeptSearches } from '../git/kept-searches'
import { withWorkTreeDeltas } from '../git/work-tree-delta'
import type { AuditResult, Problem, Verdict } from '../../shared/model'
import type { RepoState } from '../git/history'
import { cacheKey, type Armed, type AuditFactsCache } from './audit-cache'
import { loadNotes, type Loaded } from './load-notes'
import { judgeAll, type Judged, type WrittenAtProvider } from './judge-notes'
import { prepare, type Prepared } from './prepare-notes'
import { cutOffsText, gatheringCutOffs } from '../git/cut-offs'

export interface AuditOptions {
  readonly memoryDir: string
  /** The repository (or plain folder) the notes describe; null checks nothing. */
  readonly repo: string | null
  readonly instructionFiles?: readonly string[]
  readonly writtenAtFor?: WrittenAtProvider
  readonly signal?: AbortSignal
  readonly onProgress?: (done: number, total: number) => void
  /** Keep this audit's repository facts for `noteDiffs` (the window's click on a note). */
  readonly cache?: AuditFactsCache
}

/** The contract's result plus the problems met on the way (unreadable files, git failures). */
export interface AuditReport extends AuditResult {
  readonly problems: readonly Problem[]
}

/** Check every note of a memory folder (and instruction files) against the repository. */
export async function auditMemory(opts: AuditOptions): Promise<AuditReport> {
  const { signal, onProgress } = opts
  signal?.throwIfAborted()
  const loaded = await loadNotes(opts.memoryDir, opts.instructionFiles ?? [])
  const phases = 5
  const total = phases + loaded.notes.length
  let done = 0
  const step = (): void => {
    done++
    onProgress?.(done, total)
  }
  onProgress?.(0, total)
  // With a cache, the work tree is watched from the moment the repository is open, and the
  // facts are kept if nothing changed until the audit ended (AuditFactsCache).
  const { cache } = opts
  let armed: Armed | null = null
  const arm = (state: RepoState): void => {
    armed = cache?.arm(state) ?? null
  }
  let ran: { prepared: Prepared; loaded: Loaded; memoryDir: string } | null = null
  let judged: Judged[]
  let late = ''
  try {
    // The work tree's searches start from HEAD's kept ones (node/git/work-tree-delta.ts).
    const gathered = await gatheringCutOffs(() =>
      withWorkTreeDeltas(async () => {
        const prepared = await prepare(loaded, opts.repo, step, signal, undefined, arm)
        while (done < phases) step()
        return { prepared, judged: await judgeAll(prepared, opts.writtenAtFor, step, signal) }
      }),
    )
    const { prepared } = gathered.value
    judged = gathered.value.judged
    if (gathered.cutOffs.length > 0) late = cutOffsText(gathered.cutOffs)
    ran = { prepared, loaded, memoryDir: opts.memoryDir }
    // A run cut short keeps what its finished searches found; an aborted one keeps nothing.
    await flushKeptSearches()
  } finally {
    const held = armed as Armed | null // set inside arm(), which the type checker does not follow
    if (cache && held) cache.done(cacheKey(opts.memoryDir, opts.repo), held, ran)
  }
  const { prepared } = ran
  // A search cut off by its time limit answered nothing: a fresh note may hide a finding.
  if (late) judged = judged.map((j) => (j.note.verdict === 'fresh' ? withLate(j, late) : j))
  cache?.keepResult(
    cacheKey(opts.memoryDir, opts.repo),
    prepared.facts && prepared.state ? prepared.facts.root : null,
    loaded,
    judged.map((j) => j.note),
  )
  const summary: Record<Verdict, number> = {
    fresh: 0,
    suspect: 0,
    stale: 0,
    'never-matched': 0,
    unverifiable: 0,
  }
  for (const j of judged) summary[j.note.verdict]++
  return {
    repo: prepared.facts ? prepared.facts.root : null,
    notes: judged.map((j) => j.note),
    summary,
    problems: late
      ? [
          ...prepared.problems,
          { path: prepared.facts?.root ?? opts.memoryDir, reason: lateProblem(late) },
        ]
      : prepared.problems,
  }
}

const withLate = (j: Judged, late: string): Judged => ({
  ...j,
  note: {
    ...j.note,
    reasons: [...j.note.reasons, `not every check finished (${late}): this note may not be fresh`],
  },
})

const LATE_TAIL =
  'what those searches would have found is missing, so fresh notes carry a reason (run the audit again on a less busy machine)'
const lateProblem = (late: string): string => `${late}; ${LATE_TAIL}`

/** Whether an audit had a search cut off by its time limit: its verdicts are not to be kept. */
export const cutShort = (r: AuditResult): boolean =>
  (r.problems ?? []).some((p) => p.reason.endsWith(LATE_TAIL))
