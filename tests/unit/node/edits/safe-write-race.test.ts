/** safeWrite against a concurrent writer in another process: every stale write refused, no version lost. */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listBackups, readBackup } from '../../../../src/node/edits/backups'
import { readForEdit, safeWrite } from '../../../../src/node/edits/safe-write'
import { startWriter } from '../../../helpers/writer-process'

import { tempDirs } from './temp-dirs'

const dirs = tempDirs('mc-safe-write-')
const fresh = dirs.fresh

const MODES = ['same-size', 'truncate', 'append', 'rename-over', 'delete-recreate'] as const
const ROUNDS = 100

interface WriterEvent {
  readonly kind: 'before' | 'captured' | 'after'
  readonly b64: string
  readonly orphaned?: boolean
}

describe('safeWrite against a concurrent writer in another process', () => {
  const totals = { written: 0, conflicts: 0, raced: 0 }

  for (const mode of MODES) {
    it(`${mode}: every stale write is refused and no version is lost`, async () => {
      const { dir, backups } = await fresh()
      const file = join(dir, 'MEMORY.md')
      const logPath = join(dir, '..', 'writer.jsonl')
      await writeFile(file, `# Memory\n${'- [Note](note.md) — a hook line\n'.repeat(4)}`)
      const writer = startWriter(file, mode, ROUNDS, logPath, 12)

      const ours: {
        base: string | null
        baseB64: string | null
        text: string
        backupId: string | null
      }[] = []
      let k = 0
      while (writer.running()) {
        const read = await readForEdit(file)
        if (!read.ok && read.problem !== 'missing')
          throw new Error(`${read.problem}: ${read.reason}`)
        const baseText = read.ok ? read.text : ''
        const text = `${baseText}t${k++}\n`
        const res = await safeWrite({
          path: file,
          expectedHash: read.ok ? read.hash : null,
          newText: text,
          backupsDir: backups,
          reason: 'loop',
        })
        if (res.kind === 'error') throw new Error(res.reason)
        if (res.kind === 'conflict') {
          totals.conflicts++
          if (res.racedBackupId !== undefined) totals.raced++
        } else {
          totals.written++
          ours.push({
            base: read.ok ? read.hash : null,
            baseB64: read.ok ? Buffer.from(baseText).toString('base64') : null,
            text,
            backupId: res.backupId,
          })
        }
        await new Promise((r) => setTimeout(r, Math.random() * 2))
      }
      expect(await writer.exited).toBe(0)
      expect(writer.stderr()).toBe('')

      // What survives anywhere except in what each side claims to have written.
      const seen = new Set<string>()
      seen.add((await readFile(file)).toString('base64'))
      const { backups: metas } = await listBackups(backups)
      for (const m of metas) {
        const b = await readBackup(backups, m.id)
        if (!b.ok) throw new Error(b.reason)
        seen.add(b.bytes.toString('base64'))
      }
      const writerAfters: WriterEvent[] = []
      for (const line of (await readFile(logPath, 'utf8')).split('\n').filter(Boolean)) {
        for (const e of (JSON.parse(line) as { events: WriterEvent[] }).events) {
          if (e.kind === 'after') writerAfters.push(e)
          else seen.add(e.b64)
        }
      }
      expect(writerAfters.length).toBeGreaterThan(0)

      // No write based on a stale hash succeeded: each backup holds exactly the version we read.
      for (const o of ours) {
        if (o.base === null) {
          expect(o.backupId).toBeNull()
          continue
        }
        const b = await readBackup(backups, o.backupId ?? '')
        if (!b.ok) throw new Error(b.reason)
        expect(b.meta.hash).toBe(o.base)
        expect(b.bytes.toString('base64')).toBe(o.baseB64)
      }
      // 0 bytes lost: every version either side wrote was seen by whoever replaced it.
      const lostOurs = ours.filter((o) => !seen.has(Buffer.from(o.text).toString('base64')))
      const lostTheirs = writerAfters.filter((e) => !e.orphaned && !seen.has(e.b64))
      expect(lostOurs.map((o) => o.text.slice(-12))).toEqual([])
      expect(lostTheirs.map((e) => Buffer.from(e.b64, 'base64').toString().slice(-12))).toEqual([])
      expect((await readdir(dir)).filter((f) => f !== 'MEMORY.md')).toEqual([])
    })
  }

  it('the writers really raced (sanity check of the test itself)', () => {
    expect(totals.written).toBeGreaterThan(10)
    expect(totals.conflicts).toBeGreaterThan(0)
  })
})
