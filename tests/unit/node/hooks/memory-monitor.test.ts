/** The monitor on real memory files: entries newly past the cutoff, lines lost to a parallel session. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryIndex } from '../../../helpers/fixture-home'
import { cutoffFile } from '../../../../src/node/memory/cutoff-file'
import { createMemoryMonitor } from '../../../../src/node/hooks/memory-monitor'
import type { ProvenanceResult } from '../../../../src/shared/model'

let root: string
let mem: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mc-monitor-'))
  mem = join(root, 'memory')
  mkdirSync(mem)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function monitorWith(lost: () => ProvenanceResult, start = Date.parse('2026-06-01T00:00:00Z')) {
  return createMemoryMonitor({
    cutoff: cutoffFile,
    provenance: async () => lost(),
    isMemoryDir: async (d) => d === mem,
    quietMs: 5,
    now: () => start,
  })
}

describe('memory monitor', () => {
  it('tells once when a session writes an index past the cutoff, then only newly unloaded entries', async () => {
    const m = monitorWith(() => ({ files: [] }))
    const index = join(mem, 'MEMORY.md')
    writeFileSync(index, memoryIndex(150))
    m.changed([index])
    expect(await m.notices(0)).toEqual([])
    writeFileSync(index, memoryIndex(190))
    m.changed([index])
    const [first, ...more] = await m.notices(0)
    expect(more).toEqual([])
    expect(first).toMatchObject({ kind: 'past-cutoff', file: index, newest: { title: 'Note 190' } })
    if (first?.kind !== 'past-cutoff') return
    expect(first.entriesNotLoaded).toBeGreaterThan(0)
    // The same state again: nothing new.
    m.changed([index])
    expect(await m.notices(first.id)).toEqual([])
    // Two more entries appended: told again.
    writeFileSync(index, memoryIndex(192))
    m.changed([index])
    expect(await m.notices(first.id)).toMatchObject([{ newest: { title: 'Note 192' } }])
    m.stop()
  })

  it('tells lines a parallel session removed after it started, not older history', async () => {
    const file = join(mem, 'a.md')
    writeFileSync(file, 'x\n')
    let lost: ProvenanceResult['files'][number]['lost'] = [
      { text: 'old', addedBy: 's1', removedBy: 's2', removedAt: '2026-05-01T00:00:00Z' },
    ]
    const m = monitorWith(() => ({ files: [{ path: file, writes: [], lost, exists: true }] }))
    const heard: string[] = []
    m.onNotice((n) => heard.push(n.kind === 'line-lost' ? n.text : n.kind))
    m.changed([file])
    expect(await m.notices(0)).toEqual([])
    lost = [
      ...lost,
      { text: 'new line', addedBy: 's3', removedBy: 's4', removedAt: '2026-06-02T00:00:00Z' },
    ]
    m.changed([file])
    expect(await m.notices(0)).toMatchObject([
      { kind: 'line-lost', file, text: 'new line', addedBy: 's3', removedBy: 's4', memoryDir: mem },
    ])
    expect(heard).toEqual(['new line'])
    m.stop()
  })

  it('passes over files outside memory folders', async () => {
    const m = monitorWith(() => {
      throw new Error('must not be asked')
    })
    const other = join(root, 'other')
    mkdirSync(other)
    writeFileSync(join(other, 'MEMORY.md'), memoryIndex(300))
    m.changed([join(other, 'MEMORY.md'), join(root, 'x.txt')])
    expect(await m.notices(0)).toEqual([])
    m.stop()
  })
})

describe('memory monitor and the person’s own moves', () => {
  it('does not tell when the index did not grow (an entry moved above the cutoff pushed another out)', async () => {
    const m = monitorWith(() => ({ files: [] }))
    const index = join(mem, 'MEMORY.md')
    const lines = memoryIndex(195).split('\n')
    writeFileSync(index, lines.join('\n'))
    m.changed([index])
    const told = await m.notices(0)
    expect(told).toHaveLength(1)
    // Swap the last entry with one above the cutoff: same lines, another entry past it now.
    const last = lines.findIndex((l) => l.includes('[Note 195]'))
    const above = lines.findIndex((l) => l.includes('[Note 150]'))
    ;[lines[last], lines[above]] = [lines[above]!, lines[last]!]
    writeFileSync(index, lines.join('\n'))
    m.changed([index])
    expect(await m.notices(told[0]!.id)).toEqual([])
    m.stop()
  })
})
