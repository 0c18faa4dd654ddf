import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runProvenanceBench } from '../../scripts/bench-provenance'

// PROVENANCE_BENCH_MB=500 runs the same check at a bigger size and prints the figures.
const MB = Number(process.env.PROVENANCE_BENCH_MB ?? '5')

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mc-bench-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

it(
  `provenance over ~${MB} MB of transcripts: sane numbers, cached second run reads nothing`,
  { timeout: 600_000 },
  async () => {
    const r = await runProvenanceBench({ bytes: MB * 1024 * 1024, dir })
    if (process.env.PROVENANCE_BENCH_MB) console.log(JSON.stringify(r, null, 2))
    expect(r.generatedBytes).toBeGreaterThanOrEqual(MB * 1024 * 1024)
    expect(r.firstBytesRead).toBe(r.generatedBytes)
    expect(r.secondBytesRead).toBe(0)
    expect(r.memoryWritesGenerated).toBeGreaterThan(0)
    expect(r.memoryWritesFound).toBe(r.memoryWritesGenerated)
    // Only the memory writes and their results are parsed: 2 lines per write.
    expect(r.linesParsed).toBe(2 * r.memoryWritesGenerated)
    // Every generated exchange has one tool_use line, plus one per memory write.
    expect(r.grepToolUseLines).toBe(
      r.lines / 4 - r.memoryWritesGenerated / 2 + r.memoryWritesGenerated,
    )
    expect(r.secondMs).toBeLessThan(r.firstMs)
    expect(r.peakRssDuringFirstMiB).toBeGreaterThan(0)
  },
)
