/**
 * A dotted name's lines (`config.clear()`) are the lines holding the expression, not every line
 * holding one of its plain parts: a changed `list.clear()` elsewhere says nothing about the
 * note, a changed `store.flush()` call does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('what a dotted name lost', () => {
  const { repo, mem, sha, commit } = historyCase('dn')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/config.ts', 'export const config = { clear() { return 0 } }\n')
    write(repo, 'src/store.ts', 'export const store = { flush() { return 1 }, drain() {} }\n')
    write(repo, 'src/main.ts', 'config.clear()\nstore.flush()\n')
    write(repo, 'src/list.ts', 'list.clear()\n')
    write(
      repo,
      'src/db.ts',
      'export class Db {\n  static columns(t: string) { return [t] }\n  static connect(url: string) { return url }\n}\nDb.connect("a")\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/list.ts', 'list.reset()\n')
    write(repo, 'src/main.ts', 'config.clear()\nstore.drain()\n')
    // Another member of the class changes; the one the note names does not.
    write(
      repo,
      'src/db.ts',
      'export class Db {\n  static columns(t: string) { return [t] }\n  static connect(url: string, retries = 3) { return url + retries }\n}\nDb.connect("b", 5)\n',
    )
    commit('later', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['clear', 'Caches are emptied by `config.clear()`.'],
        ['flush', 'Writes go out through `store.flush()`.'],
        ['member', 'Column lists come from `Db.columns()`.'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('does not count a line that only shares a plain part of the name', () => {
    const n = byTitle(notes, 'clear')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.join('\n')).not.toContain(sha.later)
  })

  it("does not count a line that only shares the qualifier (another member's line)", () => {
    const n = byTitle(notes, 'member')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.join('\n')).not.toContain(sha.later)
  })

  it('counts a line holding the whole expression', () => {
    const n = byTitle(notes, 'flush')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('`store.flush`')
    expect(n.reasons.join('\n')).toContain(sha.later)
  })
})
