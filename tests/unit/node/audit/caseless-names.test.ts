/**
 * A back-ticked name in a script without case (a Korean table name, a Japanese key) is checked
 * like any name on a real repository (issue 12 item 4): present then and gone now is stale with
 * the commit that removed it; still held, the note is fresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('names in caseless scripts', () => {
  const { repo, mem, sha, commit } = historyCase('cl')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'src/results.cs',
      'const string Table = "시설결과";\nconst string Plan = "분석계획";\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'src/results.cs',
      'const string Table = "시설분석결과";\nconst string Plan = "분석계획";\n',
    )
    commit('renamed', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['gone', 'Results are written to the `시설결과` table.'],
        ['held', 'Plans live in the `분석계획` table.'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a name present then and gone now stale, naming the commit', () => {
    const n = byTitle(notes, 'gone')
    expect(n.verdict).toBe('stale')
    expect(n.reasons.join('\n')).toContain(sha.renamed)
  })

  it('keeps a name still held fresh', () => {
    expect(byTitle(notes, 'held').verdict).toBe('fresh')
  })
})
