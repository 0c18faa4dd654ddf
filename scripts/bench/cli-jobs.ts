/**
 * The command line as whole processes (issue 16): what cron, a pre-commit hook or CI sees.
 * Each row runs the built CLI and its baseline process side by side in one run (measure.ts
 * `sideBySide`): `--help`/`--version` against `node -e 0`, `scan` and `cutoff` against a small
 * node script doing the same reads (scripts/bench/baselines/), `provenance` cold against
 * `grep -c` over the same transcripts and warm against cold.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runChild, sideBySide, type BestChild, type ChildRun } from './measure'
import { ratioRow, skippedRow, TARGETS, type BenchRow } from './report'

/** Rounds of a start-up row (each a few tens of milliseconds: more rounds, less noise). */
export const STARTUP_RUNS = 10
/** Rounds of the other rows. */
export const PROCESS_RUNS = 5

const BASELINES = fileURLToPath(new URL('./baselines/', import.meta.url))
export const SCAN_BASELINE = join(BASELINES, 'scan.mjs')
export const CUTOFF_BASELINE = join(BASELINES, 'cutoff.mjs')

export interface CliTarget {
  /** The built CLI (out/cli/index.js). */
  readonly cli: string
  /** Scratch folder: HOME, the state folder and the provenance cache of the runs live here. */
  readonly work: string
}

/** The environment of a CLI run: every home and state folder inside `work` (never the user's). */
export function cliEnv(work: string, claudeHome: string): NodeJS.ProcessEnv {
  for (const d of ['home', 'codex', 'managed', 'xdg-state', 'xdg-cache'])
    mkdirSync(join(work, d), { recursive: true })
  return {
    PATH: process.env.PATH ?? '',
    HOME: join(work, 'home'),
    XDG_STATE_HOME: join(work, 'xdg-state'),
    XDG_CACHE_HOME: join(work, 'xdg-cache'),
    CLAUDE_CONFIG_DIR: claudeHome,
    CODEX_HOME: join(work, 'codex'),
  }
}

/** The CLI's state folder under `cliEnv` (the provenance cache lives in it). */
export function cliStateDir(work: string): string {
  return join(work, 'xdg-state', 'memory-curator')
}

const node = (args: readonly string[], env?: NodeJS.ProcessEnv): (() => Promise<ChildRun>) => {
  return () => runChild(process.execPath, args, { env })
}

/** A row from two side-by-side results, or a skipped row when either process failed. */
export function processRow(
  job: string,
  r: { a: BestChild; b: BestChild },
  baseline: string,
  details: BenchRow['details'] = {},
  maxRatio: number = TARGETS.maxRatio,
  target?: string,
): BenchRow {
  const failed = [r.a, r.b].find((c) => c.code !== 0)
  if (failed) {
    const why = failed.stderr.trim().split('\n')[0] || `exit ${failed.code}`
    return skippedRow(job, target ?? `≤ ${maxRatio}× baseline`, `failed: ${why.slice(0, 200)}`)
  }
  return ratioRow(
    job,
    r.a.ms,
    baseline,
    r.b.ms,
    r.a.peakRssMiB,
    r.b.peakRssMiB,
    { ...details, runsMs: r.a.allMs.join(' / '), baselineRunsMs: r.b.allMs.join(' / ') },
    maxRatio,
    target,
  )
}

/** The CLI is built, or a row saying so. */
export function cliMissing(t: CliTarget, job: string): BenchRow | null {
  return existsSync(t.cli)
    ? null
    : skippedRow(job, '—', `no ${t.cli}: run \`npm run build\` (or pass --cli)`)
}

/** `--help` and `--version` against a bare `node -e 0`. */
export async function benchStartup(t: CliTarget): Promise<BenchRow[]> {
  const missing = cliMissing(t, 'start-up')
  if (missing) return [missing]
  const env = cliEnv(t.work, join(t.work, 'no-claude-home'))
  const bare = node(['-e', '0'], env)
  const rows: BenchRow[] = []
  for (const flag of ['--help', '--version']) {
    const r = await sideBySide(STARTUP_RUNS, node([t.cli, flag], env), bare)
    rows.push(processRow(`start-up: ${flag}`, r, 'node -e 0'))
  }
  return rows
}

/** `scan --json` of the whole home against the scan baseline process. */
export async function benchScanProcess(
  t: CliTarget,
  claudeHome: string,
  label = 'scan (process)',
): Promise<BenchRow> {
  const missing = cliMissing(t, label)
  if (missing) return missing
  const env = cliEnv(t.work, claudeHome)
  const r = await sideBySide(
    PROCESS_RUNS,
    node([t.cli, 'scan', '--json', '--claude-home', claudeHome], env),
    node([SCAN_BASELINE, claudeHome], env),
  )
  return processRow(label, r, 'node baselines/scan.mjs (readdir + reads)', {
    jsonBytes: r.a.stdoutBytes,
    baseline: r.b.stdoutHead.trim(),
  })
}

/**
 * `cutoff --json` of every MEMORY.md, one process each (as a pre-commit hook runs it), against
 * the cutoff baseline process for the same file; the times are summed over the files.
 */
