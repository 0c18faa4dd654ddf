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
import { git } from '../../../helpers/git'
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
