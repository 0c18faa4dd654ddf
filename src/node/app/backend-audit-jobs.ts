/**
 * The audit as the window runs it (issue 15 item 7): one audit per change, as a job with
 * progress (n of N notes) and a cancel, its result kept with a change token so switching
 * between the Notes and Review queue tabs does not audit again. Also the verification that
 * overrides a verdict (item 3): verifyNote keeps what the last audit found for the note.
 *
 * The token is the memory folder's files (name, size, modification time) and the repository's
 * HEAD, index and work-tree watcher (AuditFactsCache); when the work tree cannot be watched the
 * token is never equal twice, so the audit runs again rather than show an old answer.
 */
import { randomUUID } from 'node:crypto'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AuditResult, NoteStampStatus } from '../../shared/model'
import type { CuratorApi } from '../../shared/api-contract'
import type { AuditJobStatus, AuditView } from '../../shared/audit-view'
import { referenceState, reviewNotes } from '../../core/audit/note-review'
import { openRepo } from '../git/history'
import { BoundedCache } from '../cache/bounded-cache'
import type { AuditFactsCache } from '../audit/audit-cache'
import { cacheKey } from '../audit/audit-cache'
import { createNoteStamps, type KeyValueStore } from '../edits/note-stamps'
import { auditMemory, cutShort } from '../audit/audit'
import type { WrittenAtProvider } from '../audit/judge-notes'
import { BackendError } from './errors'

/** What audit.ts counts before the notes (progress steps that are not notes). */
const AUDIT_PHASES = 5
/** Jobs remembered after they end (the window reads each once). */
const MAX_JOBS = 32
/** Marks a token taken while the work tree was not watched (never equal to another). */
const UNKNOWN = '\0unknown:'

export interface AuditJobDeps {
  /** Check the arguments against the roots; the folder and repository as the audit takes them. */
  resolve(memoryDir: string, repo: string | null): Promise<{ dir: string; repo: string | null }>
  /** Check a note file's path against the roots. */
  resolveFile(file: string): Promise<string>
  /** "When was the note written", per memory folder (the back end keeps one provider each). */
  writtenAt(dir: string): WrittenAtProvider
  readonly stampStore: KeyValueStore
  readonly facts: AuditFactsCache
  /** Told of every fresh audit (kept for the SessionStart hook, search and the fit plan). */
  onAudit?(dir: string, audit: AuditResult): Promise<unknown>
}

interface Job {
  status: AuditJobStatus
  readonly abort: AbortController
}

/** The handler-table methods this module implements (backend.ts spreads them in). */
export type AuditJobs = Pick<
  CuratorApi,
  'auditToken' | 'startAudit' | 'auditJob' | 'cancelAudit' | 'verifyNote'
>

/** The memory folder's Markdown files as they are now (name, size, modification time). */
async function memoryToken(dir: string): Promise<string> {
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort()
  } catch {
    return 'unreadable'
  }
  const parts = await Promise.all(
    names.map(async (n) => {
      const s = await stat(join(dir, n)).catch(() => null)
      return s ? `${n}:${s.size}:${s.mtimeMs}` : `${n}:gone`
    }),
  )
  return parts.join('|')
}

export function createAuditJobs(deps: AuditJobDeps): AuditJobs {
  const jobs = new BoundedCache<string, Job>(MAX_JOBS)
  const views = new BoundedCache<string, AuditView>(8)
  let nonce = 0
  const stampStore = createNoteStamps(deps.stampStore)

  async function token(dir: string, repo: string | null): Promise<string> {
    const mem = await memoryToken(dir)
    if (repo === null) return `${mem}\0none`
    const r = await openRepo(repo)
    const seen = r.ok ? deps.facts.workTreeChanges(r.state.root) : null
    if (!r.ok || r.state.stamp === null || seen === null)
      return `${mem}${UNKNOWN}${++nonce}:${Date.now()}`
    return `${mem}\0${r.state.stamp}:${seen}`
  }

  async function view(
    audit: AuditResult,
    dir: string,
    repo: string | null,
    tok: string,
  ): Promise<AuditView> {
    const stamps: NoteStampStatus[] = await stampStore.listStamps(dir, repo).catch(() => [])
    const { reviews, summary } = reviewNotes(audit.notes, stamps)
    return { audit, stamps, reviews, summary, token: tok }
  }

  function jobOf(jobId: string): Job {
    const job = jobs.peek(jobId)
    if (!job) throw new BackendError('not-found', `no audit job ${jobId.slice(0, 80)}`)
    return job
  }

  return {
    async auditToken(memoryDir, repo) {
      const a = await deps.resolve(memoryDir, repo)
      return token(a.dir, a.repo)
    },
    async startAudit(memoryDir, repo) {
      const a = await deps.resolve(memoryDir, repo)
      const key = cacheKey(a.dir, a.repo)
      const jobId = randomUUID()
      const job: Job = {
        status: { state: 'running', done: 0, total: 0 },
        abort: new AbortController(),
      }
      jobs.set(jobId, job)
      void (async () => {
        const before = await token(a.dir, a.repo)
        const kept = views.peek(key)
        // Nothing changed since the last audit, which finished every search: its verdicts stand,
        // the stamps are read afresh.
        const audit =
          kept && kept.token === before && !cutShort(kept.audit)
            ? kept.audit
            : await auditMemory({
                memoryDir: a.dir,
                repo: a.repo,
                writtenAtFor: deps.writtenAt(a.dir),
                cache: deps.facts,
                signal: job.abort.signal,
                onProgress: (done, total) => {
                  if (job.status.state !== 'running') return
                  const notes = Math.max(0, total - AUDIT_PHASES)
                  const doneNotes = Math.min(notes, Math.max(0, done - AUDIT_PHASES))
                  job.status = { state: 'running', done: doneNotes, total: notes }
                },
              })
        job.abort.signal.throwIfAborted()
        if (audit !== kept?.audit) await deps.onAudit?.(a.dir, audit)
        // The audit starts watching the work tree; a token taken before that is read again.
        const tok = before.includes(UNKNOWN) ? await token(a.dir, a.repo) : before
        const v = await view(audit, a.dir, a.repo, tok)
        views.set(key, v)
        if (job.status.state === 'running') job.status = { state: 'done', view: v }
      })().catch((err: unknown) => {
        if (job.status.state !== 'running') return
        job.status = job.abort.signal.aborted
          ? { state: 'cancelled' }
          : { state: 'failed', message: err instanceof Error ? err.message : String(err) }
      })
      return { jobId }
    },
    async auditJob(jobId) {
      return jobOf(jobId).status
    },
    async cancelAudit(jobId) {
      const job = jobs.peek(jobId)
      if (!job || job.status.state !== 'running') return
      job.status = { state: 'cancelled' }
      job.abort.abort()
    },
    async verifyNote(memoryDir, repo, noteFile, line) {
      const a = await deps.resolve(memoryDir, repo)
      const file = await deps.resolveFile(noteFile)
      // What the last audit found for this note's references: the verification lapses when it changes.
      const note = views
        .peek(cacheKey(a.dir, a.repo))
        ?.audit.notes.find((n) => n.file === file && n.line === line)
      return stampStore.verifyNote(
        a.dir,
        a.repo,
        file,
        line,
        note ? referenceState(note.references) : undefined,
      )
    },
  }
}
