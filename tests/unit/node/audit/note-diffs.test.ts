import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { noteDiffs } from '../../../../src/node/audit/note-diffs'
import { auditMemory } from '../../../../src/node/audit/audit'
import { AuditFactsCache } from '../../../../src/node/audit/audit-cache'
import { TOTAL, buildScriptedRepo, mem, removeBase, repo, shas } from './scripted-repo'

beforeAll(() => buildScriptedRepo())
afterAll(removeBase)

describe('noteDiffs', () => {
  const indexFile = (): string => join(mem, 'MEMORY.md')

  it('shows a renamed file then and now', async () => {
    const diffs = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 3 })
    expect(diffs.length).toBe(2)
    const [path] = diffs
    expect(path.before).toEqual({
      // At the commit before the note the file already had its new name.
      label: `src/auth/token-session.ts @ ${shas.c4} (2026-03-05)`,
      text: 'export function createSession() {\n  return 1\n}\n',
    })
    expect(path.after).toEqual({
      label: 'src/auth/token-session.ts (now)',
      text: 'export function createSession() {\n  return 1\n}\n',
    })
    expect(path.summary).toBe('no change')
  })

  it('shows the last commit at or before writtenAt for a file', async () => {
    const diffs = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 9 })
    expect(diffs[0].before!.label).toBe(`src/edited.ts @ ${shas.c4} (2026-03-05)`)
    expect(diffs[0].after!.text).toBe('export const RETRY_LIMIT = 5\nexport function retry() {}\n')
    expect(diffs[0].summary).toBe('+1 −1 lines')
  })

  it('shows a quote against its best match', async () => {
    const [d] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 11 })
    expect(d.before).toEqual({ label: 'quoted in the note', text: TOTAL })
    expect(d.after!.label).toBe('src/billing/total.ts:3-9')
    expect(d.summary).toBe('+1 −1 lines')
  })

  it('caps a 5,000-line quote and refuses binary files with a reason', async () => {
    const [values] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 16 })
    expect(values.before!.text.split('\n').length).toBe(2000)
    expect(values.summary).toBe('found as quoted (showing the first 2000 of 5000 lines)')
    const [logo] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 15 })
    expect(logo.before).toBeNull()
    expect(logo.after).toBeNull()
    expect(logo.summary).toBe(
      '`assets/logo.png` is a binary file; `assets/logo.png`: binary file (contains NUL bytes)',
    )
  })

  it('explains deleted files and missing symbols, and returns nothing for no note', async () => {
    const [old] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 5 })
    expect(old.before).toEqual({
      label: `src/old.ts @ ${shas.c4}^ (before it was deleted)`,
      text: 'export function parseLegacy() {\n  return 0\n}\n',
    })
    expect(old.after).toBeNull()
    expect(old.summary).toBe(`\`src/old.ts\` was deleted in ${shas.c4} on 2026-03-05`)
    const [sym] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 7 })
    expect(sym.summary).toBe('`legacyHelper` is not found in the repository')
    expect(await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 1 })).toEqual([])
  })

  it('works for an instruction file line', async () => {
    const diffs = await noteDiffs({ memoryDir: mem, repo, file: join(repo, 'CLAUDE.md'), line: 4 })
    expect(diffs[0].reference.movedTo).toBe(join(repo, 'src/c.ts'))
    expect(diffs[0].before!.label).toBe(`src/a.ts @ ${shas.c1} (2026-01-01)`)
  })

  it('keeps what each reference compares in the audit result, and a click reads it (issue 12 item 8)', async () => {
    const cache = new AuditFactsCache()
    try {
      const r = await auditMemory({ memoryDir: mem, repo, cache })
      const note = r.notes.find((n) => n.file === indexFile() && n.line === 9)!
      const [edited] = note.references
      expect(edited.compare).toMatchObject({ then: 'src/edited.ts', now: 'src/edited.ts' })
      expect(edited.compare!.commit!.slice(0, 7)).toBe(shas.c4)
      const diffs = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 9, cache })
      expect(cache.stats).toMatchObject({ readFromResult: 1, reused: 0, gathered: 0 })
      expect(diffs).toEqual(await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 9 }))
    } finally {
      cache.close()
    }
  })
})
