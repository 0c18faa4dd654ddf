/**
 * `npm run bench` at the small scale, without the window (that needs a build and Chromium; the
 * e2e suite covers the window): the home is generated from the seed, every job returns a row
 * with a finite positive ratio, and the JSON and table are written.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { generateHome } from '../../../scripts/bench/generate-home'
import { DEFAULT_SCALE, homeKey, parseBenchArgs, SMALL_SCALE } from '../../../scripts/bench/options'
import { createRng, skewedSplit } from '../../../scripts/bench/prng'
import { formatReport } from '../../../scripts/bench/report'
import { runBench } from '../../../scripts/bench/run'

const scratch = mkdtempSync(join(tmpdir(), 'mc-bench-smoke-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('bench options', () => {
  it('parses the issue-7 flags and presets', () => {
    expect(parseBenchArgs([]).scale).toEqual(DEFAULT_SCALE)
    expect(parseBenchArgs(['--scale', 'small']).scale).toEqual(SMALL_SCALE)
    const o = parseBenchArgs(
      ['--projects', '40', '--transcripts-mb', '3', '--seed', '9', '--jobs', 'scan,audit'],
      {
        CHROMIUM_PATH: '/opt/c',
      },
    )
    expect(o.scale.projects).toBe(40)
    expect(o.scale.transcriptBytes).toBe(3 * 1024 * 1024)
    expect(o.scale.memoryFiles).toBe(8000)
    expect(o.scaleName).toBe('custom')
    expect(o.seed).toBe(9)
    expect(o.jobs).toEqual(['scan', 'audit'])
    expect(o.chromium).toBe('/opt/c')
    expect(() => parseBenchArgs(['--projects', 'x'])).toThrow('--projects: not a whole number: x')
    expect(() => parseBenchArgs(['--jobs', 'scan,nope'])).toThrow('--jobs: unknown job nope')
    expect(() => parseBenchArgs(['--bogus'])).toThrow('unknown option --bogus')
    expect(homeKey(7, DEFAULT_SCALE)).toBe('s7-p300-m8000-t1024mb')
    // Issue 16: the process rows' jobs and options.
    const p = parseBenchArgs(
      ['--jobs', 'startup,pathological,ccusage', '--cutoff-files', '5', '--ccusage', '/x/ccusage'],
      {},
    )
    expect(p.jobs).toEqual(['startup', 'pathological', 'ccusage'])
    expect(p.cutoffFiles).toBe(5)
    expect(p.ccusage).toBe('/x/ccusage')
    expect(parseBenchArgs([], { CCUSAGE: '/y' }).ccusage).toBe('/y')
    expect(parseBenchArgs([]).ccusage).toBeNull()
  })

  it('splits a total into parts that sum to it, the same for the same seed', () => {
    const a = skewedSplit(createRng(3), 1000, 7)
    expect(a.reduce((x, y) => x + y, 0)).toBe(1000)
    expect(skewedSplit(createRng(3), 1000, 7)).toEqual(a)
    expect(skewedSplit(createRng(4), 1000, 7)).not.toEqual(a)
  })
})

describe('generated home', () => {
  it('is deterministic from the seed and reused when it already exists', () => {
    const scale = { ...SMALL_SCALE, projects: 6, memoryFiles: 30, transcriptBytes: 256 * 1024 }
    const a = generateHome({ root: join(scratch, 'a'), seed: 11, scale })
    const b = generateHome({ root: join(scratch, 'b'), seed: 11, scale })
    expect(a.reused).toBe(false)
    expect(a.home.memoryFiles.length).toBe(30)
    expect(a.home.projectDirs.length).toBe(6)
    expect(a.home.transcriptBytes).toBeGreaterThanOrEqual(256 * 1024)
    // The same seed gives the same files, byte for byte (folder names differ: they encode the root).
    expect(b.home.memoryFiles.map((p) => basename(p))).toEqual(
      a.home.memoryFiles.map((p) => basename(p)),
    )
    a.home.memoryFiles.forEach((p, i) =>
      expect(readFileSync(b.home.memoryFiles[i], 'utf8')).toBe(readFileSync(p, 'utf8')),
    )
    expect(b.home.transcriptBytes).toBe(a.home.transcriptBytes)
    const again = generateHome({ root: join(scratch, 'a'), seed: 11, scale })
    expect(again.reused).toBe(true)
    expect(again.home.generateMs).toBe(a.home.generateMs)
  })
})

describe('bench run (small, no window)', () => {
  it(
    'times every command job against its baseline and writes JSON and the table',
    { timeout: 240_000 },
    async () => {
      const opts = {
        ...parseBenchArgs(['--scale', 'small', '--jobs', 'scan,cutoff,provenance,audit']),
        dir: join(scratch, 'home'),
        resultsDir: join(scratch, 'results'),
      }
      const out = await runBench(opts)
      const jobs = out.report.rows.map((r) => r.job)
      expect(jobs).toEqual([
        'scan',
        'scan (process)',
        'cutoff (every MEMORY.md)',
        'cutoff, every MEMORY.md (a process each)',
        'provenance, first run',
        'provenance, second run',
        'provenance, cold (process)',
        'provenance, warm (process)',
        `audit (${SMALL_SCALE.notes} notes)`,
        'audit, next run (log and searches kept)',
        'audit, notes dated from transcripts',
      ])
      // The process rows run the built CLI (issue 16); without a build they say so.
      const cliBuilt = existsSync('out/cli/index.js')
      for (const row of out.report.rows) {
        if (row.job.includes('(process') || row.job.includes('a process each')) {
          if (!cliBuilt) {
            expect(row.note, row.job).toMatch(/npm run build/)
            continue
          }
        }
        expect(row.note, row.job).toBeNull()
        expect(Number.isFinite(row.ratio), row.job).toBe(true)
        expect(row.ratio as number, row.job).toBeGreaterThan(0)
        expect(row.ms as number, row.job).toBeGreaterThan(0)
        expect(row.peakRssMiB as number, row.job).toBeGreaterThan(0)
        expect(typeof row.pass, row.job).toBe('boolean')
      }
      const scan = out.report.rows[0]
      expect(scan.details.projects).toBe(SMALL_SCALE.projects)
      expect(scan.details.memoryFilesFound).toBe(SMALL_SCALE.memoryFiles)
      const prov = out.report.rows[4]
      expect(prov.details.memoryWritesGenerated).toBeGreaterThan(0)
      expect(prov.details.memoryWritesFound).toBe(prov.details.memoryWritesGenerated)
      // The first run reads every transcript byte, and parses only the memory writes and
      // their results: 2 lines per write. The baseline grep saw every tool_use line.
      expect(prov.details.bytesRead).toBe(prov.details.transcriptBytes)
      expect(prov.details.linesParsed).toBe(2 * (prov.details.memoryWritesGenerated as number))
      expect(prov.details.grepExit).toBe(0)
      expect(prov.details.grepToolUseLinesInFirst64KiB as number).toBeGreaterThanOrEqual(
        prov.details.memoryWritesGenerated as number,
      )
      // The second run reads nothing new and is faster than the first.
      expect(out.report.rows[5].details.bytesRead).toBe(0)
      expect(out.report.rows[5].ms as number).toBeLessThan(prov.ms as number)
      expect(out.report.machine.cpus).toBeGreaterThan(0)
      expect(out.report.machine.git).toMatch(/^\d+\.\d+/)
      const json = JSON.parse(readFileSync(out.jsonPath, 'utf8')) as {
        rows: unknown[]
        text: string
      }
      expect(json.rows.length).toBe(11)
      expect(json.text).toBe(formatReport(out.report))
      expect(out.text).toContain('| scan |')
      // The generated home stays (the cache), the run's own folders go.
      expect(existsSync(join(scratch, 'home', 'manifest.json'))).toBe(true)
    },
  )
})
