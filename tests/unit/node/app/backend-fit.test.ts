/**
 * "Fit under the cutoff" and restore previews through the real back end (issue 15 items 8 and
 * 2): inputs read from a fixture home, the plan applied through applyPlan as one undoable
 * change, the audit's verdicts offered only while the index is as the audit saw it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Backend } from '../../../../src/node/app/backend'
import { NO_AUDIT, OLD_AUDIT } from '../../../../src/node/edits/fit-inputs'
import { createFixtureHome, type FixtureHome } from '../../../helpers/fixture-home'
import { realMemory } from '../../../helpers/real-memory'
import { fixtureBackend } from '../../../helpers/test-backend'

describe('fitPlan and previewRestore in the back end', () => {
  let f: FixtureHome
  let api: Backend
  let index: string
  const real = realMemory()

  beforeEach(async () => {
    f = createFixtureHome()
    for (const file of ['note-1.md', 'note-2.md', 'note-3.md', 'note-4.md', 'note-5.md'])
      rmSync(join(f.memoryDir, file))
    index = join(f.memoryDir, 'MEMORY.md')
    writeFileSync(index, real.text)
    for (const [name, text] of real.topics) writeFileSync(join(f.memoryDir, name), text)
    api = await fixtureBackend(f)
  })
  afterEach(async () => {
    await api.dispose()
    f.cleanup()
  })

  it('plans from disk, applies as one change, and undoing its writes puts every byte back', async () => {
    const fit = await api.fitPlan(index, null)
    expect(fit.categories.find((c) => c.category === 'judged')?.note).toBe(NO_AUDIT)
    expect(fit.before.limitHit).toBe('lines')
    expect(fit.after.firstUnloadedLine).toBe(null)
    const files = fit.plan.changes.map((c) => c.path)
    expect(files[0]).toBe(index)
    const out = await api.applyPlan(fit.plan.changes, fit.plan.title)
    expect(out.kind).toBe('applied')
    expect(readFileSync(index, 'utf8')).toBe(fit.plan.changes[0].after)
    const cut = await api.cutoff(index)
    expect(cut.loadedLines).toBe(fit.after.loadedLines)
    expect(cut.loadedChars).toBe(fit.after.loadedChars)
    // Undo each written file (newest first): the index is as it was.
    for (const o of [...out.outcomes].reverse()) {
      if (o.kind === 'written') expect((await api.undo(o.operationId)).kind).toBe('written')
    }
    expect(readFileSync(index, 'utf8')).toBe(real.text)
  })

  it('offers judged notes once an audit has seen this index, and not after it changed', async () => {
    await api.audit(f.memoryDir, f.repo)
    const fit = await api.fitPlan(index, null)
    const judged = fit.categories.find((c) => c.category === 'judged')
    expect(judged?.available).toBe(true)
    expect(judged?.note).toBe(
      'The last audit judged no entry of this index stale or wrong from the start.',
    )
    writeFileSync(index, `${real.text}- [Late](late.md) — appended\n`)
    const later = await api.fitPlan(index, null)
    expect(later.categories.find((c) => c.category === 'judged')?.note).toBe(OLD_AUDIT)
  })

  it('refuses a file that is not a MEMORY.md', async () => {
    await expect(api.fitPlan(join(f.memoryDir, 'topic-1.md'), null)).rejects.toThrow(
      /is not a MEMORY.md/,
    )
  })

  it('previews a restore: where it goes, that it will not load, and above the cutoff', async () => {
    const line = '- [Lost](lost.md) — removed by a parallel session'
    const here = await api.previewRestore(f.memoryDir, index, line, 'in-place')
    expect(here.line).toBe(250)
    expect(here.loads).toBe(false)
    expect(here.cutoffLine).toBe(201)
    const up = await api.previewRestore(f.memoryDir, index, line, 'above-cutoff')
    expect(up.loads).toBe(true)
    expect(up.line).toBeLessThanOrEqual(200)
    expect(up.falls.length).toBe(1)
    const out = await api.applyPlan(up.plan.changes, up.plan.title)
    expect(out.kind).toBe('applied')
    expect((await api.cutoff(index)).entries.find((e) => e.title === 'Lost')?.loaded).toBe(true)
  })
})
