/**
 * The pathological inputs of the bench (issue 16), small: a memory folder of many topic files
 * and a sparse transcript whose middle is one line of NUL bytes far over the line cap. The
 * provenance of the sparse one still finds the write before the hole, streaming past the hole.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { memoryRow, sparseHome, topicsHome } from '../../../scripts/bench/pathological'
import { provenance } from '../../../src/node/transcripts/provenance'
import { TRANSCRIPT_LINE_MAX_BYTES } from '../../../src/core/limits'

const scratch = mkdtempSync(join(tmpdir(), 'mc-patho-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('pathological inputs', () => {
  it('builds a memory folder of n topic files and an index, once', () => {
    const a = topicsHome(join(scratch, 'topics'), 250)
    const memory = join(a.index, '..')
    expect(readdirSync(memory).length).toBe(251)
    const again = topicsHome(join(scratch, 'topics'), 250)
    expect(again).toEqual(a)
  })

  it('a sparse transcript: the write before the hole is found, the hole skipped as one long line', async () => {
    const bytes = 3 * TRANSCRIPT_LINE_MAX_BYTES
    const s = sparseHome(join(scratch, 'sparse'), bytes)
    const dir = join(s.claudeHome, 'projects', s.project)
    const transcript = readdirSync(dir).find((f) => f.endsWith('.jsonl')) as string
    expect(statSync(join(dir, transcript)).size).toBe(bytes)
    const r = await provenance({ claudeHome: s.claudeHome, memoryDir: join(dir, 'memory') })
    const build = r.files.find((f) => f.path.endsWith('build.md'))
    expect(build?.writes.map((w) => [w.tool, w.ok])).toEqual([['Write', true]])
    expect(r.stats.bytesRead).toBe(bytes)
    expect(r.stats.skippedLines).toBeGreaterThanOrEqual(1)
  })

  it('memory is flat when the bigger input peaks within 1.25× of the smaller', () => {
    expect(memoryRow('x', 100, 90).pass).toBe(true)
    expect(memoryRow('x', 200, 90).pass).toBe(false)
    expect(memoryRow('x', null, 90).pass).toBeNull()
  })
})
