/**
 * A file that came to be only well after a note was written, and was deleted since, was not
 * there when the note named it: "wrong from the start", never stale (issue 12 item 1; blind set
 * Y: a `middleware.ts` added four days after the note and merged into `proxy.ts` the same day).
 * A file committed within a day of the note is the note's own code, committed late: stale.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('a deleted file that came after the note', () => {
  const { repo, mem, commit, sha } = historyCase('came-after')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'proxy.ts', 'export function proxy() {}\n')
    write(repo, 'src/old.ts', 'export const old = 1\n')
    commit('c1', '2026-06-01T12:00:00Z')
    // The note is written 2026-06-05 12:00; then, two hours later, its own code lands.
    write(repo, 'src/late.ts', 'export const late = 1\n')
    commit('late', '2026-06-05T14:00:00Z')
    write(repo, 'middleware.ts', 'export function guard() {}\n')
    write(repo, 'cases/format/a.xml', '<case/>\n')
    write(repo, 'cases/format/b.xml', '<case/>\n')
    commit('middleware', '2026-06-09T10:00:00Z')
    for (const f of ['middleware.ts', 'src/old.ts', 'src/late.ts']) rmSync(join(repo, f))
    rmSync(join(repo, 'cases'), { recursive: true })
    commit('merge into proxy', '2026-06-09T11:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Guard', '- `middleware.ts` guards /admin'],
        ['Old', '- `src/old.ts` holds the old constant'],
        ['Late', '- `src/late.ts` holds the late constant'],
        ['Cases', '- Example cases: `cases/format/`'],
      ],
      '2026-06-05T12:00:00Z',
    )
  }, 120_000)

  it('calls it wrong from the start, naming when it came', () => {
    const n = byTitle(notes, 'Guard')
    expect(n.verdict, n.reasons.join('\n')).toBe('never-matched')
    expect(n.reasons.join('\n')).toContain(`came only in ${sha.middleware}`)
  })

  it('tells the same of a folder, by its first file', () => {
    const n = byTitle(notes, 'Cases')
    expect(n.verdict, n.reasons.join('\n')).toBe('never-matched')
  })

  it('keeps a file there when the note was written, or committed within a day of it, stale', () => {
    for (const title of ['Old', 'Late']) {
      const n = byTitle(notes, title)
      expect(n.verdict, `${title}: ${n.reasons.join('\n')}`).toBe('stale')
    }
  })
})
