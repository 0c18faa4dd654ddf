/** materializeDemo reuse and rebuilds, bad templates, and where the demo and its templates live. */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DemoError,
  defaultDemoDir,
  demoResourcesDir,
  materializeDemo,
} from '../../../../src/node/app/demo'
import { git } from '../../../helpers/git'
import { resourcesDir, buildDemo, removeDemo, demo, tmp } from './demo-fixture'

beforeAll(buildDemo)
afterAll(removeDemo)

describe('materializeDemo: reuse and rebuild', () => {
  it('reuses an up-to-date demo', async () => {
    const sentinel = join(demo.root, 'sentinel.txt')
    await writeFile(sentinel, 'kept')
    const again = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir })
    expect(again).toEqual({ ...demo, reused: true })
    expect(await readFile(sentinel, 'utf8')).toBe('kept')
  })

  it('rebuilds with force, at the same paths and with the same commit ids', async () => {
    const head = git(demo.repoRoot, 'rev-parse', 'main', 'feature/coupons')
    const again = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir, force: true })
    expect(again).toEqual({ ...demo, reused: false })
    expect(await readdir(demo.root)).not.toContain('sentinel.txt')
    expect(git(demo.repoRoot, 'rev-parse', 'main', 'feature/coupons')).toBe(head)
    expect(git(demo.worktreeRoot, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/coupons')
    expect((await readdir(join(tmp, 'demo'))).sort()).toEqual(['root'])
  })

  it('rebuilds when a template changes, and warns when placed inside a git repository', async () => {
    const res = join(tmp, 'resources-copy')
    await cp(resourcesDir, res, { recursive: true })
    const outer = join(tmp, 'outer-repo')
    await mkdir(outer)
    git(outer, 'init', '-q')
    const first = await materializeDemo({ targetDir: join(outer, 'demo'), resourcesDir: res })
    expect(first.reused).toBe(false)
    expect(first.warnings).toHaveLength(1)
    expect(first.warnings[0]).toContain(outer)
    await writeFile(join(res, 'codex-home', 'AGENTS.md'), '# changed\n')
    const second = await materializeDemo({ targetDir: join(outer, 'demo'), resourcesDir: res })
    expect(second.reused).toBe(false)
    expect(await readFile(join(second.codexHome, 'AGENTS.md'), 'utf8')).toBe('# changed\n')
    expect(
      (await materializeDemo({ targetDir: join(outer, 'demo'), resourcesDir: res })).reused,
    ).toBe(true)
  })

  it('removes what a killed build left behind', async () => {
    const stale = join(tmp, 'demo', '.staging-AbC123')
    await mkdir(join(stale, 'claude-home'), { recursive: true })
    await writeFile(join(tmp, 'demo', 'keep-me'), 'not ours')
    await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir, force: true })
    expect((await readdir(join(tmp, 'demo'))).sort()).toEqual(['keep-me', 'root'])
    await rm(join(tmp, 'demo', 'keep-me'))
  })

  it('names a target that is a file', async () => {
    await writeFile(join(tmp, 'a-file'), '')
    await expect(materializeDemo({ targetDir: join(tmp, 'a-file'), resourcesDir })).rejects.toThrow(
      `cannot use ${join(tmp, 'a-file')} as the demo folder`,
    )
  })

  it('rebuilds a demo whose repository was deleted', async () => {
    await rm(join(demo.worktreeRoot), { recursive: true, force: true })
    const again = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir })
    expect(again.reused).toBe(false)
    expect(git(demo.worktreeRoot, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/coupons')
  })
})

describe('materializeDemo: bad templates', () => {
  it('names the missing manifest', async () => {
    const empty = await mkdtemp(join(tmp, 'empty-'))
    const run = materializeDemo({ targetDir: join(tmp, 'never'), resourcesDir: empty })
    await expect(run).rejects.toBeInstanceOf(DemoError)
    await expect(run).rejects.toThrow(join(empty, 'demo.json'))
  })

  it('refuses manifest paths that leave the target', async () => {
    const res = join(tmp, 'resources-evil')
    await cp(resourcesDir, res, { recursive: true })
    const manifest = JSON.parse(await readFile(join(res, 'demo.json'), 'utf8')) as {
      repo: { dir: string }
    }
    manifest.repo.dir = '../escaped'
    await writeFile(join(res, 'demo.json'), JSON.stringify(manifest))
    await expect(
      materializeDemo({ targetDir: join(tmp, 'evil'), resourcesDir: res }),
    ).rejects.toThrow('not a plain relative path: ../escaped')
  })
})

describe('defaultDemoDir and demoResourcesDir', () => {
  it('uses XDG_CACHE_HOME, else ~/.cache', () => {
    expect(defaultDemoDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/h' })).toBe(
      join('/x/cache', 'memory-curator', 'demo'),
    )
    expect(defaultDemoDir({ XDG_CACHE_HOME: 'relative', HOME: '/h' })).toBe(
      join('/h', '.cache', 'memory-curator', 'demo'),
    )
  })

  it('honours MEMORY_CURATOR_RESOURCES', async () => {
    const res = join(tmp, 'env-resources')
    await mkdir(join(res, 'demo'), { recursive: true })
    await writeFile(join(res, 'demo', 'demo.json'), '{}')
    expect(demoResourcesDir({ MEMORY_CURATOR_RESOURCES: res })).toBe(join(res, 'demo'))
    expect(demoResourcesDir({ MEMORY_CURATOR_RESOURCES: join(res, 'demo') })).toBe(
      join(res, 'demo'),
    )
    expect(demoResourcesDir({ MEMORY_CURATOR_RESOURCES: join(tmp, 'nowhere') })).toBe(resourcesDir)
  })
})
