/** Undo: after a restart, over a changed file (refused), of a creation. */
import { lstat, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { listBackups, readBackup } from '../../../../src/node/edits/backups'
import { lastUndoable } from '../../../../src/node/edits/operation-log'
import { undo } from '../../../../src/node/edits/undo'
import { hashContent, safeWrite } from '../../../../src/node/edits/safe-write'

import { tempDirs } from './temp-dirs'

const dirs = tempDirs('mc-backups-')
const fresh = dirs.fresh
const H = (s: string): string => hashContent(s)

describe('undo', () => {
  it('restores after a restart (fresh module state, same folders), then walks further back', async () => {
    const { dir, backups } = await fresh()
    const file = join(dir, 'MEMORY.md')
    const v0 = Buffer.from('v0 \u00e9\r\n') // exact bytes must come back
    await writeFile(file, v0)
    const w1 = await safeWrite({
      path: file,
      expectedHash: hashContent(v0),
      newText: 'v1\n',
      backupsDir: backups,
      reason: 'e1',
    })
    const w2 = await safeWrite({
      path: file,
      expectedHash: H('v1\n'),
      newText: 'v2\n',
      backupsDir: backups,
      reason: 'e2',
    })
    expect([w1.kind, w2.kind]).toEqual(['written', 'written'])

    vi.resetModules()
    const again = {
      ...(await import('../../../../src/node/edits/operation-log')),
      ...(await import('../../../../src/node/edits/undo')),
    }
    const last = await again.lastUndoable(backups)
    expect(last).toMatchObject({
      op: 'write',
      path: file,
      beforeHash: H('v1\n'),
      afterHash: H('v2\n'),
    })
    const u1 = await again.undo(backups, last?.id ?? '')
    expect(u1).toMatchObject({
      kind: 'undone',
      operation: { undoes: last?.id, beforeHash: H('v2\n'), afterHash: H('v1\n') },
    })
    expect(await readFile(file, 'utf8')).toBe('v1\n')
    const prev = await again.lastUndoable(backups, file)
    expect(prev?.afterHash).toBe(H('v1\n'))
    expect((await again.undo(backups, prev?.id ?? '')).kind).toBe('undone')
    expect((await readFile(file)).equals(v0)).toBe(true)
    expect(await again.lastUndoable(backups)).toBeNull()
    expect(await again.undo(backups, prev?.id ?? '')).toEqual({
      kind: 'error',
      reason: `operation ${prev?.id} on ${file} was already undone`,
    })
    // Every undo backed up what it replaced: v2 and v1 are both still recoverable.
    const hashes = (await listBackups(backups, file)).backups.map((b) => b.hash)
    expect(hashes).toEqual([hashContent(v0), H('v1\n'), H('v2\n'), H('v1\n')])
  })

  it('refuses to undo over a file changed since, and leaves it alone', async () => {
    const { dir, backups } = await fresh()
    const file = join(dir, 'MEMORY.md')
    await writeFile(file, 'a\n')
    await safeWrite({
      path: file,
      expectedHash: H('a\n'),
      newText: 'b\n',
      backupsDir: backups,
      reason: 'e',
    })
    await writeFile(file, 'c (a session wrote this)\n')
    const last = await lastUndoable(backups)
    const res = await undo(backups, last?.id ?? '')
    expect(res).toEqual({
      kind: 'conflict',
      currentHash: H('c (a session wrote this)\n'),
      currentText: 'c (a session wrote this)\n',
    })
    expect(await readFile(file, 'utf8')).toBe('c (a session wrote this)\n')
    expect((await lastUndoable(backups))?.id).toBe(last?.id)
    expect(await undo(backups, 'no-such-op')).toEqual({
      kind: 'error',
      reason: `no operation no-such-op in the undo log of ${backups}`,
    })
  })

  it('undoes a creation by removing the file, keeping its bytes in a backup', async () => {
    const { dir, backups } = await fresh()
    const file = join(dir, 'new.md')
    await safeWrite({
      path: file,
      expectedHash: null,
      newText: 'fresh\n',
      backupsDir: backups,
      reason: 'create',
    })
    const res = await undo(backups, (await lastUndoable(backups))?.id ?? '')
    if (res.kind !== 'undone') throw new Error(JSON.stringify(res))
    await expect(lstat(file)).rejects.toThrow(/ENOENT/)
    const b = await readBackup(backups, res.backupId ?? '')
    expect(b.ok && b.bytes.toString()).toBe('fresh\n')
  })
})
