/**
 * Disk full and a failing trash (issue 8, docs/reliability.md): clear errors naming the file,
 * the original untouched, no temp file left. Permissions are in disk-permissions.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBackups, readBackup } from '../../../src/node/edits/backups'
import { createCuration } from '../../../src/node/edits/edit-actions'
import { createJsonFileStore } from '../../../src/node/fs/json-store'
import { safeDelete } from '../../../src/node/edits/safe-delete'
import { hashContent } from '../../../src/node/edits/safe-write'
import { freedesktopTrash } from '../../../src/node/edits/trash'

const TEMP = /\.mc-[0-9a-f]{8}\.tmp$/
let root = ''
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mc-rel-disk-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

const mounts: string[] = []
/** A tmpfs of `size` at a new folder; null (with the reason) where mounting is not permitted. */
function tinyDisk(name: string, size: string): { path: string | null; why: string } {
  const path = join(root, name)
  execFileSync('mkdir', ['-p', path])
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', path], {
      stdio: 'pipe',
    })
    mounts.push(path)
    return { path, why: '' }
  } catch (err) {
    return {
      path: null,
      why: `mount -t tmpfs is not permitted here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`,
    }
  }
}
afterAll(() => {
  for (const m of mounts) execFileSync('umount', ['-l', m])
})

describe('disk full (tiny tmpfs)', () => {
  it('through the curation back end: every size refused cleanly, original and backups intact', async (ctx) => {
    const disk = tinyDisk('full', '96k')
    if (disk.path === null) ctx.skip(disk.why)
    const mnt = disk.path ?? ''
    const state = join(root, 'full-state')
    const curation = createCuration({
      stateDir: state,
      trash: (p) => freedesktopTrash(p, { trashDir: join(root, 'full-trash') }),
      stamps: createJsonFileStore(join(state, 'stamps.json')),
    })
    const file = join(mnt, 'MEMORY.md')
    const old = `# Memory\n${'- [Note](note.md) — keep me\n'.repeat(1000)}` // ~29 KB
    await writeFile(file, old)
    await writeFile(join(mnt, 'filler'), Buffer.alloc(40_000))
    let refused = 0
    let written = 0
    for (let i = 0; i < 60; i++) {
      // From a bit over the free space to several times it.
      const text = `${old}${'more text that will not fit\n'.repeat(1000 + i * 150)}`
      const res = await curation.writeFile(file, hashContent(old), text, 'grow')
      if (res.kind === 'written') {
        written++
        break
      }
      refused++
      expect(res).toEqual({
        kind: 'error',
        path: file,
        reason: `cannot write ${file}: disk full (ENOSPC); the file was not changed`,
      })
      expect(await readFile(file, 'utf8')).toBe(old)
      expect((await readdir(mnt)).filter((n) => TEMP.test(n))).toEqual([])
    }
    expect(written).toBe(0)
    expect(refused).toBe(60)
    // Each refused write took its backup first (on another disk): all exact copies of the original.
    const { backups } = await listBackups(join(state, 'backups'))
    expect(backups).toHaveLength(60)
    for (const b of backups) {
      const r = await readBackup(join(state, 'backups'), b.id)
      expect(r.ok && r.bytes.toString()).toBe(old)
    }
    // Creating a new file on the full disk: refused the same way, nothing appears.
    await writeFile(join(mnt, 'filler2'), Buffer.alloc(200_000)).catch(() => undefined)
    const created = await curation.writeFile(
      join(mnt, 'new-topic.md'),
      null,
      'x'.repeat(50_000),
      'create',
    )
    expect(created).toMatchObject({ kind: 'error', path: join(mnt, 'new-topic.md') })
    expect(created.kind === 'error' && created.reason).toMatch(
      new RegExp(`^cannot write ${join(mnt, 'new-topic.md')}: disk full \\(ENOSPC\\)`),
    )
    expect((await readdir(mnt)).sort()).toEqual(['MEMORY.md', 'filler', 'filler2'])
  })

  it('a trash on a full disk fails: the file stays, the backup is kept, the message says so', async (ctx) => {
    const disk = tinyDisk('trash-full', '64k')
    if (disk.path === null) ctx.skip(disk.why)
    const trashDir = join(disk.path ?? '', 'Trash')
    const dir = join(root, 'trash-full-files')
    const backups = join(root, 'trash-full-backups')
    await mkdir(dir)
    const file = join(dir, 'old-topic.md')
    const bytes = Buffer.from(`---\nname: old\n---\n${'a line of an old note\n'.repeat(5000)}`) // ~105 KB
    await writeFile(file, bytes)
    // The trash is on another device: the file is copied there, which does not fit.
    const res = await safeDelete({
      path: file,
      expectedHash: hashContent(bytes),
      backupsDir: backups,
      trash: (p) => freedesktopTrash(p, { trashDir }),
    })
    expect(res.kind).toBe('error')
    const reason = res.kind === 'error' ? res.reason : ''
    expect(reason).toMatch(
      new RegExp(
        `^could not move to the trash ${file}: cannot move ${file} to the trash ${trashDir}: disk full \\(ENOSPC\\); the file was left in place \\(backup [0-9A-Za-z-]+\\)$`,
      ),
    )
    expect(res.kind === 'error' && res.fileKept).toBe(true)
    expect((await readFile(file)).equals(bytes)).toBe(true)
    const { backups: list } = await listBackups(backups)
    expect(list.map((b) => b.hash)).toEqual([hashContent(bytes)])
    // No half-copied stray left in the trash, and no orphan info file.
    expect(await readdir(join(trashDir, 'files'))).toEqual([])
    expect(await readdir(join(trashDir, 'info'))).toEqual([])
  })
})

describe('a trash that fails', () => {
  it('a trash function that throws: the file stays, the backup is kept, the message names both', async () => {
    const state = join(root, 'failing-trash-state')
    const mem = join(root, 'failing-trash-memory')
    await mkdir(mem)
    const file = join(mem, 'topic.md')
    await writeFile(file, 'keep me\n')
    const curation = createCuration({
      stateDir: state,
      trash: async () => {
        throw new Error('the desktop trash is not available (no gio)')
      },
      stamps: createJsonFileStore(join(state, 'stamps.json')),
    })
    for (let i = 0; i < 20; i++) {
      const res = await curation.deleteFile(file, hashContent('keep me\n'), 'delete')
      expect(res.kind).toBe('error')
      expect(res.kind === 'error' && res.reason).toMatch(
        new RegExp(
          `^could not move to the trash ${file}: the desktop trash is not available \\(no gio\\); the file was left in place \\(backup [0-9A-Za-z-]+\\)$`,
        ),
      )
    }
    expect(await readFile(file, 'utf8')).toBe('keep me\n')
    const { backups } = await listBackups(join(state, 'backups'))
    expect(backups).toHaveLength(20)
    expect(new Set(backups.map((b) => b.hash))).toEqual(new Set([hashContent('keep me\n')]))
    // Failed deletes are not operations: nothing to undo.
    expect(await curation.listOperations()).toEqual([])
  })
})
