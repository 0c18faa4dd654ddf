/**
 * The window's audit as a job (issue 15 items 3 and 7), on the scripted audit fixture: progress
 * in notes, one audit per change (the token), cancel, and a verification that overrides a stale
 * verdict until the code the note rests on moves.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuditJobStatus, AuditView } from '../../../../src/shared/api'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { createAuditFixture, type AuditFixture } from '../../../helpers/audit-fixture'
import { backendConfigFor } from '../../../helpers/backend-config'

let fx: AuditFixture
let backend: Backend

beforeEach(async () => {
  fx = createAuditFixture()
  backend = await createBackend(backendConfigFor(fx))
})
afterEach(async () => {
  await backend.dispose()
  fx.cleanup()
})

/** Poll a job to its end, keeping every status seen. */
async function finish(jobId: string): Promise<{ end: AuditJobStatus; seen: AuditJobStatus[] }> {
  const seen: AuditJobStatus[] = []
  for (;;) {
    const s = await backend.auditJob(jobId)
    seen.push(s)
    if (s.state !== 'running') return { end: s, seen }
    await new Promise((r) => setTimeout(r, 5))
  }
}

async function auditView(): Promise<AuditView> {
  const { jobId } = await backend.startAudit(fx.memoryDir, fx.repo)
  const { end } = await finish(jobId)
  if (end.state !== 'done') throw new Error(`audit ended ${end.state}`)
  return end.view
}

describe('audit jobs', () => {
  it('report progress in notes, and the summary counts every note once', async () => {
    const { jobId } = await backend.startAudit(fx.memoryDir, fx.repo)
    const { end, seen } = await finish(jobId)
    expect(end.state).toBe('done')
    const running = seen.filter((s) => s.state === 'running')
    for (const s of running) if (s.state === 'running') expect(s.done).toBeLessThanOrEqual(s.total)
    if (end.state !== 'done') return
    expect(end.view.reviews).toHaveLength(end.view.audit.notes.length)
    const counted = Object.values(end.view.summary.counts).reduce((a, b) => a + b, 0)
    expect(counted).toBe(end.view.audit.notes.length)
  })

  it('keep one audit per change: the token holds until a file moves', async () => {
    const first = await auditView()
    expect(await backend.auditToken(fx.memoryDir, fx.repo)).toBe(first.token)
    const again = await auditView()
    // Nothing changed: the same audit result comes back (not audited again).
    expect(again.audit).toBe(first.audit)
    writeFileSync(join(fx.memoryDir, 'extra.md'), '---\nname: Extra\n---\n\nA new note.\n')
    expect(await backend.auditToken(fx.memoryDir, fx.repo)).not.toBe(first.token)
    const third = await auditView()
    expect(third.audit).not.toBe(first.audit)
  })

  it('cancel stops a job; an unknown job is refused', async () => {
    const { jobId } = await backend.startAudit(fx.memoryDir, fx.repo)
    await backend.cancelAudit(jobId)
    expect((await backend.auditJob(jobId)).state).toBe('cancelled')
    await expect(backend.auditJob('00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      /no audit job/,
    )
  })

  it('verifying a stale note makes it count as verified until the code it rests on moves', async () => {
    const before = await auditView()
    const i = before.audit.notes.findIndex((n) => n.title === fx.notes.renamed)
    const n = before.audit.notes[i]
    expect(n.verdict).toBe('stale')
    const stale = before.summary.counts.stale
    await backend.verifyNote(fx.memoryDir, fx.repo, n.file, n.line)
    const after = await auditView()
    expect(after.reviews[i]).toMatchObject({ standing: 'verified', needs: null })
    expect(after.summary.counts.stale).toBe(stale - 1)
    expect(after.summary.toReview).toBe(before.summary.toReview - 1)
    // The renamed file's old path comes back: what the note rests on moved.
    writeFileSync(join(fx.repo, 'src/auth/session.ts'), 'export const back = 1\n')
    const moved = await auditView()
    const j = moved.audit.notes.findIndex((x) => x.title === fx.notes.renamed)
    expect(moved.reviews[j].verification).toBe('expired')
    expect(moved.reviews[j].standing).not.toBe('verified')
  })
})
