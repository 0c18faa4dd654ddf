/**
 * One test of what is code (src/core/git/code-pathspecs.ts): the name-loss search reads the
 * same files the pickaxe walk does. A backup copy (`*.bak`) that later dropped a name the note
 * gives is not code that lost it; a `licenseService.ts` is code, not a licence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('what the name-loss search reads as code', () => {
  const { repo, mem, commit } = historyCase('code-file-test')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/cart.ts', 'export function applyCoupon() {\n  return 1\n}\n')
    write(repo, 'src/cart.ts.bak', 'export function applyCoupon() {\n  return 0\n}\n')
    write(repo, 'src/seats.ts', 'export function checkSeat() {\n  return 1\n}\n')
    write(
      repo,
      'src/licenseService.ts',
      'import { checkSeat } from "./seats"\nexport const ok = checkSeat()\n',
    )
    write(repo, 'src/other.ts', 'export const other = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note: the backup drops the name; the licence service stops calling its function.
    write(repo, 'src/cart.ts.bak', 'export function oldCoupon() {\n  return 0\n}\n')
    write(repo, 'src/licenseService.ts', 'export const ok = 1\n')
    write(repo, 'src/other.ts', 'export const other = 2\n')
    commit('c2', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['coupon', 'Coupons: `applyCoupon()` in the cart.'],
        ['seats', 'Seats are checked by `checkSeat()`.'],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('a backup copy that dropped the name is not code that lost it', () => {
    const n = byTitle(notes, 'coupon')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })

  it('a file whose name starts with "license" is code', () => {
    const n = byTitle(notes, 'seats')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('src/licenseService.ts')
  })
})
