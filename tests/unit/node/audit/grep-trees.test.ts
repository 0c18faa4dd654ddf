/**
 * `grepTrees` over every code file (name-lines.ts) gives git no pathspecs and keeps the files
 * CODE_PATHSPECS take: on a real repository, a name in docs, licences and lock files is not
 * found, in code files (a spaced name, a folder named like a doc file) it is, in each tree asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grepTrees, type Found } from '../../../../src/node/audit/tree-grep'
import type { Needle } from '../../../../src/node/audit/pickaxe'
import { git } from '../../../helpers/git'
import { removeBase, write } from './scripted-repo'
import { historyCase } from './topic-audit'

afterAll(removeBase)

describe('grepTrees over every code file', () => {
  const { repo, commit } = historyCase('grep-trees')
  let first = ''
  let head = ''

  beforeAll(() => {
    const line = 'const zebraName = 1\n'
    for (const f of [
      'src/app.ts',
      'src/sp ace.ts',
      'README.md',
      'docs/deep/guide.ts',
      'notes.txt',
      'LICENSE',
      'package-lock.json',
      'yarn.lock',
      'src/guide.md/real.ts',
    ])
      write(repo, f, line)
    commit('c1', '2026-01-01T12:00:00Z')
    first = git(repo, 'rev-parse', 'HEAD').trim()
    write(repo, 'src/later.ts', line)
    write(repo, 'src/longer.ts', 'const zebraNames = cfg.zebra.name\n')
    commit('c2', '2026-02-01T12:00:00Z')
    head = git(repo, 'rev-parse', 'HEAD').trim()
  })

  it('finds the name in code files only, in every tree', async () => {
    for (const words of [true, false]) {
      const found: Found = new Map()
      const unread = new Set<string>()
      const asked: Needle = words
        ? { kind: 'word', text: 'zebraName' }
        : { kind: 'text', text: 'zebraName = 1' }
      expect(await grepTrees(repo, [first, head], [asked], null, words, found, unread)).toBe(true)
      const files = (rev: string): string[] =>
        (found.get(rev)?.get(`${asked.kind}\0${asked.text}`) ?? []).map((l) => l.file).sort()
      expect(files(first)).toEqual(['src/app.ts', 'src/guide.md/real.ts', 'src/sp ace.ts'])
      expect(files(head)).toEqual([
        'src/app.ts',
        'src/guide.md/real.ts',
        'src/later.ts',
        'src/sp ace.ts',
      ])
      expect(unread.size).toBe(0)
    }
  })

  it('finds a word needle as a whole word only, word characters or not', async () => {
    const found: Found = new Map()
    const asked: Needle[] = [
      { kind: 'word', text: 'zebraName' },
      { kind: 'word', text: 'zebra.name' },
      { kind: 'word', text: 'zebra' },
      { kind: 'word', text: 'Names' },
    ]
    expect(await grepTrees(repo, [head], asked, null, true, found, new Set())).toBe(true)
    const files = (n: Needle): string[] =>
      (found.get(head)?.get(`${n.kind}\0${n.text}`) ?? []).map((l) => l.file).sort()
    expect(files(asked[0])).toEqual([
      'src/app.ts',
      'src/guide.md/real.ts',
      'src/later.ts',
      'src/sp ace.ts',
    ])
    expect(files(asked[1])).toEqual(['src/longer.ts'])
    expect(files(asked[2])).toEqual(['src/longer.ts'])
    expect(files(asked[3])).toEqual([])
  })
})
