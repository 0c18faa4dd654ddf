/**
 * Bad input (issue 8): every input of tests/helpers/bad-inputs/ (planted.ts), planted in a real tree,
 * through the built CLI (scan, cutoff, load-order, audit, provenance) and through the pure
 * parsers. For each: no crash (exit 0, or 2 with one line naming the problem), no hang past
 * 60 s, and no byte or mtime of the tree changed (no write without an edit).
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { beforeAll, describe, expect, it } from 'vitest'
import { computeCutoff } from '../../../src/core/memory/cutoff'
import { parseFrontmatter } from '../../../src/core/markdown/frontmatter'
import { findImports } from '../../../src/core/load-order/imports'
import { stripForLoading } from '../../../src/core/markdown/strip'
import { findIndexEntry } from '../../../src/core/memory/edit-plan'
import { parseIndexEntries } from '../../../src/core/memory/index-entries'
import { notesFromInstructionFile, notesFromMemory } from '../../../src/core/memory/notes'
import { extractReferences } from '../../../src/core/audit/references'
import { planClaims } from '../../../src/core/audit/plan-claims'
import { seriesClaims } from '../../../src/core/audit/count-claims'
import { proseNames } from '../../../src/core/audit/prose-names'
import { parseRule } from '../../../src/core/load-order/rules'
import { parseTranscriptLine, quickMayMatter } from '../../../src/core/transcripts/line'
import { BAD_INPUTS } from '../../helpers/bad-inputs/planted'
import { PATHOLOGICAL_TEXTS } from '../../helpers/bad-inputs/pathological-texts'
import { createBadTree, type BadTree } from '../../helpers/bad-inputs/tree'
import { diffSnapshots, snapshotTree } from '../../helpers/bad-inputs/snapshots'

const BUILT_CLI = resolve('out/cli/index.js')
const built = existsSync(BUILT_CLI)
/**
 * A private copy of the bundle: other work in the same tree may rebuild `out/` while this
 * suite runs, and a half-written bundle is not a crash of ours.
 */
let CLI = BUILT_CLI
beforeAll(() => {
  if (!built) return
  // Inside the checkout (gitignored), so the bundle still finds node_modules.
  mkdirSync('test-results', { recursive: true })
  const dir = mkdtempSync(resolve('test-results', 'cli-copy-'))
  // The whole folder: index.js loads its chunks and the heavy-job worker from beside it.
  cpSync(dirname(BUILT_CLI), join(dir, 'cli'), { recursive: true })
  CLI = join(dir, 'cli', 'index.js')
  return () => rmSync(dir, { recursive: true, force: true })
})
/**
 * Hang detection only (issue 14): a generous limit that a busy machine never reaches. How long
 * each run took is reported as a figure (the `slowest` line); speed is `npm run bench`'s job.
 */
const HANG_MS = 60_000

interface CliRun {
  readonly code: number | null
  readonly signal: string | null
  readonly ms: number
  readonly stdout: string
  readonly stderr: string
  readonly hung: boolean
}

function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((done) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [CLI, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let hung = false
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => {
      hung = true
      child.kill('SIGKILL')
    }, HANG_MS)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      done({ code, signal, ms: performance.now() - t0, stdout, stderr, hung })
    })
  })
}

function commands(t: BadTree): Record<string, string[]> {
  const homes = [
    '--claude-home',
    t.claudeHome,
    '--codex-home',
    t.codexHome,
    '--managed-dir',
    t.managedDir,
  ]
  return {
    scan: ['scan', '--json', ...homes],
    cutoff: ['cutoff', '--json', join(t.memoryDir, 'MEMORY.md'), ...homes],
    'load-order': ['load-order', '--json', '--cwd', t.repo, ...homes],
    audit: ['audit', '--json', '--memory-dir', t.memoryDir, '--repo', t.repo, ...homes],
    provenance: ['provenance', '--json', '--memory-dir', t.memoryDir, ...homes],
  }
}

/** What went wrong with one run, or null when it kept the promise. */
function judge(run: CliRun): string | null {
  if (run.hung) return `hung: killed after ${HANG_MS} ms`
  if (run.signal) return `killed by ${run.signal}`
  if (run.code === 0) {
    try {
      JSON.parse(run.stdout)
    } catch {
      return 'exit 0 without one JSON document on stdout'
    }
    return null
  }
  if (run.code === 2) {
    const errLines = run.stderr.trimEnd().split('\n')
    if (errLines.length !== 1) return `exit 2 with ${errLines.length} lines on stderr`
    return null
  }
  return `crashed: exit ${run.code}: ${run.stderr.split('\n').slice(0, 3).join(' | ')}`
}

interface Row {
  readonly input: string
  readonly command: string
  readonly code: number | null
  readonly ms: number
  readonly failure: string | null
  readonly note: string
}

const rows: Row[] = []
const writes: string[] = []

