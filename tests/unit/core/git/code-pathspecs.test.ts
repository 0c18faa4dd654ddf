/**
 * The JavaScript test for code files agrees with git's own CODE_PATHSPECS, path by path, on a
 * real repository of awkward names; `diffGitPath` reads back every name git prints in a diff,
 * quoted or not. The history walk (node/audit/pickaxe.ts) relies on both to give git no
 * pathspecs.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  CODE_PATHSPECS,
  diffGitPath,
  isCodePathspecFile,
} from '../../../../src/core/git/code-pathspecs'

const PATHS = [
  'ok.ts',
  'src/a/b.ts',
  'README.md',
  'src/x.MD',
  'src/.md',
  'src/a.Md',
  'foo.md/x.ts',
  'LICENSES/x.ts',
  'LICENSE',
  'src/LICENSEfoo.ts',
  'src/aLICENSE',
  'COPYING.lib',
  'a/docs/b/c.ts',
  'docs/y.ts',
  'x/doc/q.ts',
  'y/Docs/q.ts',
  'DOC/w.ts',
  'Docs/의뢰및결과',
  'a/Readme.TXT',
  'src/licenseService.ts',
  'src/license.md',
  'vendor/@sinclair/typebox/license',
  'vendor/x/License',
  'vendor/x/copying',
  'vendor/x/licensed.ts',
  'src/Copying.py',
  'v/É.MD',
  'v/x.ſd',
  '.cursor/rules/general.mdc',
  'v/docs',
  'v/doc',
  'v/documentation/q.ts',
  '.github/ISSUE_TEMPLATE/bug_report.yml',
  '.github/issue_template/x.yml',
  '.github/PULL_REQUEST_TEMPLATE/x.yml',
  '.github/workflows/ci.yml',
  'src/issue_templates/x.ts',
  'w/a.woff2x/q.ts',
  'w/font.woff2',
  'package-lock.json',
  'v/package-lock.jsonx',
  'v/pnpm-lock.yaml',
  'v/yarn.lock',
  'v/lock.ts',
  'CLAUDE.md.bak',
  'src/config.py.orig',
  'src/bak.ts',
  'Logs/Quotation.log',
  'src/log.ts',
  '.claude/projects/-home-x/0a1b.jsonl',
  'src/jsonl.ts',
  'data/fleet-projects.generated.json',
  'src/types.generated.ts',
  'data/generated.json',
  'img/a.png',
  'img/a.png.ts',
  'v/sp ace.md',
  'v/sp ace.ts',
  'v/tab\tx.ts',
  'v/q"x.md',
  'v/back\\slash.ts',
  'v/nl\nname.ts',
  'v/é.ts',
  'v/é.md',
  'v/😀 x.ts',
  'v/a b/c d.txt',
  '.cursorrules',
  'web/.windsurfrules',
  'src/cursorrules.ts',
  '.clinerules/style.ts',
  '.pnpm-store/v10/files/00/abc123',
  'app/node_modules/left-pad/index.js',
  'Node_Modules/x.js',
  'src/node_modules_shim.ts',
  'src/pnpm-store.ts',
  '.claude/worktrees/agent-a1/app/x.py',
  'web/.claude/worktrees/feat/x.ts',
  '.claude/worktrees.ts',
  'src/claude/worktrees/x.ts',
]

const dir = mkdtempSync(join(tmpdir(), 'mc-code-pathspecs-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function git(args: string[]): string {
  return execFileSync('git', ['-c', 'core.quotepath=off', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  })
}

describe('code pathspecs', () => {
  git(['init', '-q'])
  for (const p of PATHS) {
    mkdirSync(join(dir, dirname(p)), { recursive: true })
    writeFileSync(join(dir, p), `needle ${p}\n`)
  }
  git(['add', '-A'])
  git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'all'])

  it('keeps the files git keeps', () => {
    const listed = git(['ls-files', '-z', '--', ...CODE_PATHSPECS])
      .split('\0')
      .filter(Boolean)
    expect(listed.length).toBeGreaterThan(5)
    expect(listed.length).toBeLessThan(PATHS.length)
    expect(PATHS.filter(isCodePathspecFile).sort()).toEqual([...listed].sort())
  })

  it('leaves out a committed agent worktree, a stale copy of the code (blind set AW)', () => {
    expect(isCodePathspecFile('.claude/worktrees/agent-a1/app/x.py')).toBe(false)
    expect(isCodePathspecFile('web/.claude/worktrees/feat/x.ts')).toBe(false)
    expect(isCodePathspecFile('.claude/worktrees.ts')).toBe(true)
    expect(isCodePathspecFile('src/claude/worktrees/x.ts')).toBe(true)
    // Data a script wrote is no code; generated code is (blind set CD).
    expect(isCodePathspecFile('data/fleet-projects.generated.json')).toBe(false)
    expect(isCodePathspecFile('src/types.generated.ts')).toBe(true)
    // An issue form is no code (blind set DX da-r11); a workflow is.
    expect(isCodePathspecFile('.github/ISSUE_TEMPLATE/bug_report.yml')).toBe(false)
    expect(isCodePathspecFile('.github/workflows/ci.yml')).toBe(true)
  })

  it('leaves tables of data and office documents out (blind sets DF, DG)', () => {
    expect(isCodePathspecFile('Product Brief v2.docx')).toBe(false)
    expect(isCodePathspecFile('tamheed-package/csv/adrs.csv')).toBe(false)
    expect(isCodePathspecFile('data/rows.TSV')).toBe(false)
    expect(isCodePathspecFile('src/csv.ts')).toBe(true)
  })

  it('leaves backup copies out (blind set P)', () => {
    expect(isCodePathspecFile('CLAUDE.md.bak')).toBe(false)
    expect(isCodePathspecFile('src/config.py.orig')).toBe(false)
    expect(isCodePathspecFile('src/bak.ts')).toBe(true)
  })

  it('leaves a vendored package licence out, in any usual case (blind set Z2)', () => {
    expect(isCodePathspecFile('vendor/@sinclair/typebox/license')).toBe(false)
    expect(isCodePathspecFile('vendor/x/License')).toBe(false)
    expect(isCodePathspecFile('vendor/x/licensed.ts')).toBe(true)
    expect(isCodePathspecFile('src/licenseService.ts')).toBe(true)
  })

  it("leaves agents' rules files and committed package stores out (blind set AA)", () => {
    expect(isCodePathspecFile('.cursorrules')).toBe(false)
    expect(isCodePathspecFile('web/.windsurfrules')).toBe(false)
    expect(isCodePathspecFile('.pnpm-store/v10/files/00/abc123')).toBe(false)
    expect(isCodePathspecFile('app/node_modules/left-pad/index.js')).toBe(false)
    expect(isCodePathspecFile('src/cursorrules.ts')).toBe(true)
    expect(isCodePathspecFile('src/node_modules_shim.ts')).toBe(true)
  })

  it('leaves logs out: what code printed is not code', () => {
    expect(isCodePathspecFile('Logs/Quotation.log')).toBe(false)
    expect(isCodePathspecFile('src/log.ts')).toBe(true)
  })

  it('leaves JSON Lines out: a committed session transcript is not code (blind set AP)', () => {
    expect(isCodePathspecFile('.claude/projects/-home-x/0a1b.jsonl')).toBe(false)
    expect(isCodePathspecFile('src/jsonl.ts')).toBe(true)
  })

  it('reads every path of a diff back, quoted or not', () => {
    const heads = git(['log', '-p', '--no-renames', '--format=', 'HEAD'])
      .split('\n')
      .filter((l) => l.startsWith('diff --git '))
    expect(heads.map(diffGitPath).sort()).toEqual([...PATHS].sort())
  })

  it('refuses what it cannot read', () => {
    expect(diffGitPath('diff --git a/x b/y')).toBeNull()
    expect(diffGitPath('diff --git "a/x\\q" "b/x\\q"')).toBeNull()
  })
})
