/**
 * The searches since a note for the names its commit held (reference-history.ts `sinceNote`),
 * started early by judge-notes.ts beside the history walk: they give the commit withGoneIn
 * gives, a changed quote its commit had needs none, and a name it did not hold goes to the walk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checked } from '../../../../src/core/audit/checked-reference'
import type { Reference } from '../../../../src/core/audit/reference'
import {
  clearPickaxeCache,
  newestChange,
  newestChanges,
  type Needle,
  type SearchRepo,
} from '../../../../src/node/audit/pickaxe'
import { sinceNote, withGoneIn, type HeldThen } from '../../../../src/node/audit/reference-history'
import { git } from '../../../helpers/git'
import { removeBase, write } from './scripted-repo'
import { historyCase } from './topic-audit'

afterAll(removeBase)

const symbol = (name: string): Reference => ({ kind: 'symbol', text: name, name, terms: [name] })

describe('searches since a note, started before withGoneIn asks', () => {
  const { repo, sha, commit } = historyCase('since-note')
  let search: SearchRepo
  const written = Date.parse('2026-01-15T12:00:00Z')
  // At the note's commit, `alpha` was in src/a.ts; `omega` was nowhere.
  const held: HeldThen = (n: Needle) => (n.text === 'alpha' ? ['src/a.ts'] : [])

  beforeAll(() => {
    write(repo, 'src/a.ts', 'export const alpha = 1\nexport const keep = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/a.ts', 'export const keep = 1\n')
    commit('alpha-gone', '2026-02-01T12:00:00Z')
    search = { root: repo, head: git(repo, 'rev-parse', 'HEAD').trim(), shallow: false }
  })

  it('gives the commit a held name went away in, the one withGoneIn names', async () => {
    clearPickaxeCache()
    const c = checked(symbol('alpha'), 'missing', null, { reason: '`alpha` is not in the code' })
    const early = sinceNote(c, search, held, written)
    expect(early).not.toBeNull()
    expect(early).not.toBe('held')
    const found = await (early as Promise<unknown[]>)
    expect(found).toHaveLength(1)
    expect((found[0] as { sha: string }).sha.slice(0, 7)).toBe(sha['alpha-gone'])
    const gone = await withGoneIn(c, search, held, written)
    expect(gone.goneIn?.sha.slice(0, 7)).toBe(sha['alpha-gone'])
    // The same search as one made alone, cached or not.
    clearPickaxeCache()
    const alone = await newestChange(search, { kind: 'word', text: 'alpha' }, written, ['src/a.ts'])
    expect(alone?.sha.slice(0, 7)).toBe(sha['alpha-gone'])
  })

  it('leaves a name the note commit did not hold to the walk, and a held changed quote alone', async () => {
    clearPickaxeCache()
    const never = checked(symbol('omega'), 'missing', null, {
      reason: '`omega` is not in the code',
    })
    expect(sinceNote(never, search, held, written)).toBeNull()
    expect(sinceNote(never, search, undefined, written)).toBeNull()
    const quote: Reference = {
      kind: 'snippet',
      text: 'export const alpha = 2',
      code: 'export const alpha = 2',
      fenced: false,
    }
    const changed = checked(quote, 'changed', null)
    const heldQuote: HeldThen = () => ['src/a.ts']
    expect(sinceNote(changed, search, heldQuote, written)).toBe('held')
    expect(await withGoneIn(changed, search, heldQuote, written)).toBe(changed)
    const walked = await newestChanges(search, [{ kind: 'word', text: 'omega' }])
    expect(walked?.get('word\0omega')).toBeNull()
    expect((await withGoneIn(never, search, held, written, walked)).goneIn).toBeNull()
  })

  it('runs beside a walk: both answer when started together', async () => {
    clearPickaxeCache()
    const c = checked(symbol('alpha'), 'missing', null, { reason: '`alpha` is not in the code' })
    const [walked, early] = await Promise.all([
      newestChanges(search, [{ kind: 'word', text: 'keep' }]),
      sinceNote(c, search, held, written),
    ])
    expect(walked?.get('word\0keep')?.sha.slice(0, 7)).toBe(sha.c1)
    expect(early).toHaveLength(1)
  })
})
