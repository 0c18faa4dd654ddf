/**
 * A count of a table file's rows, on a real git repository (issue 12: counts that changed;
 * blind set X: "`Features.csv` — the same 135 rows", 183 rows since). The count held when the
 * note was written and differs now: suspect, naming both counts. A count that never held says
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tableCounts } from '../../../../src/core/audit/count-claims'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const csv = (rows: number): string =>
  ['ID,Title,Status', ...Array.from({ length: rows }, (_, i) => `T-${i},Task ${i},Done`)].join(
    '\n',
  ) + '\n'

describe('tableCounts', () => {
  it('counts non-blank lines and the rows under the header', () => {
    expect(Object.fromEntries(tableCounts(csv(3) + '\n\n'))).toEqual({
      'non-blank lines': 4,
      'rows under the header': 3,
    })
    expect(tableCounts('').size).toBe(0)
  })
})

describe('a table file whose rows a note counts', () => {
  const { repo, mem, commit } = historyCase('table-counts')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'Features.csv', csv(12))
    write(repo, 'data/cities.tsv', 'name\tcountry\nOslo\tNO\nLima\tPE\n')
    commit('c1', '2026-04-01T12:00:00Z')
    write(repo, 'Features.csv', csv(19))
    write(repo, 'data/cities.tsv', 'name\tcountry\nOslo\tNO\nLima\tPE\nBern\tCH\n')
    commit('grow', '2026-04-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Tickets', '- `Features.csv` — the same 12 rows, `ID,Title,Status`.'],
        ['Cities', '- `data/cities.tsv` lists 7 cities.'],
      ],
      '2026-04-10T12:00:00Z',
    )
  }, 120_000)

  it('flags a row count that held then and differs now', () => {
    const n = byTitle(notes, 'Tickets')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('held 12 rows under the header when the note was written')
    expect(text).toContain('19 now')
  })

  it('says nothing of a count the table never had', () => {
    const n = byTitle(notes, 'Cities')
    expect(n.reasons.join('\n')).not.toContain('the note counts')
  })
})
