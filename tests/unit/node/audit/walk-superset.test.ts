/**
 * What an earlier start of the history walk would rest on (docs/performance.md, issues 12 and
 * 16): a needle's answer from `newestChanges` does not depend on the other needles walked with
 * it, so a walk over more names than the held greps leave gives the same commit for each; and
 * the commit a note was written on, read from the history index (`commitAtOrBefore`), is the
 * one `git log -1 --before` names (quote-then.ts `commitAt`), which needs no history index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitAtOrBefore, type HistoryIndex } from '../../../../src/core/git/parse'
import { readHistory, openRepo } from '../../../../src/node/git/history'
import { clearPickaxeCache, newestChanges, type Needle } from '../../../../src/node/audit/pickaxe'
import { commitAt } from '../../../../src/node/audit/quote-then'
import { git } from '../../../helpers/git'
import { removeBase, write } from './scripted-repo'
import { historyCase } from './topic-audit'

afterAll(removeBase)

describe('a walk over more names, and the note commit without the history index', () => {
  const { repo, commit } = historyCase('walk-superset')
  let head: string

  beforeAll(() => {
    write(repo, 'src/a.ts', 'export const alpha = 1\nexport const keep = beta\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/a.ts', 'export const keep = beta\n')
    commit('alpha-gone', '2026-01-10T12:00:00Z')
    write(repo, 'src/b.ts', 'export const gamma = alpha2\n')
    commit('gamma', '2026-01-20T12:00:00Z')
    write(repo, 'src/a.ts', 'export const keep = 2\n')
    commit('beta-gone', '2026-02-01T12:00:00Z')
    head = git(repo, 'rev-parse', 'HEAD').trim()
  })

  it('gives each name the same answer walked alone or with others', async () => {
    const search = { root: repo, head, shallow: false }
    const few: Needle[] = [
      { kind: 'word', text: 'alpha' },
      { kind: 'word', text: 'never' },
    ]
    const more: Needle[] = [...few, { kind: 'word', text: 'beta' }, { kind: 'word', text: 'gamma' }]
    clearPickaxeCache()
    const alone = await newestChanges(search, few)
    const withOthers = await newestChanges(search, more)
    expect(alone).toBeDefined()
    for (const n of few) {
      const k = `${n.kind}\0${n.text}`
      expect(withOthers?.get(k)).toEqual(alone?.get(k))
    }
    expect(alone?.get('word\0never')).toBeNull()
    expect(alone?.get('word\0alpha')).not.toBeNull()
  })

  it('finds the note commit git log --before finds', async () => {
    const opened = await openRepo(repo)
    if (!opened.ok) throw new Error(opened.reason)
    const h = await readHistory(opened.state)
    if (!h.ok) throw new Error(h.reason)
    const index: HistoryIndex = h.index
    for (const at of [
      '2025-12-31T00:00:00Z',
      '2026-01-01T12:00:00Z',
      '2026-01-15T00:00:00Z',
      '2026-03-01T00:00:00Z',
    ]) {
      const ms = Date.parse(at)
      const fromIndex = commitAtOrBefore(index, ms)?.sha ?? null
      const fromGit = (await commitAt(repo, head, ms))?.sha ?? null
      expect(fromGit).toBe(fromIndex)
    }
  })
})
