/**
 * The real command line (the built `out/cli/index.js`) on real trees in temp folders and
 * on the shared corpus: the contract's JSON, exit codes, and one-line errors.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawDirOrder } from '../../helpers/raw-dir'
import { createFixtureHome, type FixtureHome } from '../../helpers/fixture-home'
import { CORPUS_ROOT, FIXTURES_ROOT, needsCorpus } from '../../helpers/corpus'

const CLI = resolve('out/cli/index.js')
const built = existsSync(CLI)
const CORPUS = CORPUS_ROOT

interface Run {
  code: number
  stdout: string
  stderr: string
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((ok) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        ok({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
      },
    )
  })
}

/** `load-order --json` for launch folder repo/sub of the temp tree `root`, homes ch, cx and m. */
function loadOrderInSub(root: string): Promise<Run> {
  return cli(
    [
      'load-order',
      '--json',
      '--cwd',
      join(root, 'repo', 'sub'),
      '--claude-home',
      join(root, 'ch'),
      '--codex-home',
      join(root, 'cx'),
      '--managed-dir',
      join(root, 'm'),
    ],
    { HOME: root },
  )
}

let f: FixtureHome
let env: Record<string, string>
beforeAll(() => {
  f = createFixtureHome()
  env = { HOME: f.home, CLAUDE_CONFIG_DIR: f.claudeHome, CODEX_HOME: f.codexHome }
})
afterAll(() => f?.cleanup())

describe.skipIf(!built)(
  'memory-curator CLI (skipped when out/cli is not built: run `npm run build`)',
  () => {
    it('scan --json lists every project with its launch directory from transcripts', async () => {
      const r = await cli(['scan', '--json', '--claude-home', f.claudeHome], env)
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout)
      expect(out.claudeHome).toBe(f.claudeHome)
      const shop = out.projects.find((p: { cwds: string[] }) => p.cwds.includes(f.repo))
      expect(shop).toMatchObject({
        dir: f.projectDir,
        repoRoot: f.repo,
        sessions: 1,
        memoryDir: f.memoryDir,
      })
      expect(shop.memoryFiles[0]).toMatchObject({
        path: join(f.memoryDir, 'MEMORY.md'),
        role: 'index',
        lines: 244,
      })
      expect(out.projects).toHaveLength(3)
      const none = out.projects.find((p: { id: string }) => p.id === '-tmp-no-transcripts')
      expect(none.cwds).toEqual([])
    })

    it('cutoff --json reports the exact cutoff of a MEMORY.md past 200 lines', async () => {
      const r = await cli(['cutoff', '--json', join(f.memoryDir, 'MEMORY.md')], env)
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout)
      expect(out).toMatchObject({
        totalLines: 244,
        loadedLines: 200,
        limitHit: 'lines',
        firstUnloadedLine: 201,
      })
      // Entry i sits on line 2 + i + ceil(i / 20): entries 189..230 fall below line 200.
      expect(out.entries.filter((e: { loaded: boolean }) => !e.loaded)).toHaveLength(42)
      expect(out.orphans).toEqual([join(f.memoryDir, 'orphan-topic.md')])
      expect(out.dangling.length).toBe(230 - 5)
    })

    it('load-order --json for a launch directory in the repository', async () => {
      const r = await cli(
        [
          'load-order',
          '--json',
          '--cwd',
          f.repo,
          '--claude-home',
          f.claudeHome,
          '--codex-home',
          f.codexHome,
          '--managed-dir',
          f.managedDir,
        ],
        env,
      )
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout)
      expect(out.cwd).toBe(f.repo)
      const paths = out.claude.startup.map(
        (s: { path: string; scope: string }) => `${s.scope}:${s.path}`,
      )
      expect(paths).toEqual([
        `project:${join(f.repo, 'CLAUDE.md')}`,
        `memory:${join(f.memoryDir, 'MEMORY.md')}`,
      ])
      expect(out.codex.budgetBytes).toBe(32768)
    })

    it('load-order on the corpus: globs rules warn, the block comment is stripped, @AGENTS.md imports', async (ctx) => {
      needsCorpus(ctx)
      const root = mkdtempSync(join(tmpdir(), 'mc-corpus-'))
      try {
        mkdirSync(join(root, 'repo', '.claude', 'rules'), { recursive: true })
        mkdirSync(join(root, 'repo', '.git'))
        copyFileSync(
          join(CORPUS, 'instructions', 'easytrade-CLAUDE.md'),
          join(root, 'repo', 'CLAUDE.md'),
        )
        copyFileSync(
          join(CORPUS, 'rules', 'easytrade-tests.md'),
          join(root, 'repo', '.claude', 'rules', 'tests.md'),
        )
        copyFileSync(
          join(CORPUS, 'rules', 'easytrade-typescript.md'),
          join(root, 'repo', '.claude', 'rules', 'typescript.md'),
        )
        mkdirSync(join(root, 'repo', 'sub'))
        copyFileSync(
          join(CORPUS, 'instructions', 'simonw-CLAUDE.md'),
          join(root, 'repo', 'sub', 'CLAUDE.md'),
        )
        copyFileSync(
          join(CORPUS, 'instructions', 'simonw-AGENTS.md'),
          join(root, 'repo', 'sub', 'AGENTS.md'),
        )
        const r = await loadOrderInSub(root)
        expect(r.code).toBe(0)
        const out = JSON.parse(r.stdout)
        const codes = out.claude.warnings.map((w: { code: string }) => w.code)
        expect(codes.filter((c: string) => c === 'globs-not-paths')).toHaveLength(2)
        const startup = out.claude.startup.map((s: { path: string }) => s.path.slice(root.length))
        // Rules come in the raw order the filesystem lists them (docs/memory-rules.md §3.5), so compare them as a set.
        expect([startup[0], ...startup.slice(1, 3).sort(), ...startup.slice(3)]).toEqual([
          '/repo/CLAUDE.md',
          '/repo/.claude/rules/tests.md',
          '/repo/.claude/rules/typescript.md',
          '/repo/sub/CLAUDE.md',
          '/repo/sub/AGENTS.md',
        ])
        expect(out.claude.startup[4].importedBy).toBe(join(root, 'repo', 'sub', 'CLAUDE.md'))
        // Codex reads AGENTS.md in sub (one file per directory; none in repo/).
        expect(out.codex.files.map((x: { path: string }) => x.path)).toEqual([
          join(root, 'repo', 'sub', 'AGENTS.md'),
        ])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })

    it('prints a readable report without --json', async () => {
      const r = await cli(['cutoff', join(f.memoryDir, 'MEMORY.md')], env)
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('loaded: 200 of 200 lines')
      expect(r.stdout).toContain('from line 201 on, nothing loads')
    })

    it.each([
      [['cutoff', '/nonexistent/MEMORY.md'], '/nonexistent/MEMORY.md: no such file'],
      [['load-order', '--cwd', '/nonexistent-dir'], '--cwd /nonexistent-dir: no such directory'],
      [
        ['scan', '--claude-home', '/nonexistent-home'],
        '--claude-home /nonexistent-home: no such directory',
      ],
      [['frobnicate'], 'unknown command frobnicate'],
      [['audit'], 'exactly one of'],
    ])('exits 2 with a one-line reason for %j', async (args, reason) => {
      const r = await cli(args, env)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(reason)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stdout).toBe('')
    })

    it('cutoff of a directory named MEMORY.md is an unreadable argument', async () => {
      const dir = join(f.root, 'weird', 'MEMORY.md')
      mkdirSync(dir, { recursive: true })
      const r = await cli(['cutoff', dir], env)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('is a directory')
    })

    it('cutoff --json of invalid UTF-8 reports the problem and still counts', async () => {
      const file = join(f.root, 'bad-utf8', 'MEMORY.md')
      mkdirSync(join(f.root, 'bad-utf8'), { recursive: true })
      writeFileSync(
        file,
        Buffer.concat([Buffer.from('- [A](a.md) — ok\n'), Buffer.from([0xc3, 0x28, 0x0a])]),
      )
      const r = await cli(['cutoff', '--json', file], env)
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout)
      expect(out.totalLines).toBe(2)
      expect(out.problems.map((p: { reason: string }) => p.reason).join(' ')).toMatch(/UTF-8/)
    })
  },
)

