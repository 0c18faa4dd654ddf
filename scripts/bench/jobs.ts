/**
 * The command-line jobs, each timed against a baseline doing the minimum I/O for the same
 * answer: scan, cutoff, provenance (first and second run) and audit (issue 7).
 */
import type { Dirent } from 'node:fs'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { open, readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import { SCAN_FILE_CONCURRENCY } from '../../src/core/limits'
import { auditMemory } from '../../src/node/audit/audit'
import { cutoffFile } from '../../src/node/memory/cutoff-file'
import { clearRepoCache } from '../../src/node/git/repo'
import { clearHistoryCache } from '../../src/node/git/history'
import { keepHistoryIn } from '../../src/node/git/history-store'
import { clearPickaxeCache } from '../../src/node/audit/pickaxe'
import { provenance, writtenAtProvider } from '../../src/node/transcripts/provenance'
import { scanClaudeHome } from '../../src/node/memory/scan'
import { runAuditBench } from '../bench-audit'
import type { GeneratedHome } from './generate-home'
import { bestChildOf, bestOf, forEachLimited, measureInProcess } from './measure'
import type { BenchScale } from './options'
import { ratioRow, TARGETS, type BenchRow } from './report'

/** Each repeatable job and baseline runs this often; the table shows the fastest (less noise). */
export const RUNS = 2

/**
 * Bytes of a transcript head the baseline reads: the first read `readTranscriptHead` makes
 * (src/node/transcripts/head.ts asks for 16 KiB first; most heads end within it).
 */
const HEAD_READ_BYTES = 16 * 1024

/** Read the first `n` bytes of a file. */
async function readHead(path: string, n: number): Promise<number> {
  const fh = await open(path, 'r')
  try {
    const { bytesRead } = await fh.read(Buffer.alloc(n), 0, n, 0)
    return bytesRead
  } finally {
    await fh.close()
  }
}

/**
 * The scan baseline: list every project folder, its sub-agent and memory folders, read every
 * memory file whole and the first read of every transcript — the bytes `scan` needs, no parsing.
 */
async function scanBaseline(claudeHome: string): Promise<{ files: number; bytes: number }> {
  const projects = join(claudeHome, 'projects')
  const memory: string[] = []
  const heads: string[] = []
  const walk = async (dir: string, into: string[], ext: string): Promise<void> => {
    let entries: Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      if (e.isDirectory()) await walk(join(dir, e.name), into, ext)
      else if (e.name.endsWith(ext)) into.push(join(dir, e.name))
    }
  }
  for (const p of await readdir(projects, { withFileTypes: true })) {
    if (!p.isDirectory()) continue
    const dir = join(projects, p.name)
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name)
      if (e.isDirectory() && e.name === 'memory') await walk(path, memory, '.md')
      else if (e.isDirectory()) await walk(join(path, 'subagents'), heads, '.jsonl')
      else if (e.name.endsWith('.jsonl')) heads.push(path)
    }
  }
  let bytes = 0
  // The same cap on open files as the scan (src/core/limits.ts), so neither gets more parallel I/O.
  await forEachLimited([...memory, ...heads], SCAN_FILE_CONCURRENCY, async (path) => {
    bytes += path.endsWith('.md')
      ? (await readFile(path)).length
      : await readHead(path, HEAD_READ_BYTES)
  })
  return { files: memory.length + heads.length, bytes }
}

/** `scan` of the whole home against listing it and reading the same memory files and heads. */
export async function benchScan(home: GeneratedHome): Promise<BenchRow> {
  const base = await bestOf(RUNS, () => scanBaseline(home.claudeHome))
  // Cold repository lookups each time: the first scan of a session pays for them.
  const job = await bestOf(RUNS, () => scanClaudeHome(home.claudeHome), clearRepoCache)
  const files = job.value.projects.reduce((n, p) => n + p.memoryFiles.length, 0)
  return ratioRow(
    'scan',
    job.ms,
    'readdir + read memory files + 16 KiB transcript heads (node)',
    base.ms,
    job.peakRssMiB,
    base.peakRssMiB,
    {
      projects: job.value.projects.length,
      memoryFilesFound: files,
      withRepoRoot: job.value.projects.filter((p) => p.repoRoot !== null).length,
      baselineFiles: base.value.files,
      baselineBytes: base.value.bytes,
      runsMs: job.allMs.join(' / '),
      baselineRunsMs: base.allMs.join(' / '),
      rssBeforeMiB: Math.round(job.rssBeforeMiB),
    },
  )
}

