import { execFileSync } from 'node:child_process'
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBackups, readBackup } from '../../../../src/node/edits/backups'
import { readOperations } from '../../../../src/node/edits/operation-log'
import { hashContent, readForEdit, safeWrite } from '../../../../src/node/edits/safe-write'
import { startWriter } from '../../../helpers/writer-process'

let root: string
let n = 0
/** A fresh folder for one test, with a backups folder beside it. */
async function fresh(): Promise<{ dir: string; backups: string }> {
  const base = join(root, `t${n++}`)
  await mkdir(join(base, 'files'), { recursive: true })
  return { dir: join(base, 'files'), backups: join(base, 'backups') }
}
const tempLeft = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => f.includes('.mc-'))

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mc-safe-write-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

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

describe('safeWrite on a tiny or read-only disk (tmpfs, needs root)', () => {
  let mnt = ''
  let mounted = false
  let why = ''
  beforeAll(async () => {
    mnt = join(root, 'tiny')
    await mkdir(mnt)
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0755', 'tmpfs', mnt], {
        stdio: 'pipe',
      })
      mounted = true
    } catch (err) {
      why = `mount -t tmpfs is not permitted here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`
    }
  })
  afterAll(() => {
    if (mounted) execFileSync('umount', [mnt])
  })

  it('disk full: the original stays intact, no temp file is left, the error says so', async (ctx) => {
    if (!mounted) ctx.skip(why)
    const { backups } = await fresh()
    const file = join(mnt, 'MEMORY.md')
    const old = `${'old line\n'.repeat(2000)}` // 18,000 bytes
    await writeFile(file, old)
    const big = 'new line!\n'.repeat(5000) // 50,000 bytes: does not fit beside the original
    const res = await safeWrite({
      path: file,
      expectedHash: hashContent(old),
      newText: big,
      backupsDir: backups,
      reason: 'grow',
    })
    expect(res).toEqual({
      kind: 'error',
      reason: `cannot write ${file}: disk full (ENOSPC); the file was not changed`,
    })
    expect(await readFile(file, 'utf8')).toBe(old)
    expect(await readdir(mnt)).toEqual(['MEMORY.md'])
    // The backup was taken (on another disk) before the failed write: still there, exact.
    const { backups: list } = await listBackups(backups)
    expect(list.map((b) => b.hash)).toEqual([hashContent(old)])
  })

  it('backups on a full disk: nothing is written', async (ctx) => {
    if (!mounted) ctx.skip(why)
    const { dir } = await fresh()
    const file = join(dir, 'MEMORY.md')
    await writeFile(file, 'x'.repeat(30_000))
    await writeFile(join(mnt, 'filler'), Buffer.alloc(40_000))
    try {
      const res = await safeWrite({
        path: file,
        expectedHash: hashContent('x'.repeat(30_000)),
        newText: 'y',
        backupsDir: join(mnt, 'bk'),
        reason: 'e',
      })
      expect(res.kind).toBe('error')
      expect(res.kind === 'error' && res.reason).toBe(
        `cannot back up ${file}, so it was not changed: cannot write backup in ${join(mnt, 'bk')}: disk full (ENOSPC)`,
      )
      expect(await readFile(file, 'utf8')).toBe('x'.repeat(30_000))
      expect(await readdir(join(mnt, 'bk'))).toEqual([])
    } finally {
      await rm(join(mnt, 'filler'), { force: true })
      await rm(join(mnt, 'bk'), { recursive: true, force: true })
    }
  })

  it('read-only file system: a clear error and the file unchanged', async (ctx) => {
    if (!mounted) ctx.skip(why)
    const { backups } = await fresh()
    const file = join(mnt, 'ro.md')
    await writeFile(file, 'ro\n')
    execFileSync('mount', ['-o', 'remount,ro', mnt])
    try {
      const res = await safeWrite({
        path: file,
        expectedHash: hashContent('ro\n'),
        newText: 'rw\n',
        backupsDir: backups,
        reason: 'e',
      })
      expect(res).toEqual({
        kind: 'error',
        reason: `cannot write ${file}: read-only file system (EROFS); the file was not changed`,
      })
      expect(await readFile(file, 'utf8')).toBe('ro\n')
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mnt])
      await rm(file, { force: true })
    }
  })
})

// ---- a second process changing the file while we edit it -------------------------------

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
