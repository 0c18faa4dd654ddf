/**
 * The peer people run over the same transcripts today, ccusage (issue 16): timed beside our
 * cold `provenance` process when it is installed. Optional and never a dependency: the bench
 * uses `--ccusage PATH`, else $CCUSAGE, else `ccusage` on PATH, and otherwise says it skipped.
 */
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { cliEnv } from './cli-jobs'
import { runChild } from './measure'
import { skippedRow, type BenchRow } from './report'

const JOB = 'ccusage daily --offline --json (peer, optional)'
const TARGET = 'for comparison'

/** The ccusage command: the given path, else the first `ccusage` on PATH, else null. */
export function findCcusage(given: string | null, path = process.env.PATH ?? ''): string | null {
  if (given) return given
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, 'ccusage')
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return null
}

/** ccusage over the whole home (fastest of `runs`) against our cold provenance process. */
export async function benchCcusage(
  given: string | null,
  claudeHome: string,
  work: string,
  ours: { readonly ms: number | null; readonly peakRssMiB: number | null },
  runs = 2,
): Promise<BenchRow> {
  const cmd = findCcusage(given)
  if (cmd === null)
    return skippedRow(
      JOB,
      TARGET,
      'ccusage is not installed (optional: install it and pass --ccusage PATH or put it on PATH)',
    )
  const env = cliEnv(work, claudeHome)
  let best: Awaited<ReturnType<typeof runChild>> | null = null
  let peak = 0
  for (let i = 0; i < runs; i++) {
    const r = await runChild(cmd, ['daily', '--offline', '--json'], { env })
    if (r.code !== 0)
      return skippedRow(JOB, TARGET, `ccusage failed: ${r.stderr.trim().split('\n')[0] ?? r.code}`)
    peak = Math.max(peak, r.peakRssMiB ?? 0)
    if (best === null || r.ms < best.ms) best = r
  }
  const ms = best?.ms ?? 0
  return {
    job: JOB,
    ms,
    baseline: 'our provenance, cold (process)',
    baselineMs: ours.ms,
    ratio: ours.ms === null ? null : ms / Math.max(ours.ms, 0.001),
    peakRssMiB: peak || null,
    baselinePeakRssMiB: ours.peakRssMiB,
    target: TARGET,
    pass: null,
    note: null,
    details: { command: cmd, jsonBytes: best?.stdoutBytes ?? 0 },
  }
}
