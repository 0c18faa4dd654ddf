/**
 * Where the real agents differ from the documentation (docs/memory-rules.md §1–§4, [agent] marks;
 * issue 13 and issue 11 item 6). Each case is a real tree in a temp folder, read through
 * src/node/load-order/load-order.ts as the CLI and the window read it. Never touches the real homes.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import {
  claudeLoadOrder,
  type ClaudeFsPort,
  type PortRead,
} from '../../../../src/core/load-order/claude'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { utf8Length } from '../../../../src/core/text'
import { loadOrder, type LoadOrderReport } from '../../../../src/node/load-order/load-order'
import { CORE_INPUT } from '../../../helpers/load-order-input'
import { git } from '../../../helpers/git'

let root: string
const p = (rel: string): string => join(root, rel)
const write = (rel: string, text: string | Buffer): void => {
  mkdirSync(dirname(p(rel)), { recursive: true })
  writeFileSync(p(rel), text)
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'load-order-agent-')))
  mkdirSync(p('home/.claude'), { recursive: true })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** load-order for `cwd` with temp homes; `env` adds to HOME. */
function run(cwd: string, env: Record<string, string> = {}): Promise<LoadOrderReport> {
  return loadOrder({
    cwd: p(cwd),
    claudeHome: p('home/.claude'),
    codexHome: p('home/.codex'),
    managedDir: p('managed'),
    env: { HOME: p('home'), ...env },
  })
}
const startup = (r: LoadOrderReport): string[] =>
  r.claude.startup.map((s) => s.path.slice(root.length + 1))
const skipped = (r: LoadOrderReport): string[][] =>
  r.claude.skipped.map((s) => [s.path.slice(root.length + 1), s.reason])

