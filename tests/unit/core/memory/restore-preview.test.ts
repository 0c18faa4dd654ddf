/** Restoring a lost line: where it goes, whether it loads, and above the cutoff (issue 15 item 2). */
import { describe, expect, it } from 'vitest'
import { computeCutoff } from '../../../../src/core/memory/cutoff'
import { previewLineRestore } from '../../../../src/core/memory/restore-preview'

const INDEX = '/m/MEMORY.md'
const entry = (i: number) => `- [E${i}](e${i}.md) — hook ${i}`
const all = Array.from({ length: 230 }, (_, i) => entry(i + 1))
const LOST = '- [Lost](lost.md) — a parallel session removed this'
// The version that held the lost line, right after entry 227; the current file no longer does.
const old = [...all.slice(0, 227), LOST, ...all.slice(227)].join('\n') + '\n'
const current = all.join('\n') + '\n'
const source = { path: INDEX, text: current, hash: 'h' }

describe('previewLineRestore', () => {
  it('says where the line goes back and that it will not load there', () => {
    const p = previewLineRestore(source, LOST, [old], 'in-place', true)
    expect(p.line).toBe(228)
    expect(p.loads).toBe(false)
    expect(p.cutoffLine).toBe(201)
    expect(p.anchor).toBe('after “- [E227](e227.md) — hook 227”')
    expect(p.plan.changes[0].after).toBe(old)
  })

  it('restores above the cutoff on request, naming the entry that falls below it', () => {
    const p = previewLineRestore(source, LOST, [old], 'above-cutoff', true)
    expect(p.loads).toBe(true)
    expect(p.line).toBe(200)
    const after = p.plan.changes[0].after as string
    const c = computeCutoff({ file: INDEX, text: after, totalBytes: 0, topicFiles: [] })
    expect(c.entries.find((e) => e.line === 200)?.title).toBe('Lost')
    expect(c.entries.find((e) => e.line === 200)?.loaded).toBe(true)
    expect(p.falls).toEqual([{ line: 200, text: entry(200), entry: true }])
    expect(p.plan.changes[0].expectedHash).toBe('h')
  })

  it('a topic file never loads at start: no load state, the line goes where it stood', () => {
    const p = previewLineRestore(
      { ...source, path: '/m/topic.md' },
      LOST,
      [old],
      'above-cutoff',
      false,
    )
    expect(p.loads).toBe(null)
    expect(p.placement).toBe('in-place')
    expect(p.line).toBe(228)
  })

  it('refuses a line already present, with the reason', () => {
    const p = previewLineRestore({ ...source, text: old }, LOST, [old], 'in-place', true)
    expect(p.plan.changes).toEqual([])
    expect(p.plan.problems[0].reason).toBe('the line is already in the file (line 228)')
  })
})
