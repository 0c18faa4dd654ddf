/** Deleting to the trash: backup first, a failing trash, a stale hash, and undo. */
import { lstat, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listBackups, readBackup } from '../../../../src/node/edits/backups'
import { readOperations } from '../../../../src/node/edits/operation-log'
import { undo } from '../../../../src/node/edits/undo'
import { safeDelete } from '../../../../src/node/edits/safe-delete'
import { hashContent } from '../../../../src/node/edits/safe-write'
import { freedesktopTrash } from '../../../../src/node/edits/trash'

import { tempDirs } from './temp-dirs'

const dirs = tempDirs('mc-backups-')
const fresh = dirs.fresh
const H = (s: string): string => hashContent(s)
/** Delete `file`, which should hold `text`, into the folders' backups and trash. */
const deleteToTrash = (file: string, text: string, to: { backups: string; trash: string }) =>
  safeDelete({
    path: file,
    expectedHash: H(text),
    backupsDir: to.backups,
    trash: (p) => freedesktopTrash(p, { trashDir: to.trash }),
  })

describe('delete to the trash', () => {
  it('moves the file to a trash folder, keeps a backup, and undo puts it back', async () => {
    const { dir, backups, trash } = await fresh()
    const file = join(dir, 'old note.md')
    const bytes = Buffer.from('---\nname: old\n---\nbody\n')
    await writeFile(file, bytes)
    const now = new Date(2026, 2, 4, 5, 6, 7)
    const res = await safeDelete({
      path: file,
      expectedHash: hashContent(bytes),
      backupsDir: backups,
      trash: (p) => freedesktopTrash(p, { trashDir: trash, now }),
    })
    if (res.kind !== 'deleted') throw new Error(JSON.stringify(res))
    expect(res.trashed).toBe(true)
    await expect(lstat(file)).rejects.toThrow(/ENOENT/)
    expect((await readFile(join(trash, 'files', 'old note.md'))).equals(bytes)).toBe(true)
    expect(await readFile(join(trash, 'info', 'old note.md.trashinfo'), 'utf8')).toBe(
      `[Trash Info]\nPath=${dir.split('/').map(encodeURIComponent).join('/')}/old%20note.md\nDeletionDate=2026-03-04T05:06:07\n`,
    )
    const backup = await readBackup(backups, res.backupId)
    expect(backup.ok && backup.bytes.equals(bytes)).toBe(true)
    expect(backup.ok && backup.meta.operation).toBe('delete')
    expect(res.operation).toMatchObject({
      op: 'delete',
      path: file,
      beforeHash: hashContent(bytes),
      afterHash: null,
      backupId: res.backupId,
    })

    const u = await undo(backups, res.operation?.id ?? '')
    expect(u).toMatchObject({
      kind: 'undone',
      backupId: null,
      operation: { op: 'write', beforeHash: null },
    })
    expect((await readFile(file)).equals(bytes)).toBe(true)
  })

  it('refuses to restore a deleted file over one that exists again', async () => {
    const { dir, backups, trash } = await fresh()
    const file = join(dir, 'x.md')
    await writeFile(file, 'x\n')
    const res = await deleteToTrash(file, 'x\n', { backups, trash })
    await writeFile(file, 'new x\n')
    expect(await undo(backups, (res.kind === 'deleted' && res.operation?.id) || '')).toEqual({
      kind: 'conflict',
      currentHash: H('new x\n'),
      currentText: 'new x\n',
    })
    expect(await readFile(file, 'utf8')).toBe('new x\n')
  })

  it('a failing trash leaves the file in place and says so', async () => {
    const { dir, backups } = await fresh()
    const file = join(dir, 'MEMORY.md')
    await writeFile(file, 'keep me\n')
    const res = await safeDelete({
      path: file,
      expectedHash: H('keep me\n'),
      backupsDir: backups,
      trash: () => Promise.reject(new Error('gio: trash not supported on this mount')),
    })
    if (res.kind !== 'error') throw new Error(JSON.stringify(res))
    expect(res.fileKept).toBe(true)
    expect(res.reason).toMatch(
      new RegExp(
        `^could not move to the trash ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: gio: trash not supported on this mount; the file was left in place \\(backup [0-9T]+Z-\\d{6}-[0-9a-f]{6}\\)$`,
      ),
    )
    expect(await readFile(file, 'utf8')).toBe('keep me\n')
    expect((await readOperations(backups)).operations).toEqual([])
  })

  it('refuses a delete based on a stale hash', async () => {
    const { dir, backups, trash } = await fresh()
    const file = join(dir, 'a.md')
    await writeFile(file, 'changed\n')
    const res = await deleteToTrash(file, 'original\n', { backups, trash })
    expect(res).toEqual({ kind: 'conflict', currentHash: H('changed\n'), currentText: 'changed\n' })
    expect(await readFile(file, 'utf8')).toBe('changed\n')
    expect((await listBackups(backups)).backups).toEqual([])
  })
})