/** `cutoff` of every MEMORY.md against reading each and listing its folder (for orphans). */
export async function benchCutoff(home: GeneratedHome): Promise<BenchRow> {
  const base = await bestOf(RUNS, async () => {
    let bytes = 0
    for (const index of home.memoryIndexes) {
      bytes += (await readFile(index)).length
      await readdir(dirname(index))
    }
    return bytes
  })
  const job = await bestOf(RUNS, async () => {
    let overflowing = 0
    let orphans = 0
    for (const index of home.memoryIndexes) {
      const r = await cutoffFile(index)
      if (r.firstUnloadedLine !== null) overflowing++
      orphans += r.orphans.length
    }
    return { overflowing, orphans }
  })
  return ratioRow(
    'cutoff (every MEMORY.md)',
    job.ms,
    'read each MEMORY.md + list its folder (node)',
    base.ms,
    job.peakRssMiB,
    base.peakRssMiB,
    {
      files: home.memoryIndexes.length,
      overflowing: job.value.overflowing,
      orphans: job.value.orphans,
      bytes: base.value,
      runsMs: job.allMs.join(' / '),
      baselineRunsMs: base.allMs.join(' / '),
    },
  )
}

/** `provenance` over every transcript: first run (cold index) against `grep -c`, second against the first. */
export async function benchProvenance(
  home: GeneratedHome,
  workDir: string,
): Promise<{ rows: BenchRow[]; cacheDir: string }> {
  const cacheDir = join(workDir, 'provenance-cache')
  // C locale: grep's fastest byte matching, the floor for "look at every byte once".
  const grep = await bestChildOf(
    RUNS,
    'grep',
    ['-r', '-c', '--include=*.jsonl', '"tool_use"', join(home.claudeHome, 'projects')],
    {
      env: { ...process.env, LC_ALL: 'C' },
    },
  )
  const toolUseLines = grep.stdoutHead.length > 0 ? sumGrepCounts(grep.stdoutHead) : null
  // A first run each time: the index cache starts empty.
  const fresh = (): void => {
    rmSync(cacheDir, { recursive: true, force: true })
    mkdirSync(cacheDir, { recursive: true })
  }
  const first = await bestOf(
    RUNS,
    () => provenance({ claudeHome: home.claudeHome, cacheDir }),
    fresh,
  )
  const second = await bestOf(RUNS, () => provenance({ claudeHome: home.claudeHome, cacheDir }))
  const writesFound = first.value.files.reduce((n, f) => n + f.writes.length, 0)
  const MiB = 1024 * 1024
  const firstRow = ratioRow(
    'provenance, first run',
    first.ms,
    'grep -rc \'"tool_use"\' (LC_ALL=C)',
    grep.ms,
    first.peakRssMiB,
    grep.peakRssMiB,
    {
      transcripts: first.value.stats.files,
      transcriptBytes: home.transcriptBytes,
      bytesRead: first.value.stats.bytesRead,
      MBps: Math.round(first.value.stats.bytesRead / MiB / (first.ms / 1000)),
      linesParsed: first.value.stats.linesParsed,
      memoryWritesGenerated: home.memoryWrites,
      memoryWritesFound: writesFound,
      rssBeforeMiB: Math.round(first.rssBeforeMiB),
      peakGrowthMiB: Math.round(first.peakRssMiB - first.rssBeforeMiB),
      runsMs: first.allMs.join(' / '),
      baselineRunsMs: grep.allMs.join(' / '),
      grepExit: grep.code,
      grepToolUseLinesInFirst64KiB: toolUseLines,
    },
  )
  const secondRow = ratioRow(
    'provenance, second run',
    second.ms,
    'the first run',
    first.ms,
    second.peakRssMiB,
    first.peakRssMiB,
    {
      bytesRead: second.value.stats.bytesRead,
      cacheHits: second.value.stats.cacheHits,
      runsMs: second.allMs.join(' / '),
    },
    TARGETS.secondRunFraction,
    `< ${TARGETS.secondRunFraction * 100}% of the first`,
  )
  return { rows: [firstRow, secondRow], cacheDir }
}

function sumGrepCounts(out: string): number {
  return out
    .split('\n')
    .filter((l) => l.includes(':'))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(':') + 1) || 0), 0)
}

export interface AuditFixture {
  /** The generated repository and its notes (scripts/bench-audit.ts), kept for the window. */
  readonly repo: string
  readonly memoryDir: string
  readonly dir: string
}

/**
 * `audit` of the notes against `git log --name-status`: the repository and notes come from
 * scripts/bench-audit.ts (its own timings go to the details); this pass re-times both with
 * peak memory, with a cold history cache.
 */
