import { chmod, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listBackups, readBackup } from '../../../../src/node/edits/backups'
import { readOperations } from '../../../../src/node/edits/operation-log'
import { hashContent, readForEdit, safeWrite } from '../../../../src/node/edits/safe-write'
import { tempDirs, tempLeft } from './temp-dirs'

const dirs = tempDirs('mc-safe-write-')
const fresh = dirs.fresh

describe('hashContent and readForEdit', () => {
  it('hashes exact bytes and reads text with the hash of what is on disk', async () => {
    expect(hashContent('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    const { dir } = await fresh()
    const file = join(dir, 'MEMORY.md')
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('# Mémoire\r\n- a\r\n'),
    ])
    await writeFile(file, bytes)
    const r = await readForEdit(file)
    expect(r).toMatchObject({
      ok: true,
      path: file,
      text: '# Mémoire\r\n- a\r\n',
      bytes: 20,
      encoding: 'utf8-bom',
    })
    expect(r.ok && r.hash).toBe(hashContent(bytes))
  })

  it('reports missing files, folders and binary files as problems', async () => {
    const { dir } = await fresh()
    expect(await readForEdit(join(dir, 'nope.md'))).toMatchObject({
      ok: false,
      problem: 'missing',
      reason: 'no such file',
    })
    expect(await readForEdit(dir)).toMatchObject({ ok: false, problem: 'not-a-file' })
    await writeFile(join(dir, 'bin.md'), Buffer.from([1, 0, 2]))
    expect(await readForEdit(join(dir, 'bin.md'))).toMatchObject({ ok: false, problem: 'binary' })
  })
})

