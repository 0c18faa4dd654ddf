/**
 * A click reads a note's diffs from its kept audit (diff-read.ts, issue 12 item 8), with the
 * references read at once and `git show` answers kept per commit (issue 16): one diff per
 * reference in their order, the same on a second read, and the "now" side always read from the disk.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditMemory } from '../../../../src/node/audit/audit'
import { AuditFactsCache, cacheKey } from '../../../../src/node/audit/audit-cache'
import { diffsFromAudit } from '../../../../src/node/audit/diff-read'
import { noteDiffs } from '../../../../src/node/audit/note-diffs'
import { buildScriptedRepo, mem, removeBase, repo } from './scripted-repo'

beforeAll(() => buildScriptedRepo())
afterAll(removeBase)

describe('diffsFromAudit', () => {
  it('reads every note in the order of its references, twice, and rereads the file now each time', async () => {
    const cache = new AuditFactsCache()
    try {
      const r = await auditMemory({ memoryDir: mem, repo, cache })
      const key = cacheKey(mem, repo)
      let read = 0
      for (const n of r.notes) {
        const kept = await cache.keptResult(key, n.file, n.line)
        if (!kept || kept.root === null) continue
        const first = await diffsFromAudit(kept.root, kept.note, kept.audit)
        if (first === null) continue
        read++
        expect(first.map((d) => d.reference)).toEqual(n.references)
        // The second read takes the kept `git show` answers: the same diffs.
        expect(await diffsFromAudit(kept.root, kept.note, kept.audit)).toEqual(first)
      }
      expect(read).toBeGreaterThan(3)

      // The file now changes: its side is read again, the side at the commit stays.
      const edited = r.notes.find((n) =>
        n.references.some((x) => x.compare?.now === 'src/edited.ts'),
      )!
      const kept = (await cache.keptResult(key, edited.file, edited.line))!
      const before = (await diffsFromAudit(kept.root!, kept.note, kept.audit))!
      const path = join(repo, 'src/edited.ts')
      const was = readFileSync(path, 'utf8')
      writeFileSync(path, `${was}export const added = 1\n`)
      try {
        const after = (await diffsFromAudit(kept.root!, kept.note, kept.audit))!
        const i = after.findIndex((d) => d.after?.label === 'src/edited.ts (now)')
        expect(after[i].after!.text).toBe(`${was}export const added = 1\n`)
        expect(after[i].before).toEqual(before[i].before)
      } finally {
        writeFileSync(path, was)
      }
    } finally {
      cache.close()
    }
  })
})

describe('a name found now', () => {
  it('is compared in the file holding it, at the note commit and now, in both looks (issue 12 item 5)', async () => {
    const cache = new AuditFactsCache()
    try {
      const r = await auditMemory({ memoryDir: mem, repo, cache })
      const note = r.notes.find((n) => n.title === 'Stable')!
      const sym = note.references.find((x) => x.kind === 'symbol')!
      expect(sym.text).toBe('stableValue')
      // The basis names the file holding the name, then and now.
      expect(sym.compare).toMatchObject({ then: 'src/stable.ts', now: 'src/stable.ts' })
      const kept = (await cache.keptResult(cacheKey(mem, repo), note.file, note.line))!
      const read = (await diffsFromAudit(kept.root!, kept.note, kept.audit))!
      const d = read.find((x) => x.reference.kind === 'symbol')!
      expect(d.before!.text).toBe('export const stableValue = 7\n')
      expect(d.after).toEqual({
        label: 'src/stable.ts (now)',
        text: 'export const stableValue = 7\n',
      })
      expect(d.summary).toBe('found in src/stable.ts; since the note: no change')
      // An edit since the note shows in the diff; the look without a kept audit says the same.
      const path = join(repo, 'src/stable.ts')
      writeFileSync(path, 'export const stableValue = 8\n')
      try {
        const again = (await diffsFromAudit(kept.root!, kept.note, kept.audit))!
        const e = again.find((x) => x.reference.kind === 'symbol')!
        expect(e.summary).toBe('found in src/stable.ts; since the note: +1 −1 lines')
        expect(e.after!.text).toBe('export const stableValue = 8\n')
        const fresh = await noteDiffs({ memoryDir: mem, repo, file: note.file, line: note.line })
        const f = fresh.find((x) => x.reference.kind === 'symbol')!
        expect(f.summary).toBe(e.summary)
        expect(f.before).toEqual(e.before)
      } finally {
        writeFileSync(path, 'export const stableValue = 7\n')
      }
    } finally {
      cache.close()
    }
  })
})
