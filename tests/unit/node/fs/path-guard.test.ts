import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { LoadOrderResult, ScanResult } from '../../../../src/shared/model'
import { isInside, PathGuard } from '../../../../src/node/fs/path-guard'

const root = mkdtempSync(join(tmpdir(), 'mc-guard-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A scan naming one project: launched in `cwd`, in the repository `repoRoot`. */
function scanOf(claudeHome: string, cwd: string, repoRoot: string | null): ScanResult {
  return {
    claudeHome,
    problems: [],
    projects: [
      {
        id: 'p',
        dir: join(claudeHome, 'projects', 'p'),
        cwds: [cwd],
        repoRoot,
        sessions: 1,
        memoryDir: null,
        memoryFiles: [],
        name: 'p',
        problems: [],
      },
    ],
  }
}

function chainOf(
  cwd: string,
  startup: { path: string; scope: 'project' | 'import' }[],
): LoadOrderResult {
  return {
    cwd,
    claude: {
      startup: startup.map((f) => ({ ...f, importedBy: null, lines: 1, chars: 1 })),
      onDemand: [],
      skipped: [],
      warnings: [],
    },
    codex: { budgetBytes: 0, files: [], dropped: [] },
  }
}

describe('PathGuard (issue 11: access follows purpose)', () => {
  const home = join(root, 'home')
  const memory = join(home, 'projects', 'p', 'memory')
  const sibling = join(root, 'home-evil')
  const outside = join(root, 'outside')
  const repo = join(root, 'repo')
  mkdirSync(memory, { recursive: true })
  mkdirSync(join(sibling, 'projects', 'p', 'memory'), { recursive: true })
  mkdirSync(outside)
  mkdirSync(join(repo, '.git'), { recursive: true })
  writeFileSync(join(outside, 'secret.md'), 'secret')
  writeFileSync(join(memory, 'MEMORY.md'), '# m\n')
  symlinkSync(join(outside, 'secret.md'), join(memory, 'escape.md'))
  symlinkSync(outside, join(memory, 'escape-dir'))
  symlinkSync(home, join(root, 'link-to-home'))
  writeFileSync(join(repo, 'CLAUDE.md'), 'x')

  it('accepts memory files, existing or not, and the memory folder', async () => {
    const guard = new PathGuard()
    await guard.setClaudeHome(home)
    expect(await guard.check('write-note-file', join(memory, 'MEMORY.md'))).toEqual({
      ok: true,
      path: join(memory, 'MEMORY.md'),
    })
    expect(await guard.check('write-note-file', join(memory, 'new.md'))).toEqual({
      ok: true,
      path: join(memory, 'new.md'),
    })
    expect(await guard.check('memory-folder', memory)).toEqual({ ok: true, path: memory })
    // A Claude home reached through a symlink is the same home.
    await guard.setClaudeHome(join(root, 'link-to-home'))
    expect(
      (
        await guard.check(
          'read-note-file',
          join(root, 'link-to-home', 'projects', 'p', 'memory', 'MEMORY.md'),
        )
      ).ok,
    ).toBe(true)
  })

  it('refuses .., prefix siblings, relative paths, NUL and symlinks that escape, naming path and reason', async () => {
    const guard = new PathGuard()
    await guard.setClaudeHome(home)
    const refused = async (p: string): Promise<string> => {
      const v = await guard.check('read-note-file', p)
      expect(v.ok).toBe(false)
      return v.ok ? '' : v.reason
    }
    expect(await refused(join(memory, '..', '..', '..', '..', 'outside', 'secret.md'))).toContain(
      'not a memory file',
    )
    expect(await refused(join(sibling, 'projects', 'p', 'memory', 'x.md'))).toContain(
      'not a memory file',
    )
    expect(await refused('projects/p/memory/MEMORY.md')).toContain('not an absolute path')
    expect(await refused(`${memory}/MEMORY.md\0`)).toContain('not a path')
    expect(await refused(join(memory, 'escape.md'))).toBe(
      `${join(memory, 'escape.md')}: a symlink that leads to ${join(outside, 'secret.md')}, not a memory file or a file of a load chain shown`,
    )
    expect(await refused(join(memory, 'escape-dir', 'secret.md'))).toContain(
      'a symlink that leads to',
    )
    expect(await refused('/etc/passwd')).toContain('/etc/passwd: not a memory file')
    // Not a topic file: only `*.md` in a memory folder is a memory file.
    expect(await refused(join(memory, 'notes.txt'))).toContain('not a memory file')
  })

  it('a scanned project gives its folder and repository a kind, never its files', async () => {
    const guard = new PathGuard()
    await guard.setClaudeHome(home)
    await guard.rememberProjects(scanOf(home, '/', repo))
    expect((await guard.check('launch-dir', join(repo, 'sub'))).ok).toBe(true)
    expect((await guard.check('repository', repo)).ok).toBe(true)
    expect((await guard.check('repository', '/')).ok).toBe(false)
    // The crafted `"cwd": "/"` opens nothing: neither /etc/hostname nor repository code.
    expect((await guard.check('read-note-file', '/etc/hostname')).ok).toBe(false)
    expect((await guard.check('read-note-file', join(repo, 'CLAUDE.md'))).ok).toBe(false)
    expect(await guard.check('launch-dir', join(repo, '.git'))).toEqual({
      ok: false,
      reason: `${join(repo, '.git')}: inside .git`,
    })
  })

  it('a computed load chain opens its instruction files for editing and its near imports for reading', async () => {
    const guard = new PathGuard()
    await guard.setClaudeHome(home)
    await guard.rememberChain(
      chainOf(repo, [
        { path: join(repo, 'CLAUDE.md'), scope: 'project' },
        { path: join(repo, 'docs', 'style.md'), scope: 'import' },
        { path: join(outside, 'secret.md'), scope: 'import' },
      ]),
      [repo, home],
    )
    expect((await guard.check('write-note-file', join(repo, 'CLAUDE.md'))).ok).toBe(true)
    expect((await guard.check('read-note-file', join(repo, 'docs', 'style.md'))).ok).toBe(true)
    // An import is shown, not written; one outside the launch directory and the homes is not even shown.
    expect((await guard.check('write-note-file', join(repo, 'docs', 'style.md'))).ok).toBe(false)
    expect((await guard.check('read-note-file', join(outside, 'secret.md'))).ok).toBe(false)
    // Instruction files are never deleted or reviewed as memory.
    expect((await guard.check('memory-file', join(repo, 'CLAUDE.md'))).ok).toBe(false)
  })

  it('isInside compares whole segments', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true)
    expect(isInside('/a/b', '/a/b/c')).toBe(true)
    expect(isInside('/a/b', '/a/bc')).toBe(false)
    expect(isInside('/a/b/', '/a/b/c')).toBe(true)
  })
})