describe('safeWrite', () => {
  it('refuses a write based on a stale hash and leaves the file untouched', async () => {
    const { dir, backups } = await fresh()
    const file = join(dir, 'MEMORY.md')
    await writeFile(file, 'one\n')
    const read = await readForEdit(file)
    if (!read.ok) throw new Error(read.reason)
    await writeFile(file, 'two (another session)\n')
    const res = await safeWrite({
      path: file,
      expectedHash: read.hash,
      newText: 'one\nmine\n',
      backupsDir: backups,
      reason: 'edit',
    })
    expect(res).toEqual({
      kind: 'conflict',
      currentHash: hashContent('two (another session)\n'),
      currentText: 'two (another session)\n',
    })
    expect(await readFile(file, 'utf8')).toBe('two (another session)\n')
    expect((await listBackups(backups)).backups).toEqual([])
    expect(await tempLeft(dir)).toEqual([])
  })

  it('writes, backs up the old bytes exactly, logs the operation and verifies', async () => {
    const { dir, backups } = await fresh()
    const file = join(dir, 'topic.md')
    const old = Buffer.from('---\nname: x\n---\r\nÄ 한국어 🙂\n')
    await writeFile(file, old)
    const res = await safeWrite({
      path: file,
      expectedHash: hashContent(old),
      newText: 'new\n',
      backupsDir: backups,
      reason: 'trim',
    })
    if (res.kind !== 'written') throw new Error(JSON.stringify(res))
    expect(res.hash).toBe(hashContent('new\n'))
    expect(res.verified).toBe(true)
    expect(await readFile(file, 'utf8')).toBe('new\n')
    const backup = await readBackup(backups, res.backupId ?? '')
    if (!backup.ok) throw new Error(backup.reason)
    expect(backup.bytes.equals(old)).toBe(true)
    expect(backup.meta).toMatchObject({
      path: file,
      hash: hashContent(old),
      size: old.length,
      reason: 'trim',
      operation: 'write',
    })
    const { operations } = await readOperations(backups)
    expect(operations).toHaveLength(1)
    expect(operations[0]).toMatchObject({
      id: res.operation?.id,
      op: 'write',
      path: file,
      beforeHash: hashContent(old),
      afterHash: hashContent('new\n'),
      backupId: res.backupId,
      reason: 'trim',
    })
    expect(await tempLeft(dir)).toEqual([])
  })

  it('backs up before writing: no backup possible means no write', async () => {
    const { dir } = await fresh()
    const file = join(dir, 'MEMORY.md')
    await writeFile(file, 'keep\n')
    const notAFolder = join(dir, 'backups-is-a-file')
    await writeFile(notAFolder, 'x')
    const res = await safeWrite({
      path: file,
      expectedHash: hashContent('keep\n'),
      newText: 'lost?\n',
      backupsDir: notAFolder,
      reason: 'edit',
    })
    expect(res.kind).toBe('error')
    expect(res.kind === 'error' && res.reason).toMatch(
      /^cannot back up .*MEMORY\.md, so it was not changed: cannot create backup folder/,
    )
    expect(await readFile(file, 'utf8')).toBe('keep\n')
  })

  it('keeps the mode of the original', async () => {
    const { dir, backups } = await fresh()
    for (const mode of [0o640, 0o755, 0o600]) {
      const file = join(dir, `m${mode.toString(8)}.md`)
      await writeFile(file, 'a\n')
      await chmod(file, mode)
      const res = await safeWrite({
        path: file,
        expectedHash: hashContent('a\n'),
        newText: 'b\n',
        backupsDir: backups,
        reason: 'm',
      })
      expect(res.kind).toBe('written')
      expect((await stat(file)).mode & 0o7777).toBe(mode)
    }
  })

  it('writes through a symlink: the link stays a link and its target gets the content', async () => {
    const { dir, backups } = await fresh()
    await mkdir(join(dir, 'dotfiles'))
    const target = join(dir, 'dotfiles', 'MEMORY.md')
    const link = join(dir, 'MEMORY.md')
    await writeFile(target, 'old\n')
    await symlink('dotfiles/MEMORY.md', link)
    const res = await safeWrite({
      path: link,
      expectedHash: hashContent('old\n'),
      newText: 'new\n',
      backupsDir: backups,
      reason: 'edit',
    })
    if (res.kind !== 'written') throw new Error(JSON.stringify(res))
    expect((await lstat(link)).isSymbolicLink()).toBe(true)
    expect(await readlink(link)).toBe('dotfiles/MEMORY.md')
    expect(await readFile(target, 'utf8')).toBe('new\n')
    const backup = await readBackup(backups, res.backupId ?? '')
    expect(backup.ok && backup.bytes.toString()).toBe('old\n')
    expect(backup.ok && backup.meta.path).toBe(link)
    expect(await tempLeft(join(dir, 'dotfiles'))).toEqual([])
    const dangling = join(dir, 'dangling.md')
    await symlink('nowhere.md', dangling)
    const res2 = await safeWrite({
      path: dangling,
      expectedHash: null,
      newText: 'x',
      backupsDir: backups,
      reason: 'edit',
    })
    expect(res2).toEqual({
      kind: 'error',
      reason: `cannot write ${dangling}: it is a symlink whose target does not exist`,
    })
  })

  it('creates a file only when it must not exist (expectedHash null)', async () => {
    const { dir, backups } = await fresh()
    const file = join(dir, 'new-topic.md')
    const res = await safeWrite({
      path: file,
      expectedHash: null,
      newText: 'hello\n',
      backupsDir: backups,
      reason: 'create',
    })
    expect(res).toMatchObject({
      kind: 'written',
      hash: hashContent('hello\n'),
      backupId: null,
      verified: true,
    })
    expect(await readFile(file, 'utf8')).toBe('hello\n')
    const again = await safeWrite({
      path: file,
      expectedHash: null,
      newText: 'clobber\n',
      backupsDir: backups,
      reason: 'create',
    })
    expect(again).toEqual({
      kind: 'conflict',
      currentHash: hashContent('hello\n'),
      currentText: 'hello\n',
    })
    expect(await readFile(file, 'utf8')).toBe('hello\n')
    const gone = await safeWrite({
      path: join(dir, 'x.md'),
      expectedHash: hashContent('hello\n'),
      newText: 'y',
      backupsDir: backups,
      reason: 'e',
    })
    expect(gone).toEqual({ kind: 'conflict', currentHash: null, currentText: null })
    expect(await tempLeft(dir)).toEqual([])
  })

  it('keeps the encoding of the original (UTF-8 BOM, UTF-16 LE)', async () => {
    const { dir, backups } = await fresh()
    const bomFile = join(dir, 'bom.md')
    const bom = Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0a])
    await writeFile(bomFile, bom)
    await safeWrite({
      path: bomFile,
      expectedHash: hashContent(bom),
      newText: 'b\n',
      backupsDir: backups,
      reason: 'e',
    })
    expect([...(await readFile(bomFile))]).toEqual([0xef, 0xbb, 0xbf, 0x62, 0x0a])
    const u16 = join(dir, 'u16.md')
    const u16Bytes = Buffer.from([0xff, 0xfe, 0x61, 0x00])
    await writeFile(u16, u16Bytes)
    const read = await readForEdit(u16)
    expect(read).toMatchObject({ ok: true, text: 'a', encoding: 'utf16le' })
    const res = await safeWrite({
      path: u16,
      expectedHash: hashContent(u16Bytes),
      newText: 'é',
      backupsDir: backups,
      reason: 'e',
    })
    expect([...(await readFile(u16))]).toEqual([0xff, 0xfe, 0xe9, 0x00])
    expect(res.kind === 'written' && res.hash).toBe(
      hashContent(Buffer.from([0xff, 0xfe, 0xe9, 0x00])),
    )
  })

  it('names the path in errors and leaves no temp file', async () => {
    const { dir, backups } = await fresh()
    const missingDir = join(dir, 'no-such-folder', 'MEMORY.md')
    const res = await safeWrite({
      path: missingDir,
      expectedHash: null,
      newText: 'x',
      backupsDir: backups,
      reason: 'e',
    })
    expect(res).toEqual({
      kind: 'error',
      reason: `cannot write ${missingDir}: no such file or folder (ENOENT); the file was not changed`,
    })
    const res2 = await safeWrite({
      path: dir,
      expectedHash: null,
      newText: 'x',
      backupsDir: backups,
      reason: 'e',
    })
    expect(res2).toEqual({ kind: 'error', reason: `cannot write ${dir}: is a directory` })
    expect(await tempLeft(dir)).toEqual([])
  })
})
