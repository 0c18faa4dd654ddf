/** safeWrite on a tiny or read-only disk (tmpfs, needs root): the original always stays intact. */
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBackups } from '../../../../src/node/edits/backups'
import { hashContent, safeWrite } from '../../../../src/node/edits/safe-write'
import { tempDirs } from './temp-dirs'

const dirs = tempDirs('mc-safe-write-')
const fresh = dirs.fresh

describe('safeWrite on a tiny or read-only disk (tmpfs, needs root)', () => {
  let mnt = ''
  let mounted = false
  let why = ''
  beforeAll(async () => {
    mnt = join(dirs.root(), 'tiny')
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