export async function benchAudit(
  scale: BenchScale,
): Promise<{ row: BenchRow; nextRow: BenchRow; fixture: AuditFixture }> {
  const gen = await runAuditBench({
    files: scale.repoFiles,
    commits: scale.repoCommits,
    notes: scale.notes,
    keep: true,
  })
  const dir = realpathSync(gen.dir)
  const repo = join(dir, 'repo')
  const memoryDir = join(dir, 'memory')
  const base = await bestChildOf(RUNS, 'git', ['log', '--name-status'], { cwd: repo })
  // Cold history cache each time, as a first audit of the session.
  const job = await bestOf(RUNS, () => auditMemory({ memoryDir, repo }), clearHistoryCache)
  const row = ratioRow(
    `audit (${gen.notes} notes)`,
    job.ms,
    'git log --name-status',
    base.ms,
    job.peakRssMiB,
    base.peakRssMiB,
    {
      files: gen.files,
      commits: gen.commits,
      notes: job.value.notes.length,
      stale: job.value.summary.stale,
      suspect: job.value.summary.suspect,
      fresh: job.value.summary.fresh,
      generateMs: Math.round(gen.setupMs),
      benchAuditColdMs: Math.round(gen.auditMs),
      benchAuditWarmMs: Math.round(gen.warmAuditMs),
      benchAuditBaselineMs: Math.round(gen.baselineMs),
      gitLogBytes: base.stdoutBytes,
      runsMs: job.allMs.join(' / '),
      baselineRunsMs: base.allMs.join(' / '),
    },
  )
  const nextRow = await benchAuditNext(repo, memoryDir, dir, base)
  return { row, nextRow, fixture: { repo, memoryDir, dir } }
}

/**
 * The audit a command-line run after the first makes: the history log and the searches of
 * commits kept in a state folder (node/git/history-store.ts, node/git/kept-searches.ts), each run
 * with the process's own caches cleared, as a new process starts. The first run fills the folder.
 */
async function benchAuditNext(
  repo: string,
  memoryDir: string,
  dir: string,
  base: { readonly ms: number; readonly peakRssMiB: number | null },
): Promise<BenchRow> {
  const state = mkdtempSync(join(dir, 'state-'))
  const fresh = (): void => {
    clearHistoryCache()
    clearPickaxeCache()
  }
  keepHistoryIn(state)
  try {
    fresh()
    const first = await measureInProcess(() => auditMemory({ memoryDir, repo }))
    const job = await bestOf(RUNS, () => auditMemory({ memoryDir, repo }), fresh)
    return ratioRow(
      `audit, next run (log and searches kept)`,
      job.ms,
      'git log --name-status',
      base.ms,
      job.peakRssMiB,
      base.peakRssMiB,
      {
        notes: job.value.notes.length,
        firstRunMs: Math.round(first.ms),
        runsMs: job.allMs.join(' / '),
      },
    )
  } finally {
    keepHistoryIn(null)
    rmSync(state, { recursive: true, force: true })
  }
}

/**
 * Put the audit repository's notes into the home as a project of their own (a transcript naming
 * the repository as cwd, memory under its encoded path, docs/memory-rules.md §1.5) for the window and the
 * audit-with-dates row. Returns the project folder, to remove afterwards.
 */
export function addAuditProject(
  home: GeneratedHome,
  fixture: AuditFixture,
): { projectDir: string; memoryDir: string } {
  const projectDir = join(home.claudeHome, 'projects', encodeProjectDir(fixture.repo))
  const memoryDir = join(projectDir, 'memory')
  mkdirSync(projectDir, { recursive: true })
  cpSync(fixture.memoryDir, memoryDir, { recursive: true })
  const line = {
    type: 'user',
    parentUuid: null,
    uuid: 'bench-audit-0',
    sessionId: '00000000-0000-4000-8000-00000000a0d1',
    cwd: fixture.repo,
    gitBranch: 'main',
    version: '2.1.70',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: 'user', content: 'audit the notes' },
  }
  writeFileSync(join(projectDir, `${line.sessionId}.jsonl`), JSON.stringify(line) + '\n')
  return { projectDir, memoryDir }
}

/**
 * The audit as the CLI and the window run it: each note dated from the transcripts of the whole
 * home (writtenAtProvider), with the provenance index already built by the provenance job.
 */
export async function benchAuditWithDates(
  home: GeneratedHome,
  memoryDir: string,
  repo: string,
  cacheDir: string,
  plainMs: number,
): Promise<BenchRow> {
  const notes = readdirSync(memoryDir).length
  const job = await bestOf(
    RUNS,
    () =>
      auditMemory({
        memoryDir,
        repo,
        writtenAtFor: writtenAtProvider({ claudeHome: home.claudeHome, cacheDir }),
      }),
    clearHistoryCache,
  )
  return ratioRow(
    'audit, notes dated from transcripts',
    job.ms,
    'the same audit without dates',
    plainMs,
    job.peakRssMiB,
    null,
    {
      memoryFiles: notes,
      dated: job.value.notes.filter((n) => n.writtenAt !== null).length,
      runsMs: job.allMs.join(' / '),
    },
  )
}
