/**
 * A rule blind set AR (docs/eval-audit.md) showed was missing, on a real git repository: a file
 * no tree has, by a name the code wrote when the note was written (a report the program writes)
 * and writes no more, is an output that moved; a file name no code ever held says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set AR rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sar')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'src/report.js',
      "import { writeFileSync } from 'node:fs'\nexport function generateReport(md) {\n  writeFileSync('NIGHTYTIDY-REPORT.md', md)\n}\n",
    )
    commit('c1', '2026-03-01T12:00:00Z')
    write(
      repo,
      'src/report.js',
      "import { writeFileSync } from 'node:fs'\nexport function generateReport(md, ts) {\n  writeFileSync(`audit-reports/00_NIGHTYTIDY-REPORT_${ts}.md`, md)\n}\n",
    )
    commit('report-moved', '2026-03-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Report', '| `generateReport(md)` | Writes NIGHTYTIDY-REPORT.md at the project root |'],
        ['Never', '- Release notes go to RELEASE-NOTES.md by hand.'],
      ],
      '2026-03-06T00:00:00Z',
    )
  }, 120_000)

  it('calls an output file the code no longer writes by that name stale', () => {
    const n = byTitle(notes, 'Report')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    const why = n.reasons.find((r) => r.includes('was in `src/report.js`'))
    expect(why, n.reasons.join('\n')).toContain('`NIGHTYTIDY-REPORT.md` was in `src/report.js`')
    expect(why).toContain(sha['report-moved'])
  })

  it('finds nothing in a file name no code ever held', () => {
    expect(byTitle(notes, 'Never').verdict).not.toBe('stale')
  })
})
