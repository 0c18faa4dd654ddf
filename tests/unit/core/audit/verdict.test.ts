import { describe, expect, it } from 'vitest'
import { judgeNote } from '../../../../src/core/audit/verdict'
import { checked, facts, march10 } from './facts-fixture'

describe('judgeNote', () => {
  it('gives each verdict', () => {
    expect(judgeNote(checked('`src/stable.ts`'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: [],
    })
    // Issue 12 item 4: a commit to the file alone no longer makes it suspect…
    expect(judgeNote(checked('`src/live.ts`'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: [],
    })
    // …a code change to one of the note's names after it was written does.
    const change = { name: 'liveThing', sha: 'ccccccc1234', date: '2026-04-01T00:00:00Z' }
    expect(judgeNote(checked('`src/live.ts`'), march10, facts, [change])).toEqual({
      verdict: 'suspect',
      reasons: [
        'code lines with `liveThing` changed in ccccccc on 2026-04-01, after the note was written',
      ],
    })
    const before = { ...change, date: '2026-03-01T00:00:00Z' }
    expect(judgeNote(checked('`src/live.ts`'), march10, facts, [before]).verdict).toBe('fresh')
    // src/old.ts was deleted on 2026-03-01: before a note of March 10 it was wrong from the
    // start (issue 12 item 1); a note of February 1 went stale, naming the commit.
    expect(judgeNote(checked('`src/live.ts` and `src/old.ts`'), march10, facts)).toEqual({
      verdict: 'never-matched',
      reasons: [
        'wrong from the start: `src/old.ts` was deleted in bbbbbbb on 2026-03-01, before the note was written',
      ],
    })
    const feb1 = { ...march10, iso: '2026-02-01T00:00:00.000Z', ms: Date.parse('2026-02-01') }
    expect(judgeNote(checked('`src/live.ts` and `src/old.ts`'), feb1, facts)).toEqual({
      verdict: 'stale',
      reasons: ['`src/old.ts` was deleted in bbbbbbb on 2026-03-01'],
    })
    // Gone in the note's own second: no earlier than the note, which saw it (blind set AH).
    const same = { ...march10, iso: '2026-03-01T00:00:00.000Z', ms: Date.parse('2026-03-01') }
    expect(judgeNote(checked('`src/live.ts` and `src/old.ts`'), same, facts).verdict).toBe('stale')
    const after = { ...same, ms: same.ms + 1000 }
    expect(judgeNote(checked('`src/live.ts` and `src/old.ts`'), after, facts).verdict).toBe(
      'never-matched',
    )
    // Never in history at all: wrong from the start for a path, whenever the note was written.
    expect(judgeNote(checked('`src/nowhere.ts`'), feb1, facts).verdict).toBe('never-matched')
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

  it('reads a move made before the note, to a place it names too, as told (blind set R)', () => {
    // src/session.ts became src/token-session.ts on 2026-03-01, before a note of March 10.
    expect(judgeNote(checked('`src/session.ts`'), march10, facts).verdict).toBe('never-matched')
    const told = judgeNote(
      checked('Dissolved `src/session.ts` into `src/token-session.ts`'),
      march10,
      facts,
    )
    expect(told.verdict).toBe('fresh')
    expect(told.reasons[0]).toMatch(/^the note tells of the move: `src\/session\.ts` was renamed/)
    // After the note, the move still makes it stale.
    const feb1 = { ...march10, iso: '2026-02-01T00:00:00.000Z', ms: Date.parse('2026-02-01') }
    expect(
      judgeNote(checked('`src/session.ts` and `src/token-session.ts`'), feb1, facts).verdict,
    ).toBe('stale')
  })

  it('leaves quoted code whose history git could not read unchecked (blind set CO)', () => {
    const unread =
      'quoted code `const zz = compute(9)` is not found in the repository; git history could not say whether it held when the note was written; not checked'
    expect(
      judgeNote(checked('Use `const zz = compute(9)` and `src/live.ts`'), march10, facts),
    ).toEqual({
      verdict: 'fresh',
      reasons: [unread],
    })
    expect(judgeNote(checked('Use `const zz = compute(9)`'), march10, facts)).toEqual({
      verdict: 'unverifiable',
      reasons: [unread],
    })
    // A path whose history could not be read still makes the note suspect.
    const path = checked('`src/nowhere.ts`').map((c) => ({ ...c, goneIn: undefined }))
    expect(judgeNote(path, march10, facts).verdict).toBe('suspect')
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
