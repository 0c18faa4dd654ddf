/**
 * The one history walk for many names (pickaxe.ts `newestChanges`) answers what one search per
 * name (`newestChange`) answers, on a real repository where docs, a spaced file name and a
 * longer word that holds a needle all touch the same names: docs never count, whole words only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  clearPickaxeCache,
  newestChange,
  newestChanges,
  type Needle,
  type SearchRepo,
} from '../../../../src/node/audit/pickaxe'
import { git, gitAt } from '../../../helpers/git'
import { removeBase, write } from './scripted-repo'
import { historyCase } from './topic-audit'

afterAll(removeBase)

describe('one history walk for many names', () => {
  const { repo, sha, commit } = historyCase('walk')
  let search: SearchRepo

  beforeAll(() => {
    write(repo, 'src/a.ts', 'export const alpha = beta(1)\nexport const keep = 1\n')
    write(repo, 'src/sp ace.ts', 'export const spaced = "quoted line here"\n')
    write(repo, 'docs/guide.md', 'alpha and gamma\n')
    write(repo, 'README.md', 'gamma delta\n')
    write(repo, 'package.json', '{ "scripts": { "build": "tsc" } }\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/a.ts', 'export const keep = 1\n')
    commit('alpha-gone', '2026-02-01T12:00:00Z')
    // Newer, but only in docs: not a change to code.
    write(repo, 'docs/guide.md', 'gamma\n')
    write(repo, 'README.md', 'delta\n')
    commit('docs-edit', '2026-03-01T12:00:00Z')
    // A longer word holding `gamma`: not the word.
    write(repo, 'src/b.ts', 'export const gammaRay = 1\n')
    write(repo, 'src/sp ace.ts', 'export const spaced = 2\n')
    commit('gamma-ray', '2026-03-05T12:00:00Z')
    search = { root: repo, head: git(repo, 'rev-parse', 'HEAD').trim(), shallow: false }
  })

  it('gives each name the commit a search of its own gives', async () => {
    const needles: Needle[] = [
      { kind: 'word', text: 'alpha' },
      { kind: 'word', text: 'beta' },
      { kind: 'word', text: 'gamma' },
      { kind: 'word', text: 'delta' },
      { kind: 'word', text: 'spaced' },
      { kind: 'text', text: '"quoted line here"' },
      { kind: 'script', text: 'build' },
      { kind: 'make', text: 'build' },
    ]
    clearPickaxeCache()
    const walked = await newestChanges(search, needles)
    expect(walked).toBeDefined()
    const alone = await Promise.all(needles.map((n) => newestChange(search, n)))
    needles.forEach((n, i) => expect(walked?.get(`${n.kind}\0${n.text}`)).toEqual(alone[i]))
    const at = (n: number): string | undefined => walked?.get(`word\0${needles[n].text}`)?.sha
    expect(at(0)?.slice(0, 7)).toBe(sha['alpha-gone'])
    expect(at(1)?.slice(0, 7)).toBe(sha['alpha-gone'])
    expect(walked?.get('word\0gamma')).toBeNull()
    expect(walked?.get('word\0delta')).toBeNull()
    expect(at(4)?.slice(0, 7)).toBe(sha['gamma-ray'])
    expect(walked?.get('text\0"quoted line here"')?.sha.slice(0, 7)).toBe(sha['gamma-ray'])
    expect(walked?.get('script\0build')?.sha.slice(0, 7)).toBe(sha.c1)
    expect(walked?.get('make\0build')).toBeNull()
  })
})

describe('the history walked in two halves at once', () => {
  const { repo, sha, commit } = historyCase('walk-halves')
  let search: SearchRepo
  let logged: { sha: string; order: number }[]

  beforeAll(() => {
    write(repo, 'src/a.ts', 'export const alpha = 1\nexport const gamma = 2\n')
    write(repo, 'src/b.ts', 'export const beta = 1\n')
    write(repo, 'docs/notes.md', 'delta\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'checkout', '-q', '-b', 'side')
    write(repo, 'src/b.ts', 'export const other = 1\n')
    commit('side-beta-gone', '2026-01-10T12:00:00Z')
    git(repo, 'checkout', '-q', 'main')
    // A longer word holding `alpha` in the newer half: the word's change is older.
    write(repo, 'src/c.ts', 'export const alphaBeta = 1\n')
    commit('alpha-beta', '2026-01-05T12:00:00Z')
    write(repo, 'src/a.ts', 'export const gamma = 3\n')
    commit('alpha-gone', '2026-01-04T12:00:00Z')
    write(repo, 'src/a.ts', 'export const gamma = 4\n')
    commit('gamma-edit', '2026-01-03T12:00:00Z')
    gitAt('2026-01-20T12:00:00Z', repo, 'merge', '-q', '--no-ff', '-m', 'merge', 'side')
    search = { root: repo, head: git(repo, 'rev-parse', 'HEAD').trim(), shallow: false }
    logged = git(repo, 'log', '--format=%H', 'HEAD')
      .split('\n')
      .map((s, order) => ({ sha: s, order }))
  })

  it('finds each name the commit one walk finds', async () => {
    const needles: Needle[] = ['alpha', 'beta', 'gamma', 'delta', 'other', 'alphaBeta'].map(
      (text) => ({ kind: 'word', text }),
    )
    clearPickaxeCache()
    const one = await newestChanges(search, needles)
    const halves = await newestChanges(search, needles, logged, 2)
    expect(one).toBeDefined()
    expect(halves).toEqual(one)
    const at = (text: string): string | undefined => halves?.get(`word\0${text}`)?.sha.slice(0, 7)
    expect(at('alpha')).toBe(sha['alpha-gone'])
    expect(at('alphaBeta')).toBe(sha['alpha-beta'])
    expect(at('beta')).toBe(sha['side-beta-gone'])
    expect(at('gamma')).toBe(sha['gamma-edit'])
    expect(halves?.get('word\0delta')).toBeNull()
    const alone = await Promise.all(needles.map((n) => newestChange(search, n)))
    needles.forEach((n, i) => expect(halves?.get(`word\0${n.text}`)).toEqual(alone[i]))
  })

  it('says nothing when a commit it prints is not in the order it was given', async () => {
    const needles: Needle[] = [{ kind: 'word', text: 'gamma' }]
    const partial = logged.filter((c) => !c.sha.startsWith(sha.c1))
    expect(await newestChanges(search, needles, partial, 2)).toBeUndefined()
  })
})