export async function benchCutoffProcess(
  t: CliTarget,
  claudeHome: string,
  indexes: readonly string[],
  label = 'cutoff, every MEMORY.md (a process each)',
): Promise<BenchRow> {
  const missing = cliMissing(t, label)
  if (missing) return missing
  const env = cliEnv(t.work, claudeHome)
  let ms = 0
  let baseMs = 0
  let peak = 0
  let basePeak = 0
  for (const [i, index] of indexes.entries()) {
    const r = await sideBySide(
      i % 2 === 0 ? 1 : 2,
      node([t.cli, 'cutoff', '--json', index], env),
      node([CUTOFF_BASELINE, index], env),
    )
    const failed = [r.a, r.b].find((c) => c.code !== 0)
    if (failed)
      return skippedRow(
        label,
        '≤ 2× baseline',
        `failed on ${index}: ${failed.stderr.slice(0, 200)}`,
      )
    ms += r.a.ms
    baseMs += r.b.ms
    peak = Math.max(peak, r.a.peakRssMiB ?? 0)
    basePeak = Math.max(basePeak, r.b.peakRssMiB ?? 0)
  }
  return ratioRow(label, ms, 'node baselines/cutoff.mjs, each file', baseMs, peak, basePeak, {
    files: indexes.length,
    meanMs: Math.round(ms / Math.max(1, indexes.length)),
    baselineMeanMs: Math.round(baseMs / Math.max(1, indexes.length)),
  })
}

/** The memory folder with the most files, as `--project` of the provenance rows. */
export function busiestProject(memoryDirs: readonly string[]): string | null {
  let best: { id: string; n: number } | null = null
  for (const dir of memoryDirs) {
    let n: number
    try {
      n = readdirSync(dir).length
    } catch {
      continue
    }
    if (best === null || n > best.n) best = { id: basename(dirname(dir)), n }
  }
  return best?.id ?? null
}

export interface ProvenanceProcess {
  readonly rows: BenchRow[]
  /** The cold run's peak RSS (for the memory-flat row), or null when not measured. */
  readonly coldPeakRssMiB: number | null
}

/**
 * `provenance --json --project P` with an empty cache (cold) against `grep -c '"tool_use"'` over
 * every transcript (LC_ALL=C: grep's fastest byte matching), then with the cache it left (warm)
 * against the cold run (target 0.1×).
 */
export async function benchProvenanceProcess(
  t: CliTarget,
  claudeHome: string,
  project: string | null,
  what = '',
  /**
   * `wc -l` instead of grep for a sparse file: GNU grep skips its holes (SEEK_DATA), so it
   * reads nothing there; `wc -l` reads every byte, as we must.
   */
  baseline: 'grep' | 'wc' = 'grep',
): Promise<ProvenanceProcess> {
  const cold = `provenance, cold (process${what})`
  const missing = cliMissing(t, cold)
  if (missing) return { rows: [missing], coldPeakRssMiB: null }
  if (project === null)
    return { rows: [skippedRow(cold, '—', 'no memory folder in the home')], coldPeakRssMiB: null }
  const env = cliEnv(t.work, claudeHome)
  const cache = cliStateDir(t.work)
  const args = [t.cli, 'provenance', '--json', '--claude-home', claudeHome, `--project=${project}`]
  const projects = resolve(claudeHome, 'projects')
  const grep = (): Promise<ChildRun> =>
    baseline === 'wc'
      ? runChild('sh', ['-c', 'find "$1" -name "*.jsonl" -exec wc -l {} +', 'wc', projects], {
          env: { ...env, LC_ALL: 'C' },
        })
      : runChild('grep', ['-r', '-c', '--include=*.jsonl', '"tool_use"', projects], {
          env: { ...env, LC_ALL: 'C' },
        })
  const empty = (): void => rmSync(cache, { recursive: true, force: true })
  const c = await sideBySide(PROCESS_RUNS, node(args, env), grep, empty)
  // grep exits 1 when no line matches: still a complete pass over the bytes.
  const g = { ...c.b, code: c.b.code === 1 ? 0 : c.b.code }
  const label =
    baseline === 'wc' ? 'wc -l (reads every byte)' : 'grep -rc \'"tool_use"\' (LC_ALL=C)'
  const coldRow = processRow(cold, { a: c.a, b: g }, label, {
    project,
    jsonBytes: c.a.stdoutBytes,
  })
  // The cache is warm after the last cold run: warm runs alternate with fresh cold ones.
  const warmRun = node(args, env)
  const w = await sideBySide(PROCESS_RUNS, warmRun, async () => {
    empty()
    const r = await warmRun()
    return r
  })
  // The floor of any warm run: a bare Node process, against the same cold run (issue 16).
  const floor = await sideBySide(PROCESS_RUNS, node(['-e', '0'], env), async () => {
    empty()
    return warmRun()
  })
  const warmRow = processRow(
    `provenance, warm (process${what})`,
    w,
    'the cold run',
    {
      jsonBytes: w.a.stdoutBytes,
      bareNodeMs: floor.a.ms,
      bareNodeOfCold: Math.round((floor.a.ms / Math.max(1, floor.b.ms)) * 100) / 100,
    },
    TARGETS.secondRunFraction,
    `≤ ${TARGETS.secondRunFraction}× cold`,
  )
  return { rows: [coldRow, warmRow], coldPeakRssMiB: coldRow.peakRssMiB }
}