describe('rule files', () => {
  test('load in the raw order the filesystem returns (ls -f), not sorted', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, '0')}.md`)
    for (const n of names) write(`repo/.claude/rules/${n}`, `${n}\n`)
    // The reference is another program: GNU ls -f lists the directory unsorted.
    const raw = execFileSync('ls', ['-f', '-1', p('repo/.claude/rules')], { encoding: 'utf8' })
      .split('\n')
      .filter((n) => n.endsWith('.md'))
    expect(new Set(raw)).toEqual(new Set(names))
    const r = await run('repo')
    expect(startup(r)).toEqual(raw.map((n) => `repo/.claude/rules/${n}`))
    // On a filesystem that happens to return sorted names the test still checks the order,
    // but proves less; say so rather than pass silently.
    if (raw.join() === [...raw].sort().join())
      console.warn('rules folder listed sorted on this filesystem')
  })

  test('the core keeps the order its port lists', async () => {
    const files: Record<string, string> = {
      '/r/.claude/rules/b.md': 'b\n',
      '/r/.claude/rules/a.md': 'a\n',
      '/r/.claude/rules/c.md': 'c\n',
    }
    const r = await claudeLoadOrder({ ...CORE_INPUT, cwd: '/r' }, recordingPort(files, []))
    expect(r.startup.map((s) => s.path)).toEqual(Object.keys(files))
  })

  test("AGENTS.md comes after its folder's rules", async () => {
    write('repo/AGENTS.md', 'agents\n')
    write('repo/.claude/rules/a.md', 'a\n')
    write('repo/CLAUDE.local.md', '   \n')
    const r = await run('repo')
    expect(startup(r)).toEqual(['repo/.claude/rules/a.md', 'repo/AGENTS.md'])
  })
})

describe('empty files', () => {
  test('whitespace-only CLAUDE.md and rules are not sent and do not shadow AGENTS.md', async () => {
    write('repo/CLAUDE.md', ' \n\n\t\n')
    write('repo/.claude/CLAUDE.md', '')
    write('repo/.claude/rules/blank.md', '\n\n')
    write('repo/.claude/rules/real.md', 'real\n')
    write('repo/AGENTS.md', 'agents\n')
    write('repo/sub/CLAUDE.md', '\n')
    const r = await run('repo')
    expect(startup(r)).toEqual(['repo/.claude/rules/real.md', 'repo/AGENTS.md'])
    expect(skipped(r)).toEqual([
      ['repo/CLAUDE.md', 'empty'],
      ['repo/.claude/CLAUDE.md', 'empty'],
      ['repo/.claude/rules/blank.md', 'empty'],
      ['repo/sub/CLAUDE.md', 'empty'],
    ])
    expect(r.claude.onDemand).toEqual([])
  })
})

describe('imports outside the launch directory (issue 11 item 6)', () => {
  test('are reported and not read until approved for the project', async () => {
    write(
      'repo/app/CLAUDE.md',
      `@../shared.md\n@~/private.md\n@${p('outside/abs.md')}\n@inside.md\n`,
    )
    write('outside/abs.md', 'absolute\n')
    write('repo/app/inside.md', 'inside\n')
    write('repo/shared.md', 'shared\n')
    write('home/private.md', 'private\n')
    git(p('repo'), 'init', '-q')
    const r = await run('repo/app')
    expect(startup(r)).toEqual(['repo/app/CLAUDE.md', 'repo/app/inside.md'])
    expect(r.claude.skipped.map((s) => [s.path, s.reason])).toEqual([
      [p('repo/shared.md'), 'import-needs-approval'],
      [p('home/private.md'), 'import-needs-approval'],
      [p('outside/abs.md'), 'import-needs-approval'],
    ])
    // Approved for the git root in .claude.json: the agent reads them, so we do.
    write(
      'home/.claude.json',
      JSON.stringify({ projects: { [p('repo')]: { hasClaudeMdExternalIncludesApproved: true } } }),
    )
    const ok = await run('repo/app')
    expect(ok.claude.startup.map((s) => s.path)).toEqual([
      p('repo/app/CLAUDE.md'),
      p('repo/shared.md'),
      p('home/private.md'),
      p('outside/abs.md'),
      p('repo/app/inside.md'),
    ])
  })

  test('the unapproved target is never read; the user CLAUDE.md may import anywhere', async () => {
    const reads: string[] = []
    const files = {
      '/h/.claude/CLAUDE.md': '@/elsewhere/user-import.md\n',
      '/elsewhere/user-import.md': 'u\n',
      '/r/app/CLAUDE.md': '@../secret.md\n',
      '/r/secret.md': 'secret\n',
    }
    const r = await claudeLoadOrder(CORE_INPUT, recordingPort(files, reads))
    expect(r.startup.map((s) => s.path)).toEqual([
      '/h/.claude/CLAUDE.md',
      '/elsewhere/user-import.md',
      '/r/app/CLAUDE.md',
    ])
    expect(r.skipped.map((s) => [s.path, s.reason, s.importedBy])).toEqual([
      ['/r/secret.md', 'import-needs-approval', '/r/app/CLAUDE.md'],
    ])
    expect(reads).not.toContain('/r/secret.md')
  })
})

describe('worktrees', () => {
  test('a worktree nested in its main checkout does not load the main CLAUDE.md', async () => {
    write('above/CLAUDE.md', 'above\n')
    write('above/main/CLAUDE.md', 'main\n')
    write('above/main/.claude/rules/main-rule.md', 'main rule\n')
    git(p('above/main'), 'init', '-q')
    git(p('above/main'), 'add', '-A')
    git(p('above/main'), 'commit', '-qm', 'init')
    git(p('above/main'), 'worktree', 'add', '-q', '-b', 'feat', '.claude/worktrees/feat')
    const r = await run('above/main/.claude/worktrees/feat')
    expect(startup(r)).toEqual([
      'above/CLAUDE.md',
      'above/main/.claude/worktrees/feat/CLAUDE.md',
      'above/main/.claude/worktrees/feat/.claude/rules/main-rule.md',
    ])
    expect(skipped(r)).toEqual([['above/main/CLAUDE.md', 'outside-worktree']])
    // A worktree beside the checkout walks up as usual.
    git(p('above/main'), 'worktree', 'add', '-q', '-b', 'side', '../side')
    expect(startup(await run('above/side'))).toEqual([
      'above/CLAUDE.md',
      'above/side/CLAUDE.md',
      'above/side/.claude/rules/main-rule.md',
    ])
  })
})

describe('memory switches and folder overrides (docs/memory-rules.md §1.6)', () => {
  const memoryOf = (r: LoadOrderReport) => r.claude.startup.filter((s) => s.scope === 'memory')
  beforeEach(() => {
    mkdirSync(p('proj'))
    write(`home/.claude/projects/${encodeProjectDir(p('proj'))}/memory/MEMORY.md`, '- default\n')
  })

  test('the default folder is used without switches', async () => {
    expect(memoryOf(await run('proj')).map((m) => m.path)).toEqual([
      p(`home/.claude/projects/${encodeProjectDir(p('proj'))}/memory/MEMORY.md`),
    ])
  })

  test('CLAUDE_CODE_DISABLE_AUTO_MEMORY=1: no MEMORY.md, and a warning says so', async () => {
    const r = await run('proj', { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })
    expect(memoryOf(r)).toEqual([])
    expect(r.claude.warnings.map((w) => w.code)).toContain('auto-memory-off')
  })

  test('autoMemoryEnabled: false in user or project settings turns it off', async () => {
    write('home/.claude/settings.json', JSON.stringify({ autoMemoryEnabled: false }))
    expect(memoryOf(await run('proj'))).toEqual([])
    write('home/.claude/settings.json', '{}')
    write('proj/.claude/settings.json', JSON.stringify({ autoMemoryEnabled: false }))
    const r = await run('proj')
    expect(memoryOf(r)).toEqual([])
    expect(r.claude.warnings.find((w) => w.code === 'auto-memory-off')?.message).toContain(
      'project settings',
    )
  })

  test('autoMemoryDirectory (absolute or ~/) moves the folder', async () => {
    write('home/elsewhere/MEMORY.md', '- one\n- two\n')
    write('home/.claude/settings.json', JSON.stringify({ autoMemoryDirectory: '~/elsewhere' }))
    const r = await run('proj')
    expect(memoryOf(r).map((m) => [m.path, m.lines])).toEqual([[p('home/elsewhere/MEMORY.md'), 2]])
  })

  test("the project's settings move it too, over the user's (as 2.1.332 does, npm run conformance)", async () => {
    write('home/elsewhere/MEMORY.md', '- one\n- two\n')
    write('home/.claude/settings.json', JSON.stringify({ autoMemoryDirectory: '~/elsewhere' }))
    write('proj/.claude/settings.json', JSON.stringify({ autoMemoryDirectory: p('moved') }))
    write('moved/MEMORY.md', '- moved\n')
    const r = await run('proj')
    expect(memoryOf(r).map((m) => [m.path, m.lines])).toEqual([[p('moved/MEMORY.md'), 1]])
  })

  test('a long launch path: the memory folder carries the agent hash suffix', async () => {
    const long = 'proj/' + 'a-rather-long-folder-name/'.repeat(9) + 'end'
    mkdirSync(p(long), { recursive: true })
    const folder = encodeProjectDir(p(long))
    expect(folder.length).toBeGreaterThan(200)
    write(`home/.claude/projects/${folder}/memory/MEMORY.md`, '- long\n')
    expect(memoryOf(await run(long)).map((m) => m.path)).toEqual([
      p(`home/.claude/projects/${folder}/memory/MEMORY.md`),
    ])
  })
})

describe('Codex budget cut (docs/memory-rules.md §4.4)', () => {
  test('a character broken at 32 KiB reaches the model as U+FFFD after 32,767 bytes', async () => {
    git(p('.'), 'init', '-q')
    write('AGENTS.md', 'x'.repeat(32_767) + 'é' + 'tail\n')
    const r = await run('.')
    expect(r.codex.files).toEqual([
      {
        path: p('AGENTS.md'),
        scope: 'project',
        bytes: 32_774,
        includedBytes: 32_767,
        truncated: true,
        brokenChar: true,
      },
    ])
    write('AGENTS.md', 'x'.repeat(32_766) + 'é' + 'tail\n')
    expect((await run('.')).codex.files[0]).toEqual({
      path: p('AGENTS.md'),
      scope: 'project',
      bytes: 32_773,
      includedBytes: 32_768,
      truncated: true,
    })
  })
})

/** Files in memory, listed in the order given (a folder's raw order); every read is recorded. */
function recordingPort(files: Record<string, string>, reads: string[]): ClaudeFsPort {
  const below = (dir: string) =>
    Object.keys(files)
      .filter((k) => k.startsWith(dir + '/'))
      .map((k) => k.slice(dir.length + 1))
  return {
    async readText(path: string): Promise<PortRead> {
      reads.push(path)
      const t = files[path]
      return t === undefined
        ? { ok: false, problem: 'missing', reason: 'no such file' }
        : { ok: true, text: t, bytes: utf8Length(t) }
    },
    async listRulesDir(dir: string) {
      return below(dir).filter((r) => r.endsWith('.md'))
    },
    async isDir(path: string) {
      return below(path).length > 0
    },
    async listSubdirs() {
      return []
    },
  }
}

describe('where approvals are recorded', () => {
  test('with CLAUDE_CONFIG_DIR set, .claude.json inside it counts (observed by npm run conformance)', async () => {
    write('repo/app/CLAUDE.md', '@../shared.md\n')
    write('repo/shared.md', 'shared\n')
    git(p('repo'), 'init', '-q')
    write(
      'home/.claude/.claude.json',
      JSON.stringify({ projects: { [p('repo')]: { hasClaudeMdExternalIncludesApproved: true } } }),
    )
    const r = await run('repo/app', { CLAUDE_CONFIG_DIR: p('home/.claude') })
    expect(startup(r)).toEqual(['repo/app/CLAUDE.md', 'repo/shared.md'])
    // Without CLAUDE_CONFIG_DIR the file in the home counts, and it holds no approval.
    expect(startup(await run('repo/app'))).toEqual(['repo/app/CLAUDE.md'])
  })
})
