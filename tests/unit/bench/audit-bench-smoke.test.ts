import { describe, expect, it } from 'vitest'
import { runAuditBench } from '../../../scripts/bench-audit'

// AUDIT_BENCH_SCALE=100 runs the large benchmark (20,000 files, 10,000 commits, 300 notes).
const scale = Number(process.env.AUDIT_BENCH_SCALE ?? '1') || 1

describe('audit benchmark (smoke)', () => {
  it(
    'audits a generated repository and compares with raw git log',
    async () => {
      const r = await runAuditBench({
        files: 200 * scale,
        commits: 100 * scale,
        notes: Math.min(30 * scale, 300),
      })
      if (scale !== 1) console.log(JSON.stringify(r))
      expect(r.notes).toBe(Math.min(30 * scale, 300))
      expect(Number.isFinite(r.ratio)).toBe(true)
      expect(r.ratio).toBeGreaterThan(0)
      // Every note has one verdict (never-matched included, issue 12).
      const counted = Object.values(r.summary).reduce((a, b) => a + b, 0)
      expect(counted).toBe(r.notes)
      // Renamed and deleted paths and the missing `lint` script make some notes stale.
      expect(r.summary.stale).toBeGreaterThan(0)
    },
    scale === 1 ? 30_000 : 1_800_000,
  )
})