describe.skipIf(!built)("memory-curator CLI on the project's own fixtures (tests/fixtures)", () => {
  it('load-order: globs rules warn, the block comment is stripped, @AGENTS.md imports', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mc-own-fixtures-'))
    try {
      const put = (from: string, rel: string) => {
        mkdirSync(join(root, 'repo', rel, '..'), { recursive: true })
        copyFileSync(join(FIXTURES_ROOT, from), join(root, 'repo', rel))
      }
      mkdirSync(join(root, 'repo', '.git'), { recursive: true })
      put('instructions/comment-first-CLAUDE.md', 'CLAUDE.md')
      put('rules/globs-tests.md', '.claude/rules/tests.md')
      put('rules/globs-typescript.md', '.claude/rules/typescript.md')
      put('instructions/import-only-CLAUDE.md', 'sub/CLAUDE.md')
      put('instructions/import-only-AGENTS.md', 'sub/AGENTS.md')
      const r = await loadOrderInSub(root)
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout)
      const codes = out.claude.warnings.map((w: { code: string }) => w.code)
      expect(codes.filter((c: string) => c === 'globs-not-paths')).toHaveLength(2)
      const startup = out.claude.startup.map((s: { path: string; lines: number }) => [
        s.path.slice(root.length),
        s.lines,
      ])
      // The CLAUDE.md has 18 lines on disk; its 3-line leading comment is not loaded.
      // Rules in the raw order the filesystem lists them (docs/memory-rules.md §3.5 [agent]).
      const rules = rawDirOrder(join(root, 'repo', '.claude', 'rules')).map((n) => [
        `/repo/.claude/rules/${n}`,
        n === 'tests.md' ? 7 : 6,
      ])
      expect(startup).toEqual([
        ['/repo/CLAUDE.md', 15],
        ...rules,
        ['/repo/sub/CLAUDE.md', 1],
        ['/repo/sub/AGENTS.md', 11],
      ])
      expect(out.claude.startup[4].importedBy).toBe(join(root, 'repo', 'sub', 'CLAUDE.md'))
      // Codex reads AGENTS.md in sub (one file per directory; none in repo/).
      expect(out.codex.files.map((x: { path: string }) => x.path)).toEqual([
        join(root, 'repo', 'sub', 'AGENTS.md'),
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
