import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isInside, PathGuard } from '../../src/node/path-guard'

const root = mkdtempSync(join(tmpdir(), 'mc-guard-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('PathGuard', () => {
  const home = join(root, 'home')
  const sibling = join(root, 'home-evil')
  const outside = join(root, 'outside')
  mkdirSync(join(home, 'projects'), { recursive: true })
  mkdirSync(sibling)
  mkdirSync(outside)
  writeFileSync(join(outside, 'secret.txt'), 'secret')
  writeFileSync(join(home, 'projects', 'ok.md'), 'ok')
  symlinkSync(outside, join(home, 'projects', 'escape'))
  symlinkSync(join(home, 'projects'), join(root, 'link-to-projects'))

  it('accepts paths inside a root, existing or not', async () => {
    const guard = new PathGuard()
    await guard.addRoot(home)
    expect(await guard.check(join(home, 'projects', 'ok.md'))).toBe(join(home, 'projects', 'ok.md'))
    expect(await guard.check(join(home, 'projects', 'new.md'))).toBe(join(home, 'projects', 'new.md'))
    expect(await guard.check(home)).toBe(home)
  })

  it('refuses .., prefix siblings, relative paths, NUL and symlinks that escape', async () => {
    const guard = new PathGuard()
    await guard.addRoot(home)
    expect(await guard.check(join(home, '..', 'outside', 'secret.txt'))).toBeNull()
    expect(await guard.check(join(sibling, 'x'))).toBeNull()
    expect(await guard.check('projects/ok.md')).toBeNull()
    expect(await guard.check(`${home}/projects/ok.md\0`)).toBeNull()
    expect(await guard.check(join(home, 'projects', 'escape', 'secret.txt'))).toBeNull()
    expect(await guard.check('/etc/passwd')).toBeNull()
    // A path given through a symlink that lives outside every root is refused too.
    expect(await guard.check(join(root, 'link-to-projects', 'ok.md'))).toBeNull()
  })

  it('isInside compares whole segments', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true)
    expect(isInside('/a/b', '/a/b/c')).toBe(true)
    expect(isInside('/a/b', '/a/bc')).toBe(false)
    expect(isInside('/a/b/', '/a/b/c')).toBe(true)
  })
})
