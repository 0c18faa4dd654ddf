import { execFileSync } from 'node:child_process'
import {
  appendFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { OperationRecord } from '../../../../src/node/edits/operation-log'
import { createBackup, listBackups, readBackup } from '../../../../src/node/edits/backups'
import {
  lastUndoable,
  parseOperationLog,
  pickLastUndoable,
  readOperations,
  recordOperation,
} from '../../../../src/node/edits/operation-log'
import { undo } from '../../../../src/node/edits/undo'
import { safeDelete } from '../../../../src/node/edits/safe-delete'
import { hashContent, safeWrite } from '../../../../src/node/edits/safe-write'
import { defaultTrashDir, freedesktopTrash, trashInfoText } from '../../../../src/node/edits/trash'

let root: string
let n = 0
async function fresh(): Promise<{ dir: string; backups: string; trash: string }> {
  const base = join(root, `t${n++}`)
  await mkdir(join(base, 'files'), { recursive: true })
  return { dir: join(base, 'files'), backups: join(base, 'backups'), trash: join(base, 'Trash') }
}
const H = (s: string): string => hashContent(s)

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mc-backups-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

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

describe('undo log', () => {
  const op = (id: string, extra: Partial<OperationRecord> = {}): OperationRecord => ({
    id,
    op: 'write',
    path: '/p/a.md',
    beforeHash: H('0'),
    afterHash: H('1'),
    backupId: `b${id}`,
    time: '2026-01-01T00:00:00.000Z',
    ...extra,
  })

  it('parses JSONL and turns a torn line into a problem', () => {
    const text = `${JSON.stringify(op('1'))}\n${JSON.stringify(op('2'))}\n{"id":"3","op":"wri`
    const log = parseOperationLog(text, '/b/operations.jsonl')
    expect(log.operations.map((o) => o.id)).toEqual(['1', '2'])
    expect(log.problems).toEqual([
      { path: '/b/operations.jsonl', reason: 'line 3: not a valid operation record' },
    ])
  })

  it('picks the newest operation not undone, walking back like an undo stack', () => {
    const ops = [op('1'), op('2', { path: '/p/b.md' }), op('3'), op('4', { undoes: '3' })]
    expect(pickLastUndoable(ops)?.id).toBe('2')
    expect(pickLastUndoable(ops, '/p/a.md')?.id).toBe('1')
    expect(
      pickLastUndoable([...ops, op('5', { undoes: '2' }), op('6', { undoes: '1' })]),
    ).toBeNull()
    expect(pickLastUndoable([])).toBeNull()
  })

  it('appends records that survive a torn tail', async () => {
    const { backups } = await fresh()
    const a = await recordOperation(backups, {
      op: 'write',
      path: '/x/a.md',
      beforeHash: null,
      afterHash: H('a'),
      backupId: null,
    })
    await appendFile(join(backups, 'operations.jsonl'), '{"torn')
    await appendFile(join(backups, 'operations.jsonl'), '\n')
    const b = await recordOperation(backups, {
      op: 'delete',
      path: '/x/a.md',
      beforeHash: H('a'),
      afterHash: null,
      backupId: 'k',
    })
    const log = await readOperations(backups)
    expect(log.operations.map((o) => o.id)).toEqual([
      a.ok && a.operation.id,
      b.ok && b.operation.id,
    ])
    expect(log.problems).toHaveLength(1)
  })
})

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
    const res = await safeDelete({
      path: file,
      expectedHash: H('x\n'),
      backupsDir: backups,
      trash: (p) => freedesktopTrash(p, { trashDir: trash }),
    })
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
    const res = await safeDelete({
      path: file,
      expectedHash: H('original\n'),
      backupsDir: backups,
      trash: (p) => freedesktopTrash(p, { trashDir: trash }),
    })
    expect(res).toEqual({ kind: 'conflict', currentHash: H('changed\n'), currentText: 'changed\n' })
    expect(await readFile(file, 'utf8')).toBe('changed\n')
    expect((await listBackups(backups)).backups).toEqual([])
  })
})

describe('freedesktopTrash', () => {
  it('gives a second file of the same name a free name, and trashes a symlink as a link', async () => {
    const { dir, trash } = await fresh()
    for (const body of ['one', 'two']) {
      await writeFile(join(dir, 'MEMORY.md'), body)
      await freedesktopTrash(join(dir, 'MEMORY.md'), { trashDir: trash })
    }
    expect((await readdir(join(trash, 'files'))).sort()).toEqual(['MEMORY.2.md', 'MEMORY.md'])
    expect(await readFile(join(trash, 'files', 'MEMORY.2.md'), 'utf8')).toBe('two')
    expect((await readdir(join(trash, 'info'))).sort()).toEqual([
      'MEMORY.2.md.trashinfo',
      'MEMORY.md.trashinfo',
    ])
    await writeFile(join(dir, 'target.md'), 't')
    await symlink('target.md', join(dir, 'link.md'))
    const item = await freedesktopTrash(join(dir, 'link.md'), { trashDir: trash })
    expect((await lstat(item.trashedPath)).isSymbolicLink()).toBe(true)
    expect(await readFile(join(dir, 'target.md'), 'utf8')).toBe('t')
  })

  it('fails with the path named and leaves no info file behind', async () => {
    const { dir, trash } = await fresh()
    await expect(freedesktopTrash(join(dir, 'gone.md'), { trashDir: trash })).rejects.toThrow(
      `cannot move ${join(dir, 'gone.md')} to the trash ${trash}: no such file or folder (ENOENT)`,
    )
  })

  it('writes the spec info text and finds the home trash from XDG_DATA_HOME', () => {
    expect(trashInfoText('/home/u/a b/%x.md', new Date(2026, 0, 2, 3, 4, 5))).toBe(
      '[Trash Info]\nPath=/home/u/a%20b/%25x.md\nDeletionDate=2026-01-02T03:04:05\n',
    )
    expect(defaultTrashDir({ XDG_DATA_HOME: '/data', HOME: '/h' })).toBe('/data/Trash')
    expect(defaultTrashDir({ HOME: '/h' })).toBe('/h/.local/share/Trash')
    expect(defaultTrashDir({ XDG_DATA_HOME: 'relative', HOME: '/h' })).toBe('/h/.local/share/Trash')
  })

  it('moves across devices by copy + unlink (tmpfs trash, needs root)', async (ctx) => {
    const { dir } = await fresh()
    const mnt = join(root, `xdev${n}`)
    await mkdir(mnt)
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { stdio: 'pipe' })
    } catch (err) {
      ctx.skip(
        `mount -t tmpfs is not permitted here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`,
      )
    }
    try {
      await writeFile(join(dir, 'a.md'), 'across\n', { mode: 0o640 })
      const item = await freedesktopTrash(join(dir, 'a.md'), { trashDir: join(mnt, 'Trash') })
      expect(await readFile(item.trashedPath, 'utf8')).toBe('across\n')
      expect((await lstat(item.trashedPath)).mode & 0o777).toBe(0o640)
      await expect(lstat(join(dir, 'a.md'))).rejects.toThrow(/ENOENT/)
    } finally {
      execFileSync('umount', [mnt])
    }
  })
})
