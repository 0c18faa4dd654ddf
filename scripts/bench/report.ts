/**
 * Rows of the benchmark table, the targets of issue 7 beside them, the machine description, and
 * the plain-text table printed by `npm run bench`.
 */
import { spawnSync } from 'node:child_process'
import { statfsSync } from 'node:fs'
import { cpus, loadavg, platform, release, totalmem } from 'node:os'
import type { BenchOptions } from './options'

/** Targets of issues 7 and 16 (the window: issue 16, 1 s and 150 ms). */
export const TARGETS = {
  /** Each command within this factor of its baseline. */
  maxRatio: 2,
  /** A second provenance run under this fraction of the first. */
  secondRunFraction: 0.1,
  /** The window usable within this long of opening the large home. */
  windowReadyMs: 1000,
  /** A note's diff shown within this long of a click. */
  diffMs: 150,
  /** No frame blocked longer than this while a scan runs. */
  longTaskMs: 100,
} as const

export interface BenchRow {
  readonly job: string
  /** Milliseconds, or null when the job was skipped or failed. */
  readonly ms: number | null
  /** What the time is compared with. */
  readonly baseline: string
  readonly baselineMs: number | null
  /** ms / baselineMs. */
  readonly ratio: number | null
  /** Highest RSS of the process doing the job (MiB), and of the baseline's. */
  readonly peakRssMiB: number | null
  readonly baselinePeakRssMiB: number | null
  /** The target in words, and whether this run met it (null when not measured). */
  readonly target: string
  readonly pass: boolean | null
  /** Why the row has no time (skipped or failed). */
  readonly note: string | null
  readonly details: Readonly<Record<string, number | string | boolean | null>>
}

export interface MachineInfo {
  readonly cpus: number
  readonly cpuModel: string
  readonly memoryGiB: number
  readonly node: string
  readonly git: string
  readonly platform: string
  readonly diskFreeGiB: number | null
  /** 1-minute load average at the start: other work on the machine skews every time. */
  readonly loadAverage: number | null
}

export interface BenchReport {
  readonly startedAt: string
  readonly options: BenchOptions
  readonly machine: MachineInfo
  readonly home: Readonly<Record<string, number | string | boolean>>
  readonly rows: readonly BenchRow[]
  readonly totalMs: number
}

/** A row compared with a measured baseline under the `≤ 2×` target. */
export function ratioRow(
  job: string,
  ms: number,
  baseline: string,
  baselineMs: number,
  peakRssMiB: number | null,
  baselinePeakRssMiB: number | null,
  details: BenchRow['details'] = {},
  maxRatio: number = TARGETS.maxRatio,
  target = `≤ ${maxRatio}× baseline`,
): BenchRow {
  const ratio = ms / Math.max(baselineMs, 0.001)
  return {
    job,
    ms,
    baseline,
    baselineMs,
    ratio,
    peakRssMiB,
    baselinePeakRssMiB,
    target,
    pass: ratio <= maxRatio,
    note: null,
    details,
  }
}

/** A row with an absolute budget: the budget is the baseline, the ratio the share of it used. */
export function budgetRow(
  job: string,
  ms: number,
  budgetMs: number,
  peakRssMiB: number | null,
  details: BenchRow['details'] = {},
): BenchRow {
  return ratioRow(
    job,
    ms,
    `budget ${budgetMs} ms`,
    budgetMs,
    peakRssMiB,
    null,
    details,
    1,
    `≤ ${budgetMs} ms`,
  )
}

/** A row that could not be measured, with the reason. */
export function skippedRow(job: string, target: string, note: string): BenchRow {
  return {
    job,
    ms: null,
    baseline: '—',
    baselineMs: null,
    ratio: null,
    peakRssMiB: null,
    baselinePeakRssMiB: null,
    target,
    pass: null,
    note,
    details: {},
  }
}

/** Describe this machine: what every time in the table depends on. */
export function describeMachine(dir: string): MachineInfo {
  const list = cpus()
  const g = spawnSync('git', ['--version'], { encoding: 'utf8' })
  let diskFreeGiB: number | null
  try {
    const s = statfsSync(dir)
    diskFreeGiB = (s.bavail * s.bsize) / 1024 ** 3
  } catch {
    diskFreeGiB = null
  }
  const loadAverage = loadavg()[0]
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    git: (g.stdout ?? '').trim().replace(/^git version /, '') || 'unknown',
    platform: `${platform()} ${release()}`,
    diskFreeGiB,
    loadAverage: Number.isFinite(loadAverage) ? Math.round(loadAverage * 100) / 100 : null,
  }
}

function fmtMs(ms: number | null): string {
  if (ms === null) return '—'
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`
}

function fmtMiB(m: number | null): string {
  return m === null ? '—' : `${Math.round(m)} MiB`
}

function mark(pass: boolean | null): string {
  return pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL'
}

/** The report as a Markdown table (readable in a terminal, pasted as-is into docs/benchmarks.md). */
export function formatReport(r: BenchReport): string {
  const m = r.machine
  const lines = [
    `Memory Curator benchmark — ${r.startedAt}, seed ${r.options.seed}, scale ${r.options.scaleName}`,
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB.toFixed(1)} GiB RAM, ${m.platform}, ` +
      `node ${m.node}, git ${m.git}, ${m.diskFreeGiB === null ? '?' : m.diskFreeGiB.toFixed(0)} GiB free disk, ` +
      `load average ${m.loadAverage ?? '?'} at start`,
    `Home: ${Object.entries(r.home)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    '',
    '| job | time | baseline | baseline time | ratio | peak RSS | baseline peak RSS | target | result |',
    '|---|---:|---|---:|---:|---:|---:|---|---|',
  ]
  for (const row of r.rows) {
    const ratio = row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×`
    const result = row.note ? `${mark(row.pass)} (${row.note})` : mark(row.pass)
    lines.push(
      `| ${row.job} | ${fmtMs(row.ms)} | ${row.baseline} | ${fmtMs(row.baselineMs)} | ${ratio} | ${fmtMiB(row.peakRssMiB)} | ${fmtMiB(row.baselinePeakRssMiB)} | ${row.target} | ${result} |`,
    )
  }
  lines.push('', `Total ${fmtMs(r.totalMs)}.`)
  return lines.join('\n')
}
