/**
 * Issue 12, recall, on a real git repository: a name a note gives in plain prose (no backticks)
 * that left every code file holding it when the note was written, kept since only by a file
 * that did not hold it then (a migration script naming the old table), makes the note suspect
 * (src/core/audit/name-loss.ts `leftEveryFile`). A file moved whole, a value changed in the
 * same file, a file left untouched keep the note as it was. Docs in any case (`README.MD`,
 * `Docs/`) are not code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { AuditFactsCache } from '../../../../src/node/audit/audit-cache'
import { noteDiffs } from '../../../../src/node/audit/note-diffs'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('a prose name that left every code file that held it', () => {
  const { repo, mem, sha, commit } = historyCase('pl')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const service = (table: string): string =>
      [
        'public class FacilityResults {',
        `  const string Table = "${table}";`,
        `  public void Save() { Db.Insert("${table}", row); }`,
        `  public Row Load() { return Db.Select("${table}"); }`,
        '}',
        '',
      ].join('\n')
    write(repo, 'src/Services/FacilityResults.cs', service('facility_results'))
    write(repo, 'src/Pages/Input.cs', 'var rows = Db.Select("facility_results");\n')
    write(repo, 'src/old/moving_part.ts', 'export const moving_part = () => 42\n')
    write(repo, 'src/limits.py', 'retry_limit = 3\n')
    write(repo, 'src/untouched.py', 'def kept_helper():\n    return 1\n')
    write(repo, 'src/touched.py', 'x = kept_helper()\n')
    write(repo, 'src/only_docs.ts', 'export const gone_to_docs = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note: the table is renamed in every file that used it; a new migration script
    // keeps the old name. A file moves whole; a value changes in place; a caller changes while
    // the file defining the name stays; a name leaves the code for upper-case docs.
    write(repo, 'src/Services/FacilityResults.cs', service('facility_result'))
    write(repo, 'src/Pages/Input.cs', 'var rows = Db.Select("facility_result");\n')
    write(
      repo,
      'scripts/migrate_phase1.py',
      'run("RENAME TABLE facility_results TO facility_result")\n',
    )
    git(repo, 'rm', '-q', 'src/old/moving_part.ts')
    write(repo, 'src/parts/moving_part.ts', 'export const moving_part = () => 42\n')
    write(repo, 'src/limits.py', 'retry_limit = 5\n')
    write(repo, 'src/touched.py', 'y = kept_helper() + 1\n')
    git(repo, 'rm', '-q', 'src/only_docs.ts')
    write(repo, 'README.MD', 'Set gone_to_docs in the settings.\n')
    write(repo, 'Docs/schema', 'gone_to_docs: the old flag\n')
    commit('rename', '2026-03-01T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        ['renamed', 'Results are saved to the facility_results table.'],
        ['moved', 'The answer comes from moving_part.'],
        ['value', 'Retries stop at retry_limit.'],
        ['untouched', 'Use kept_helper for the thing.'],
        ['docs', 'The feature is behind gone_to_docs.'],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('calls the note suspect, naming the line then, the commit and where the name is now', () => {
    const n = byTitle(notes, 'renamed')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toMatch(
      /^`facility_results` left every code file that held it when the note was written: then `[^`]+` \(`src\/(?:Services\/FacilityResults|Pages\/Input)\.cs`:\d\), changed in [0-9a-f]{7} on 2026-03-01, after the note was written; it is now only in `scripts\/migrate_phase1\.py`, which did not hold it then$/,
    )
    expect(n.reasons[0]).toContain(sha.rename)
  })

  it('keeps the name as a prose reference whose diff shows the file then and now', async () => {
    const n = byTitle(notes, 'renamed')
    expect(n.references).toEqual([])
    const [r] = n.proseReferences ?? []
    expect(r).toMatchObject({ text: 'facility_results', kind: 'symbol', status: 'changed' })
    expect(r.compare?.then).toMatch(/^src\/(?:Services\/FacilityResults|Pages\/Input)\.cs$/)
    expect(r.compare?.now).toBe(r.compare?.then)
    expect(r.compare?.commit?.startsWith(sha.c1)).toBe(true)
    // A click on the note reads that basis: the file at the note's commit against now.
    const diffs = await noteDiffs({ memoryDir: mem, repo, file: n.file, line: n.line })
    const d = diffs.find((x) => x.reference.text === 'facility_results')
    expect(d?.before?.text).toContain('"facility_results"')
    expect(d?.after?.text).toContain('"facility_result"')
    expect(d?.after?.text).not.toContain('"facility_results"')
    for (const t of ['moved', 'value', 'untouched', 'docs'])
      expect(byTitle(notes, t).proseReferences, t).toBeUndefined()
    // A click after an audit reads what its result kept, and shows the same diff.
    const cache = new AuditFactsCache()
    try {
      await auditMemory({ memoryDir: mem, repo, cache })
      const kept = await noteDiffs({ memoryDir: mem, repo, file: n.file, line: n.line, cache })
      expect(cache.stats.readFromResult).toBe(1)
      expect(kept).toEqual(diffs)
    } finally {
      cache.close()
    }
  })

  it('keeps a file moved whole, a value changed in place and an untouched home as they were', () => {
    for (const t of ['moved', 'value', 'untouched']) {
      const n = byTitle(notes, t)
      expect(n.verdict, t).not.toBe('suspect')
      expect(n.verdict, t).not.toBe('stale')
    }
  })

  it('does not count upper-case docs as code: a name only they hold now left the code', () => {
    const n = byTitle(notes, 'docs')
    expect(n.verdict).toBe('stale')
    expect(n.reasons.join('\n')).toContain(sha.rename)
  })
})
