/**
 * What a scan reports about repositories (repoRoot, and a refused repository's problem) is the
 * same in a new process whose scan cache is warm as in a cold scan, and both are git's answer
 * (src/node/git/repo.ts reads the disk synchronously since issue 16). Real repositories in temp
 * folders: a main worktree, a folder inside it, a linked worktree, a repository with a config
 * include (refused), a folder outside git, and folders that stop or start being repositories
 * between two runs.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ScanResult } from '../../../../src/shared/model'
import { clearRepoCache, findRepoWithGit } from '../../../../src/node/git/repo'
import { scanClaudeHome } from '../../../../src/node/memory/scan'
import { createScanCache } from '../../../../src/node/memory/scan-cache'
import { git } from '../../../helpers/git'
import { msg, put, scanRoot } from './scan-fixture'

let root: string
let home: string
let stateDir: string
let work: string
const savedCeiling = process.env.GIT_CEILING_DIRECTORIES

async function repoAt(dir: string): Promise<void> {
  await put(join(dir, 'f.txt'), 'f\n')
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'add', '.')
  git(dir, 'commit', '-q', '-m', 'init')
}

/** A project whose one session was launched in `cwd`. */
async function project(id: string, cwd: string): Promise<void> {
  await put(join(home, 'projects', id, 's.jsonl'), msg(cwd, id))
}

/** A scan as a new process runs it: no repository lookups kept, the scan cache from its file. */
async function newProcessScan(): Promise<ScanResult> {
  clearRepoCache()
  const session = await createScanCache(stateDir).begin(home)
  const result = await scanClaudeHome(home, { cache: session })
  expect(await session.finish()).toEqual([])
  return result
}

/** A scan with nothing kept at all. */
function coldScan(): Promise<ScanResult> {
  clearRepoCache()
  return scanClaudeHome(home)
}

/** Each project's repository as git itself answers for its launch directory. */
async function gitsAnswer(scan: ScanResult): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {}
  for (const p of scan.projects) out[p.id] = (await findRepoWithGit(p.cwds[0]!))?.mainRoot ?? null
  return out
}

const repoRoots = (scan: ScanResult): Record<string, string | null> =>
  Object.fromEntries(scan.projects.map((p) => [p.id, p.repoRoot]))

beforeEach(async () => {
  root = await scanRoot('mc-scan-repos-')
  home = join(root, 'claude')
  stateDir = join(root, 'state')
  work = join(root, 'work')
  const main = join(work, 'main')
  await repoAt(main)
  await mkdir(join(main, 'packages', 'app'), { recursive: true })
  git(main, 'worktree', 'add', '-q', '-b', 'feature', join(work, 'linked'))
  await repoAt(join(work, 'leaving'))
  await mkdir(join(work, 'arriving'), { recursive: true })
  await mkdir(join(work, 'plain'), { recursive: true })
  await repoAt(join(work, 'included'))
  git(join(work, 'included'), 'config', 'include.path', join(root, 'elsewhere.cfg'))
  await project('p-main', main)
  await project('p-sub', join(main, 'packages', 'app'))
  await project('p-linked', join(work, 'linked'))
  await project('p-leaving', join(work, 'leaving'))
  await project('p-arriving', join(work, 'arriving'))
  await project('p-plain', join(work, 'plain'))
  await project('p-included', join(work, 'included'))
  await project('p-missing', join(work, 'gone'))
})

afterEach(async () => {
  if (savedCeiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES
  else process.env.GIT_CEILING_DIRECTORIES = savedCeiling
  clearRepoCache()
  await rm(root, { recursive: true, force: true })
})

describe("the scan's repositories, cold and warm", () => {
  it('are git’s answer, and a new process with a warm scan cache answers the same', async () => {
    const cold = await coldScan()
    const main = join(work, 'main')
    expect(repoRoots(cold)).toStrictEqual({
      'p-arriving': null,
      'p-included': null,
      'p-leaving': join(work, 'leaving'),
      'p-linked': main,
      'p-main': main,
      'p-missing': null,
      'p-plain': null,
      'p-sub': main,
    })
    expect(repoRoots(cold)).toStrictEqual(await gitsAnswer(cold))
    const included = cold.projects.find((p) => p.id === 'p-included')
    expect(included?.problems.map((p) => p.reason).join('\n')).toMatch(/repository is not read/)
    const first = await newProcessScan()
    expect(first).toStrictEqual(cold)
    const warm = await newProcessScan()
    expect(warm).toStrictEqual(cold)
  })

  it('follow folders that stop or start being repositories between runs', async () => {
    await newProcessScan()
    await rm(join(work, 'leaving', '.git'), { recursive: true, force: true })
    await repoAt(join(work, 'arriving'))
    // The linked worktree loses its link: its `.git` file names a folder that is not there.
    await writeFile(join(work, 'linked', '.git'), `gitdir: ${join(root, 'nowhere')}\n`)
    const warm = await newProcessScan()
    const cold = await coldScan()
    expect(warm).toStrictEqual(cold)
    expect(repoRoots(cold)).toMatchObject({
      'p-arriving': join(work, 'arriving'),
      'p-leaving': null,
      'p-linked': null,
      'p-main': join(work, 'main'),
    })
    expect(repoRoots(cold)).toStrictEqual(await gitsAnswer(cold))
  })
})
