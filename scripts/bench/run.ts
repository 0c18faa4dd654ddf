/**
 * `npm run bench`: generate (or reuse) the home, run every job against its baseline on this
 * machine, and write the table and the JSON results (issue 7).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { benchCcusage } from './ccusage'
import { benchSessionStartHook } from './hook-job'
import {
  benchCutoffProcess,
  benchProvenanceProcess,
  benchScanProcess,
  benchStartup,
  busiestProject,
  type CliTarget,
} from './cli-jobs'
import { generateHome } from './generate-home'
import {
  addAuditProject,
  benchAudit,
  benchAuditWithDates,
  benchCutoff,
  benchProvenance,
  benchScan,
  type AuditFixture,
} from './jobs'
import { homeKey, type BenchOptions, type JobName } from './options'
import { benchPathological, PATHOLOGICAL_DEFAULT, PATHOLOGICAL_SMALL } from './pathological'
import {
  describeMachine,
  formatReport,
  skippedRow,
  type BenchReport,
  type BenchRow,
} from './report'
import { benchWindow } from './window'

export interface BenchOutput {
  readonly report: BenchReport
  readonly text: string
  /** Where the JSON was written. */
  readonly jsonPath: string
}

/** Run the benchmark described by `opts`; `log` gets progress lines (stderr in the CLI). */
export async function runBench(
  opts: BenchOptions,
  log: (line: string) => void = () => undefined,
): Promise<BenchOutput> {
  const started = performance.now()
  const startedAt = new Date().toISOString()
  const root = resolve(
    opts.dir ?? join(tmpdir(), 'memory-curator-bench', homeKey(opts.seed, opts.scale)),
  )
  const machine = describeMachine(tmpdir())
  log(`bench: home in ${root}`)
  const { home, reused } = generateHome({
    root,
    seed: opts.seed,
    scale: opts.scale,
    fresh: opts.fresh,
    log,
  })
  log(
    reused
      ? `bench: reusing the home generated for seed ${opts.seed} (delete ${root} or pass --fresh to rebuild)`
      : 'bench: home generated',
  )
  const work = join(root, `run-${process.pid}-${Date.now()}`)
  mkdirSync(work, { recursive: true })
  const want = (j: JobName): boolean => opts.jobs.includes(j)
  const rows: BenchRow[] = []
  let fixture: AuditFixture | null = null
  let added: { projectDir: string; memoryDir: string } | null = null
  // The command line as whole processes (issue 16), each beside its baseline process.
  const cli: CliTarget = { cli: resolve(opts.cli), work: join(work, 'cli') }
  const pathoScale = opts.scaleName === 'small' ? PATHOLOGICAL_SMALL : PATHOLOGICAL_DEFAULT
  const pathoRoot = join(dirname(root), `pathological-s${opts.seed}-t${pathoScale.topicFiles}`)
  try {
    if (want('startup')) {
      log('bench: start-up')
      rows.push(...(await benchStartup(cli)))
      rows.push(await benchSessionStartHook(cli))
    }
    if (want('scan')) {
      log('bench: scan')
      rows.push(await benchScan(home))
      rows.push(await benchScanProcess(cli, home.claudeHome))
    }
    if (want('cutoff')) {
      log('bench: cutoff')
      rows.push(await benchCutoff(home))
      const indexes =
        opts.cutoffFiles > 0 ? home.memoryIndexes.slice(0, opts.cutoffFiles) : home.memoryIndexes
      rows.push(await benchCutoffProcess(cli, home.claudeHome, indexes))
    }
    let cacheDir: string | null = null
    let coldProcess: { ms: number | null; peakRssMiB: number | null } | null = null
    if (want('provenance')) {
      log('bench: provenance')
      const p = await benchProvenance(home, work)
      rows.push(...p.rows)
      cacheDir = p.cacheDir
      const q = await benchProvenanceProcess(cli, home.claudeHome, busiestProject(home.memoryDirs))
      rows.push(...q.rows)
      coldProcess = { ms: q.rows[0].ms, peakRssMiB: q.coldPeakRssMiB }
    }
    if (want('ccusage')) {
      log('bench: ccusage')
      rows.push(
        await benchCcusage(opts.ccusage, home.claudeHome, join(work, 'ccusage'), {
          ms: coldProcess?.ms ?? null,
          peakRssMiB: coldProcess?.peakRssMiB ?? null,
        }),
      )
    }
    if (want('pathological')) {
      rows.push(
        ...(await benchPathological(
          cli,
          pathoRoot,
          opts.seed,
          pathoScale,
          {
            transcriptBytes: home.transcriptBytes,
            coldPeakRssMiB: coldProcess?.peakRssMiB ?? null,
          },
          log,
        )),
      )
    }
    if (want('audit') || want('window')) {
      log('bench: audit (generating the repository)')
      const a = await benchAudit(opts.scale)
      fixture = a.fixture
      if (want('audit')) rows.push(a.row, a.nextRow)
      added = addAuditProject(home, fixture)
      if (want('audit') && cacheDir !== null && a.row.ms !== null) {
        log('bench: audit with dates from transcripts')
        rows.push(
          await benchAuditWithDates(home, added.memoryDir, fixture.repo, cacheDir, a.row.ms),
        )
      }
    }
    if (want('window')) {
      log('bench: window')
      const w = await benchWindow({
        claudeHome: home.claudeHome,
        workDir: join(work, 'window'),
        chromium: opts.chromium,
        cli: opts.cli,
        notesProject: fixture ? fixture.repo : null,
        log,
      })
      rows.push(...w)
    }
  } catch (err) {
    rows.push(skippedRow('(run stopped)', '—', (err as Error).message.split('\n')[0].slice(0, 300)))
  } finally {
    // Leave the cached home as generated: the audit project and run folders go.
    if (added) rmSync(added.projectDir, { recursive: true, force: true })
    if (fixture) rmSync(fixture.dir, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
    if (opts.clean) {
      rmSync(root, { recursive: true, force: true })
      rmSync(pathoRoot, { recursive: true, force: true })
    }
  }
  const report: BenchReport = {
    startedAt,
    options: opts,
    machine,
    home: {
      root,
      reused,
      projects: home.projectDirs.length,
      memoryFolders: home.memoryDirs.length,
      memoryFiles: home.memoryFiles.length,
      transcripts: home.transcripts.length,
      transcriptMiB: Math.round(home.transcriptBytes / 1024 / 1024),
      gitRepos: home.gitRepos,
      worktrees: home.worktrees,
      memoryWrites: home.memoryWrites,
      generateSeconds: Math.round(home.generateMs / 100) / 10,
    },
    rows,
    totalMs: performance.now() - started,
  }
  const text = formatReport(report)
  mkdirSync(opts.resultsDir, { recursive: true })
  const jsonPath = resolve(opts.resultsDir, `${startedAt.replace(/[:.]/g, '-')}.json`)
  writeFileSync(jsonPath, JSON.stringify({ ...report, text }, null, 2) + '\n')
  writeFileSync(resolve(opts.resultsDir, 'latest.txt'), text + '\n')
  return { report, text, jsonPath }
}
