import { describe, expect, it } from 'vitest'
import type { NoteStamp } from '../../../../src/shared/model'
import { compareStamp, isNoteStamp, stampKeySource } from '../../../../src/core/audit/stamps'

const stamp: NoteStamp = {
  key: 'k1',
  file: '/mem/MEMORY.md',
  title: 'Build',
  noteHash: 'n1',
  references: { '/repo/src/a.ts': 'a1', '/repo/src/b.ts': 'b1', '/repo/gone.ts': null },
  at: '2026-03-04T05:06:07.000Z',
}

describe('compareStamp', () => {
  it('is valid while the note and every referenced file are unchanged', () => {
    const now = {
      noteHash: 'n1',
      references: {
        '/repo/src/a.ts': { kind: 'file', hash: 'a1' },
        '/repo/src/b.ts': { kind: 'file', hash: 'b1' },
        '/repo/gone.ts': { kind: 'missing' },
      },
    } as const
    expect(compareStamp(stamp, now, '/repo')).toEqual({ stamp, state: 'valid', reasons: [] })
  })

  it('expires with one reason per change, paths shown relative to the repository', () => {
    const now = {
      noteHash: 'n2',
      references: {
        '/repo/src/a.ts': { kind: 'file', hash: 'a2' },
        '/repo/gone.ts': { kind: 'file', hash: 'g1' },
      },
    } as const
    expect(compareStamp(stamp, now, '/repo/')).toEqual({
      stamp,
      state: 'expired',
      reasons: [
        "the note's text changed since you verified it on 2026-03-04",
        '`gone.ts` exists now; it was missing when you verified the note on 2026-03-04',
        '`src/a.ts` changed since you verified it on 2026-03-04',
        '`src/b.ts` is gone since you verified the note on 2026-03-04',
      ],
    })
  })

  it('expires when the note is gone or a file cannot be read, and shows absolute paths without a root', () => {
    const now = {
      noteHash: null,
      references: {
        '/repo/src/a.ts': { kind: 'unreadable', reason: 'permission denied (EACCES)' },
        '/repo/src/b.ts': { kind: 'file', hash: 'b1' },
      },
    } as const
    expect(compareStamp(stamp, now, null).reasons).toEqual([
      'the note “Build” is no longer in /mem/MEMORY.md',
      '`/repo/src/a.ts` cannot be read now (permission denied (EACCES))',
    ])
  })
})

describe('stamp keys and stored values', () => {
  it('builds the key from file and title only', () => {
    expect(stampKeySource('/mem/MEMORY.md', 'Build')).toBe('/mem/MEMORY.md#Build')
  })

  it('accepts a stamp and rejects damaged values', () => {
    expect(isNoteStamp(stamp)).toBe(true)
    expect(isNoteStamp(null)).toBe(false)
    expect(isNoteStamp({ ...stamp, references: [] })).toBe(false)
    expect(isNoteStamp({ ...stamp, references: { '/x': 3 } })).toBe(false)
    expect(isNoteStamp({ ...stamp, at: 5 })).toBe(false)
  })
})
