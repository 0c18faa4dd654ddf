import { describe, expect, it } from 'vitest'
import { judgeNote } from '../../../../src/core/audit/verdict'
import { checked, facts, march10 } from './facts-fixture'

describe('judgeNote', () => {
  it('gives each verdict', () => {
    expect(judgeNote(checked('`src/stable.ts`'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: [],
    })
    expect(judgeNote(checked('`src/live.ts`'), march10, facts)).toEqual({
      verdict: 'suspect',
      reasons: ['`src/live.ts` changed in ccccccc on 2026-04-01, after the note was written'],
    })
    expect(judgeNote(checked('`src/live.ts` and `src/old.ts`'), march10, facts).verdict).toBe(
      'stale',
    )
    // A folder rests on its existence only: src/live.ts changing under it does not count.
    expect(judgeNote(checked('folder `src/`'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: [],
    })
    expect(judgeNote([], march10, facts)).toEqual({
      verdict: 'unverifiable',
      reasons: ['nothing checkable: no path, symbol, command or quoted code'],
    })
    expect(judgeNote(checked('https://x.org and branch `a/b`'), march10, facts).verdict).toBe(
      'unverifiable',
    )
    expect(judgeNote(checked('`src/live.ts`'), null, facts).verdict).toBe('fresh')
    expect(judgeNote(checked('`src/live.ts`'), march10, null)).toEqual({
      verdict: 'unverifiable',
      reasons: ['no repository to check against'],
    })
  })

  it('counts uncommitted edits after the note', () => {
    const dirty = {
      ...facts,
      dirty: new Map([['src/stable.ts', Date.parse('2026-05-01T00:00:00Z')]]),
    }
    expect(judgeNote(checked('`src/stable.ts`'), march10, dirty)).toEqual({
      verdict: 'suspect',
      reasons: ['`src/stable.ts` has uncommitted changes made after the note was written'],
    })
  })
})
