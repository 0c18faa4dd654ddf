import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  clearRepoCache,
  configMovesWorktree,
  findRepo,
  findRepoWithGit,
  parseGitFile,
} from '../../../../src/node/git/repo'

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args],
    { cwd, stdio: 'ignore' },
  )
}

let root: string

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'mc-git-repo-')))
  const repo = join(root, 'repo')
  await mkdir(join(repo, 'sub', 'deep'), { recursive: true })
  await writeFile(join(repo, 'sub', 'deep', 'f.txt'), 'f\n')
  git(repo, 'init', '-q', '-b', 'main')
  git(repo, 'add', '.')
  git(repo, 'commit', '-q', '-m', 'init')
  // Linked worktrees: one beside the repository, one nested in a folder of it.
  git(repo, 'worktree', 'add', '-q', '-b', 'feature', join(root, 'wt'))
  await mkdir(join(root, 'nest'), { recursive: true })
  git(repo, 'worktree', 'add', '-q', '-b', 'other', join(root, 'nest', 'wt2'))
  // A submodule: its `.git` file points into `.git/modules`.
  const lib = join(root, 'lib')
  await mkdir(lib, { recursive: true })
  await writeFile(join(lib, 'l.txt'), 'l\n')
  git(lib, 'init', '-q', '-b', 'main')
  git(lib, 'add', '.')
  git(lib, 'commit', '-q', '-m', 'lib')
  git(repo, 'submodule', 'add', '-q', lib, 'vendor/lib')
  git(repo, 'commit', '-q', '-m', 'sub')
  // A bare repository and a plain folder, a repository inside a repository's folder,
  // an empty `.git` folder, a symlink into the repository.
  git(root, 'init', '-q', '--bare', 'bare.git')
  await mkdir(join(root, 'plain', 'x'), { recursive: true })
  await mkdir(join(repo, 'sub', 'inner'), { recursive: true })
  git(join(repo, 'sub', 'inner'), 'init', '-q', '-b', 'main')
  await mkdir(join(repo, 'fake', '.git'), { recursive: true })
  await symlink(join(repo, 'sub'), join(root, 'link-to-sub'))
  // A repository whose config moves the work tree elsewhere.
  await mkdir(join(root, 'moved', 'tree'), { recursive: true })
  git(join(root, 'moved'), 'init', '-q', '-b', 'main')
  git(join(root, 'moved'), 'config', 'core.worktree', join(root, 'moved', 'tree'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('findRepo without git', () => {
  const cases = [
    'repo',
    'repo/sub',
    'repo/sub/deep',
    'wt',
    'wt/sub/deep',
    'nest/wt2/sub',
    'repo/vendor/lib',
    'bare.git',
    'bare.git/refs',
    'repo/.git',
    'repo/.git/refs',
    'plain/x',
    'repo/sub/inner',
    'repo/fake',
    'link-to-sub',
    'moved',
    'missing-folder',
  ]

  it('agrees with git rev-parse on every layout', async () => {
    for (const rel of cases) {
      clearRepoCache()
      const dir = join(root, rel)
      const expected = rel === 'missing-folder' ? null : await findRepoWithGit(dir)
      expect({ rel, got: await findRepo(dir) }).toEqual({ rel, got: expected })
    }
  })

  it('reads main and linked worktrees from the disk, without running git', async () => {
    clearRepoCache()
    const linkedWorktree = {
      toplevel: join(root, 'wt'),
      mainRoot: join(root, 'repo'),
      isLinkedWorktree: true,
    }
    const savedPath = process.env.PATH
    // No git on PATH: only the disk walk can answer these.
    process.env.PATH = join(root, 'no-bin')
    try {
      expect(await findRepo(join(root, 'wt', 'sub'))).toEqual(linkedWorktree)
      expect(await findRepo(join(root, 'repo', 'sub', 'deep'))).toMatchObject({
        mainRoot: join(root, 'repo'),
      })
      expect(await findRepo(join(root, 'plain', 'x'))).toBeNull()
    } finally {
      process.env.PATH = savedPath
    }
    clearRepoCache()
    expect(await findRepo(join(root, 'wt', 'sub'))).toEqual(linkedWorktree)
    expect(await findRepo(join(root, 'repo', 'sub', 'deep'))).toEqual({
      toplevel: join(root, 'repo'),
      mainRoot: join(root, 'repo'),
      isLinkedWorktree: false,
    })
    // The submodule is its own repository, not a worktree of its superproject.
    expect(await findRepo(join(root, 'repo', 'vendor', 'lib'))).toEqual({
      toplevel: join(root, 'repo', 'vendor', 'lib'),
      mainRoot: join(root, 'repo', 'vendor', 'lib'),
      isLinkedWorktree: false,
    })
    expect(await findRepo(join(root, 'bare.git'))).toBeNull()
  })
})

describe('git file and config readers', () => {
  it('parses a .git file', () => {
    expect(parseGitFile('gitdir: /r/.git/worktrees/x\n')).toBe('/r/.git/worktrees/x')
    expect(parseGitFile('gitdir: ../.git/modules/lib')).toBe('../.git/modules/lib')
    expect(parseGitFile('gitdir: /a\r\n')).toBe('/a')
    expect(parseGitFile('nonsense\n')).toBeNull()
    expect(parseGitFile('gitdir: /a\nmore\n')).toBeNull()
  })

  it('sees configs that move the work tree', () => {
    expect(configMovesWorktree('[core]\n\tbare = false\n')).toBe(false)
    expect(configMovesWorktree('[core]\n\tbare = true\n')).toBe(true)
    expect(configMovesWorktree('[core]\n\tworktree = /x\n')).toBe(true)
    expect(configMovesWorktree('[include]\n\tpath = other\n')).toBe(true)
    expect(configMovesWorktree('[includeIf "gitdir:/x/"]\n\tpath = o\n')).toBe(true)
    expect(configMovesWorktree('')).toBe(false)
  })
})
