/**
 * Values a note gives in prose, on real git: a hexadecimal value is checked as text only code
 * holds (blind set U: a CAN message id), and a short constant's value as a name–value pair
 * (blind set X: `K_P 0.3/K_I 0.4`, PID gains the firmware's config has since changed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { listsExactly, memberLists } from '../../../../src/core/audit/stated-values'
import { hexValues } from '../../../../src/core/audit/hex-values'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('hexadecimal values in prose', () => {
  it('takes literals of three or more digits, not colours, hashes or short ones', () => {
    expect(
      hexValues('EPAS18 is 0x296 (was `0x7E0`); mask 0xF, colour #0x123abc, v1.0x300, 0x296 again'),
    ).toEqual(['0x296', '0x7E0'])
    expect(hexValues('```\nconst ID = 0x555\n```\nnothing here')).toEqual([])
  })

  const { repo, mem, commit } = historyCase('hex-values')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/can/protocol.h', '#define EPAS_STATUS_ID 0x296\n#define GTW_ID 0x3A1\n')
    write(repo, 'config/pid.h', '#define K_P 0.3  // P constant\n#define K_I 0.15\n')
    write(
      repo,
      'src/can/decode.c',
      '// frames of 0x100 and up\nint decode(int id) { return id; }\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/can/protocol.h', '#define EPAS_STATUS_ID 0x298\n#define GTW_ID 0x3A1\n')
    write(repo, 'config/pid.h', '#define K_P 2.0  // P constant\n#define K_I 0.15\n')
    commit('EPAS id moved', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Steering', '- The steering rack reports on EPAS 0x296 at 100 Hz'],
        ['Gateway', '- The gateway frame is 0x3A1'],
        ['Never', '- Diagnostics answer on 0x7DF'],
        ['Comment', '- Frames of 0x100 and up are decoded'],
        ['Gains', '- Flashed config: (K_P 0.3/K_I 0.15, PWM 3000)'],
        ['Integral', '- The integral gain stays at K_I 0.15'],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('calls a value the code held then and holds nowhere now stale, naming the commit', () => {
    const n = byTitle(notes, 'Steering')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('0x296')
  })

  it('calls a short constant whose value the code changed stale, and one it keeps fresh', () => {
    const n = byTitle(notes, 'Gains')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('K_P')
    const k = byTitle(notes, 'Integral')
    expect(k.verdict, k.reasons.join('\n')).not.toBe('stale')
  })

  it('leaves a value the code still holds, one it never held, and one only a comment held', () => {
    for (const title of ['Gateway', 'Never', 'Comment']) {
      const n = byTitle(notes, title)
      expect(n.verdict, `${title}: ${n.reasons.join('\n')}`).not.toBe('stale')
    }
  })
})

describe('a back-ticked union of names (blind set Y)', () => {
  it('reads three or more bare or quoted names joined by |', () => {
    expect(memberLists("Roles: `owner | admin | sales` and `'a' | 'b' | 'c'`; `x | y`")).toEqual([
      ['owner', 'admin', 'sales'],
      ['a', 'b', 'c'],
    ])
    expect(listsExactly("type R = 'sales' | 'owner' | 'admin'", ['owner', 'admin', 'sales'])).toBe(
      true,
    )
    expect(
      listsExactly("type R = 'owner' | 'root' | 'admin' | 'sales'", ['owner', 'admin', 'sales']),
    ).toBe(false)
  })

  const { repo, mem, commit, sha } = historyCase('member-lists')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'lib/roles.ts', "export type Role = 'owner' | 'admin' | 'student'\n")
    write(repo, 'lib/plans.ts', "export const PLANS = ['free', 'team', 'business']\n")
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'lib/roles.ts', "export type Role = 'owner' | 'root' | 'admin' | 'student'\n")
    write(repo, 'lib/plans.ts', "export const PLANS = [\n  'business', 'free', 'team',\n]\n")
    commit('root role', '2026-03-01T12:00:00Z')
    write(repo, 'lib/plans.ts', "export const PLANS = ['business', 'free', 'team']\n")
    commit('one line', '2026-03-02T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Roles', '- Roles: `owner | admin | student`'],
        ['Plans', '- Plans: `free | team | business`'],
        ['Never', '- Tiers: `gold | silver | bronze`'],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('calls a set the code listed then and lists no more stale, and keeps a reordered one', () => {
    const n = byTitle(notes, 'Roles')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('no code line lists exactly these now')
    expect(n.reasons.join('\n')).toContain(sha['root role'])
    for (const title of ['Plans', 'Never']) {
      const k = byTitle(notes, title)
      expect(k.verdict, `${title}: ${k.reasons.join('\n')}`).not.toBe('stale')
    }
  })
})
