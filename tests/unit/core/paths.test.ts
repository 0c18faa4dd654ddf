import { describe, expect, it } from 'vitest'
import { normalizePath, relativeInside, resolveRelative } from '../../../src/core/paths'

describe('normalizePath, as the audit writes a referenced path', () => {
  it.each([
    ['./src/cart.ts', 'src/cart.ts'],
    ['././src/', 'src'],
    ['src/a//b/./c.ts', 'src/a/b/c.ts'],
    ['../x.sh', '../x.sh'],
    ['./', '.'],
  ])('%s is %s', (path, expected) => {
    expect(normalizePath(path)).toBe(expected)
  })
})

describe('resolveRelative', () => {
  it.each<[string, string | null]>([
    ['a/./b//c/', 'a/b/c'],
    ['a/b/../c', 'a/c'],
    // The start folder itself is empty.
    ['a/..', ''],
    ['', ''],
    // A path that climbs above where it starts is none.
    ['..', null],
    ['../a', null],
    ['a/../../b', null],
    // A leading slash is read as relative.
    ['/x/y', 'x/y'],
  ])('%s is %s', (path, expected) => {
    expect(resolveRelative(path)).toBe(expected)
  })
})

describe('relativeInside', () => {
  it.each<[string, string, string | null]>([
    // A root written with a trailing slash.
    ['/repo/src/a.ts', '/repo/', 'src/a.ts'],
    // Climbs are resolved before the comparison.
    ['/repo/src/../b.ts', '/repo', 'b.ts'],
    ['/repo/../etc/passwd', '/repo', null],
    ['/anything/x', '/', 'anything/x'],
  ])('%s in %s is %s', (path, root, expected) => {
    expect(relativeInside(path, root)).toBe(expected)
  })
})