describe.skipIf(!built)('bad input through the CLI (skipped when out/cli is not built)', () => {
  it.each(BAD_INPUTS.map((b) => [b.id, b] as const))(
    '%s: no crash, no hang, no write',
    async (_id, bad) => {
      const t = createBadTree()
      try {
        bad.plant(t)
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: t.processHome,
          XDG_STATE_HOME: join(t.processHome, 'state'),
          XDG_CACHE_HOME: join(t.processHome, 'cache'),
          CLAUDE_CONFIG_DIR: t.claudeHome,
          CODEX_HOME: t.codexHome,
        }
        const before = snapshotTree(t.watched)
        const failures: string[] = []
        for (const [name, args] of Object.entries(commands(t))) {
          const run = await runCli(args, env)
          const failure = judge(run)
          const note = run.code === 2 ? run.stderr.trim().slice(0, 160) : ''
          rows.push({
            input: bad.id,
            command: name,
            code: run.code,
            ms: Math.round(run.ms),
            failure,
            note,
          })
          if (failure) failures.push(`${name}: ${failure}`)
        }
        const changed = diffSnapshots(before, snapshotTree(t.watched))
        writes.push(...changed.map((c) => `${bad.id}: ${c}`))
        expect(failures, `${bad.id}: ${bad.what}`).toEqual([])
        expect(changed, `${bad.id}: the tree changed without an edit`).toEqual([])
      } finally {
        t.cleanup()
      }
    },
    6 * HANG_MS,
  )

  it('reports the figures', () => {
    const crashes = rows.filter((r) => r.failure && !r.failure.startsWith('hung')).length
    const hangs = rows.filter((r) => r.failure?.startsWith('hung')).length
    const slowest = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 5)
    const summary = {
      inputs: BAD_INPUTS.length,
      runs: rows.length,
      crashes,
      hangs,
      treesChanged: writes.length,
      line: `${BAD_INPUTS.length} bad inputs × 5 commands = ${rows.length} runs, ${crashes} crashes, ${hangs} hangs, ${writes.length} writes`,
      slowest,
      exit2: rows.filter((r) => r.code === 2).map((r) => `${r.input} ${r.command}: ${r.note}`),
      rows,
    }
    mkdirSync('test-results', { recursive: true })
    writeFileSync('test-results/reliability-bad-input.json', JSON.stringify(summary, null, 2))
    process.stderr.write(
      `${summary.line}; slowest ${slowest.map((r) => `${r.input}/${r.command} ${r.ms} ms`).join(', ')}\n`,
    )
    expect(rows.length).toBe(BAD_INPUTS.length * 5)
    expect(crashes + hangs + writes.length).toBe(0)
  })
})

describe('pathological text through the pure parsers', () => {
  /** Every pure function that sees file text, by name. */
  const parsers: Record<string, (text: string) => unknown> = {
    computeCutoff: (text) =>
      computeCutoff({
        file: '/m/MEMORY.md',
        text,
        totalBytes: text.length,
        topicFiles: ['a.md', 'b.md'],
      }),
    parseFrontmatter,
    findImports,
    stripForLoading,
    parseIndexEntries,
    findIndexEntry: (text) => findIndexEntry(text, 1),
    extractReferences,
    planClaims: (text) => planClaims(text, text.slice(0, 200)),
    seriesClaims,
    proseNames,
    notesFromMemory: (text) =>
      notesFromMemory({
        indexPath: '/m/MEMORY.md',
        indexText: text,
        topics: [{ name: 'a.md', path: '/m/a.md', text }],
      }),
    notesFromInstructionFile: (text) => notesFromInstructionFile('/r/CLAUDE.md', text),
    parseRule,
    parseTranscriptLine,
    quickMayMatter: (text) => quickMayMatter(text),
  }

  it.each(PATHOLOGICAL_TEXTS.map((p) => [p.id, p.text] as const))(
    '%s: every parser returns without throwing or hanging',
    (id, text) => {
      const slow: string[] = []
      for (const [name, fn] of Object.entries(parsers)) {
        const t0 = performance.now()
        expect(() => fn(text), `${name} on ${id}`).not.toThrow()
        const ms = performance.now() - t0
        if (ms > HANG_MS) slow.push(`${name}: ${Math.round(ms)} ms`)
      }
      expect(slow, id).toEqual([])
    },
    12 * HANG_MS,
  )

  it('refuses to expand a billion-laughs frontmatter', () => {
    const fm = parseFrontmatter(
      PATHOLOGICAL_TEXTS.find((p) => p.id === 'frontmatter-alias-bomb')!.text,
    )
    expect(fm.kind).toBe('error')
    if (fm.kind === 'error') expect(fm.reason).toMatch(/alias/i)
  })

  it('does not evaluate YAML tags', () => {
    const g = globalThis as { pwned?: number }
    parseFrontmatter('---\nname: !!js/function "function(){ globalThis.pwned = 1 }"\n---\n')
    expect(g.pwned).toBeUndefined()
  })
})
