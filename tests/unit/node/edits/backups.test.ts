import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup, listBackups, readBackup } from '../../../../src/node/edits/backups'
import { hashContent } from '../../../../src/node/edits/safe-write'

import { tempDirs } from './temp-dirs'

const dirs = tempDirs('mc-backups-')
const fresh = dirs.fresh

describe('backup store', () => {
  it('stores exact bytes with a sidecar, never overwrites, ids sort by time', async () => {
    const { dir, backups } = await fresh()
    const a = join(dir, 'a.md')
    const bytes = Buffer.from([0xff, 0x00, 0x41, 0x0d, 0x0a]) // not even text: kept byte for byte
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const r = await createBackup(backups, { path: a, bytes, reason: `r${i}`, operation: 'write' })
      if (!r.ok) throw new Error(r.reason)
      ids.push(r.meta.id)
    }
    await createBackup(backups, {
      path: join(dir, 'b.md'),
      bytes: Buffer.from('b'),
      reason: 'rb',
      operation: 'delete',
    })
    expect(new Set(ids).size).toBe(5)
    expect([...ids].sort()).toEqual(ids)
    expect(ids[0]).toMatch(/^\d{8}T\d{9}Z-\d{6}-[0-9a-f]{6}$/)
    const onlyA = await listBackups(backups, a)
    expect(onlyA.backups.map((b) => b.id)).toEqual(ids)
    expect(onlyA.backups.map((b) => b.reason)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4'])
    expect((await listBackups(backups)).backups).toHaveLength(6)
    const read = await readBackup(backups, ids[2])
    if (!read.ok) throw new Error(read.reason)
    expect(read.bytes.equals(bytes)).toBe(true)
    expect(read.meta).toMatchObject({
      id: ids[2],
      path: a,
      hash: hashContent(bytes),
      size: 5,
      operation: 'write',
    })
    expect((await readdir(backups)).sort()).toHaveLength(12)
  })

  it('reports damaged backups, bad ids, broken sidecars and a missing store as values', async () => {
    const { dir, backups } = await fresh()
    expect(await listBackups(join(dir, 'none'))).toEqual({ backups: [], problems: [] })
    const r = await createBackup(backups, {
      path: join(dir, 'x.md'),
      bytes: Buffer.from('good'),
      reason: 'r',
      operation: 'write',
    })
    if (!r.ok) throw new Error(r.reason)
    await writeFile(join(backups, `${r.meta.id}.bak`), 'evil')
    expect(await readBackup(backups, r.meta.id)).toEqual({
      ok: false,
      reason: `backup ${join(backups, `${r.meta.id}.bak`)} is damaged: its bytes no longer match the recorded hash`,
    })
    expect(await readBackup(backups, '../../etc/passwd')).toEqual({
      ok: false,
      reason: 'not a backup id: "../../etc/passwd"',
    })
    expect(await readBackup(backups, 'nope')).toEqual({
      ok: false,
      reason: `no backup nope in ${backups}`,
    })
    await writeFile(join(backups, 'junk.json'), '{not json')
    const list = await listBackups(backups)
    expect(list.backups.map((b) => b.id)).toEqual([r.meta.id])
    expect(list.problems).toEqual([
      { path: join(backups, 'junk.json'), reason: 'not a valid backup sidecar' },
    ])
  })
})
