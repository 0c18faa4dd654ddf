/**
 * The audits of the window, one per project (memory folder + repository), shared by the
 * sidebar, the Notes tab and the Review queue (issue 15 items 4 and 7). An audit runs once
 * per change: opening a tab asks the back end for its change token, and only a different
 * token starts a new audit job; the job reports n of N notes and can be cancelled. A change
 * on disk reaches it through the sidebar, which checks the token of a changed folder again
 * (this store opens no event stream of its own: each stream holds one of the browser's six
 * connections to `serve`).
 */
import { useEffect, useSyncExternalStore } from 'react'
import type { AuditView } from '../../shared/api'
import { getApi } from '../api/api-client'

export interface AuditEntry {
  /** The last audit that finished (kept while a new one runs). */
  readonly view: AuditView | null
  /** The audit in flight: its job and n of N notes (total 0 until the notes are counted). */
  readonly running: {
    readonly jobId: string | null
    readonly done: number
    readonly total: number
  } | null
  readonly error: string | null
  /** The person cancelled the last audit. */
  readonly cancelled: boolean
}

const EMPTY: AuditEntry = { view: null, running: null, error: null, cancelled: false }
/** How often a running job is asked for its progress. */
const POLL_MS = 150

const entries = new Map<string, AuditEntry>()
const inFlight = new Map<string, Promise<AuditView | null>>()
const listeners = new Set<() => void>()

export const auditKey = (memoryDir: string, repo: string | null): string =>
  `${memoryDir}\0${repo ?? ''}`

function update(key: string, patch: Partial<AuditEntry>): void {
  entries.set(key, { ...(entries.get(key) ?? EMPTY), ...patch })
  for (const l of listeners) l()
}

export function auditEntry(memoryDir: string, repo: string | null): AuditEntry {
  return entries.get(auditKey(memoryDir, repo)) ?? EMPTY
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * The project's audit: the kept one when the back end's token says nothing changed, else a new
 * job. `force`: ask the back end even when the token is the same (after a verify or an edit:
 * the back end then reuses its audit and reads the verifications again). Joins a run in flight.
 */
export function ensureAudit(
  memoryDir: string,
  repo: string | null,
  force = false,
): Promise<AuditView | null> {
  const key = auditKey(memoryDir, repo)
  const running = inFlight.get(key)
  if (running && !force) return running
  const api = getApi()
  const run = (async (): Promise<AuditView | null> => {
    if (running) await running.catch(() => null)
    const kept = entries.get(key)?.view ?? null
    if (!force && kept) {
      const token = await api.auditToken(memoryDir, repo)
      if (token === kept.token) return kept
    }
    update(key, { running: { jobId: null, done: 0, total: 0 }, error: null, cancelled: false })
    const { jobId } = await api.startAudit(memoryDir, repo)
    update(key, { running: { jobId, done: 0, total: 0 } })
    for (;;) {
      const s = await api.auditJob(jobId)
      if (s.state === 'running') {
        if (entries.get(key)?.running?.jobId !== jobId) return null // cancelled here
        update(key, { running: { jobId, done: s.done, total: s.total } })
        await sleep(POLL_MS)
        continue
      }
      if (s.state === 'done') {
        update(key, { view: s.view, running: null, error: null })
        return s.view
      }
      if (s.state === 'cancelled') {
        update(key, { running: null, cancelled: true })
        return null
      }
      update(key, { running: null, error: `Audit of ${memoryDir} failed: ${s.message}` })
      return null
    }
  })()
    .catch((err: Error) => {
      update(key, { running: null, error: `Audit of ${memoryDir} failed: ${err.message}` })
      return null
    })
    .finally(() => {
      if (inFlight.get(key) === run) inFlight.delete(key)
    })
  inFlight.set(key, run)
  return run
}

/** Stop the project's audit in flight; the last finished one stays shown. */
export function cancelAudit(memoryDir: string, repo: string | null): void {
  const key = auditKey(memoryDir, repo)
  const jobId = entries.get(key)?.running?.jobId
  update(key, { running: null, cancelled: true })
  inFlight.delete(key)
  if (jobId)
    void getApi()
      .cancelAudit(jobId)
      .catch(() => undefined)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The project's last finished audit, kept up to date; never starts one (the sidebar's counts). */
export function useAuditView(memoryDir: string | null, repo: string | null): AuditView | null {
  return useSyncExternalStore(subscribe, () =>
    memoryDir ? auditEntry(memoryDir, repo).view : null,
  )
}

/** The project's audit entry, kept up to date; audits (or checks the token) when first shown. */
export function useAudit(memoryDir: string | null, repo: string | null): AuditEntry {
  const entry = useSyncExternalStore(subscribe, () =>
    memoryDir ? auditEntry(memoryDir, repo) : EMPTY,
  )
  useEffect(() => {
    if (memoryDir) void ensureAudit(memoryDir, repo)
  }, [memoryDir, repo])
  return entry
}

/** "Checked 120 of 4,000 notes", or what the audit is doing before it counted them. */
export function progressText(running: NonNullable<AuditEntry['running']>): string {
  if (running.total === 0) return 'Reading the notes and the repository…'
  const f = new Intl.NumberFormat()
  return `Checked ${f.format(running.done)} of ${f.format(running.total)} notes`
}
