/**
 * Disk full, permissions and a failing trash (issue 8, docs/reliability.md): clear errors
 * naming the file, the original untouched, no temp file left. Permissions are checked by
 * a child process running as `nobody`, since root ignores them.
 */
import { execFileSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBackups, readBackup } from '../../../src/node/edits/backups'
import { createCuration } from '../../../src/node/edits/edit-actions'
import { createJsonFileStore } from '../../../src/node/fs/json-store'
import { safeDelete } from '../../../src/node/edits/safe-delete'
import { hashContent, safeWrite } from '../../../src/node/edits/safe-write'
import { freedesktopTrash } from '../../../src/node/edits/trash'
import { buildCrashChild, runOps } from '../../helpers/build-crash-child'

const TEMP = /\.mc-[0-9a-f]{8}\.tmp$/
let root = ''
let child = ''
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mc-rel-disk-'))
  await chmod(root, 0o755) // nobody must be able to reach the test folders
  child = await buildCrashChild()
}, 60_000)
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
  if (child !== '') await rm(join(child, '..'), { recursive: true, force: true })
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

const isRoot = process.getuid?.() === 0
let canSetpriv = false
try {
  execFileSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'true'], {
    stdio: 'pipe',
  })
  canSetpriv = isRoot
} catch {
  canSetpriv = false
}
const NO_SETPRIV = 'needs root and setpriv to run a child as nobody'

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

describe('permissions (a child process running as nobody)', () => {
  let dir = ''
  let backups = ''
  const old = '# Memory\n- [Root owned](root.md) — not yours\n'
  beforeAll(async () => {
    dir = join(root, 'perm')
    backups = join(root, 'perm-backups')
    await mkdir(dir)
    await mkdir(backups)
    await chmod(backups, 0o777)
  })

  it('a file owned by another user in a folder we cannot write: permission denied, untouched', async (ctx) => {
    if (!canSetpriv) ctx.skip(NO_SETPRIV)
    const locked = join(dir, 'locked')
    await mkdir(locked)
    await chmod(locked, 0o755)
    const file = join(locked, 'MEMORY.md')
    await writeFile(file, old)
    await chmod(file, 0o644)
    const [w, d, c] = (await runOps(
      child,
      [
        {
          op: 'write',
          path: file,
          expectedHash: hashContent(old),
          newText: 'mine\n',
          backupsDir: backups,
        },
        {
          op: 'delete',
          path: file,
          expectedHash: hashContent(old),
          backupsDir: backups,
          trashDir: join(backups, 'Trash'),
        },
        {
          op: 'write',
          path: join(locked, 'new.md'),
          expectedHash: null,
          newText: 'x',
          backupsDir: backups,
        },
      ],
      { asNobody: true },
    )) as { kind: string; reason: string; fileKept?: boolean }[]
    expect(w).toEqual({
      kind: 'error',
      reason: `cannot write ${file}: permission denied (EACCES); the file was not changed`,
    })
    expect(d.kind).toBe('error')
    expect(d.reason).toMatch(
      new RegExp(
        `^could not move to the trash ${file}: .*permission denied \\(EACCES\\); the file was left in place`,
      ),
    )
    expect(d.fileKept).toBe(true)
    expect(c).toEqual({
      kind: 'error',
      reason: `cannot write ${join(locked, 'new.md')}: permission denied (EACCES); the file was not changed`,
    })
    expect(await readFile(file, 'utf8')).toBe(old)
    expect(await readdir(locked)).toEqual(['MEMORY.md'])
  })

  it('a read-only file of another user in a folder we CAN write: still refused, not replaced', async (ctx) => {
    if (!canSetpriv) ctx.skip(NO_SETPRIV)
    const open = join(dir, 'open')
    await mkdir(open)
    await chmod(open, 0o777) // a rename would be allowed here; the file's own mode says no
    const file = join(open, 'MEMORY.md')
    await writeFile(file, old)
    await chmod(file, 0o644)
    const [w] = (await runOps(
      child,
      [
        {
          op: 'write',
          path: file,
          expectedHash: hashContent(old),
          newText: 'mine\n',
          backupsDir: backups,
        },
      ],
      { asNobody: true },
    )) as { kind: string; reason: string }[]
    expect(w).toEqual({
      kind: 'error',
      reason: `cannot write ${file}: permission denied (EACCES); the file was not changed`,
    })
    expect(await readFile(file, 'utf8')).toBe(old)
    expect(execFileSync('stat', ['-c', '%U', file]).toString().trim()).toBe('root')
    expect(await readdir(open)).toEqual(['MEMORY.md'])
  })

  it('a file we cannot read: a clear error, never an empty edit', async (ctx) => {
    if (!canSetpriv) ctx.skip(NO_SETPRIV)
    const file = join(dir, 'secret.md')
    await writeFile(file, old)
    await chmod(file, 0o600)
    const [r, w] = (await runOps(
      child,
      [
        { op: 'read', path: file },
        {
          op: 'write',
          path: file,
          expectedHash: hashContent(old),
          newText: 'x',
          backupsDir: backups,
        },
      ],
      { asNobody: true },
    )) as { ok?: boolean; kind?: string; reason: string }[]
    expect(r).toMatchObject({ ok: false, path: file })
    expect(r.reason).toMatch(/permission denied \(EACCES\)/)
    expect(w).toEqual({
      kind: 'error',
      reason: `cannot write ${file}: cannot open: permission denied (EACCES)`,
    })
    expect(await readFile(file, 'utf8')).toBe(old)
  })

  it('a backup folder we cannot write: no backup, so no write', async (ctx) => {
    if (!canSetpriv) ctx.skip(NO_SETPRIV)
    const mine = join(dir, 'mine')
    await mkdir(mine)
    await chmod(mine, 0o777)
    const file = join(mine, 'MEMORY.md')
    await writeFile(file, old)
    execFileSync('chown', ['nobody:nogroup', file])
    const rootBackups = join(root, 'perm-root-backups')
    await mkdir(rootBackups)
    await chmod(rootBackups, 0o755)
    const [w, ok] = (await runOps(
      child,
      [
        {
          op: 'write',
          path: file,
          expectedHash: hashContent(old),
          newText: 'mine\n',
          backupsDir: rootBackups,
        },
        {
          op: 'write',
          path: file,
          expectedHash: hashContent(old),
          newText: 'mine\n',
          backupsDir: backups,
        },
      ],
      { asNobody: true },
    )) as { kind: string; reason: string }[]
    expect(w).toEqual({
      kind: 'error',
      reason: `cannot back up ${file}, so it was not changed: cannot write backup in ${rootBackups}: permission denied (EACCES)`,
    })
    // The same user's own file with a backup folder it can use: written, as it should be.
    expect(ok.kind).toBe('written')
    expect(await readFile(file, 'utf8')).toBe('mine\n')
    expect(await readdir(mine)).toEqual(['MEMORY.md'])
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

describe('mode bits as root (issue 11: root passes every permission check)', () => {
  it('a chmod 444 file is neither replaced nor deleted; the error names it and says read-only', async (ctx) => {
    if (!isRoot) ctx.skip('needs root: a non-root user is already refused by the kernel')
    const dir = join(root, 'mode-bits')
    const backups = join(root, 'mode-bits-backups')
    const trashDir = join(root, 'mode-bits-trash')
    await mkdir(dir)
    const old = '# Memory\n- [Pinned](pinned.md) — chmod 444 on purpose\n'
    const cases: { name: string; mode: number; refused: boolean }[] = [
      { name: 'r444.md', mode: 0o444, refused: true },
      { name: 'r400.md', mode: 0o400, refused: true },
      // Owner read-only though group and others may write: the owner's bit decides.
      { name: 'r466.md', mode: 0o466, refused: true },
      { name: 'w644.md', mode: 0o644, refused: false },
    ]
    const curation = createCuration({
      stateDir: join(root, 'mode-bits-state'),
      trash: (p) => freedesktopTrash(p, { trashDir }),
      stamps: createJsonFileStore(join(root, 'mode-bits-state', 'stamps.json')),
    })
    let refusals = 0
    for (const c of cases) {
      const file = join(dir, c.name)
      await writeFile(file, old)
      await chmod(file, c.mode)
      const bits = c.mode.toString(8)
      const w = await safeWrite({
        path: file,
        expectedHash: hashContent(old),
        newText: 'replaced\n',
        backupsDir: backups,
        reason: 'mode test',
      })
      const cw = await curation.writeFile(
        file,
        hashContent(old),
        'replaced via curation\n',
        'mode test',
      )
      if (!c.refused) {
        expect(w.kind).toBe('written')
        expect(cw.kind).toBe('conflict') // the first write changed it: the second is stale
        continue
      }
      const wReason = `cannot write ${file}: the file is read-only (mode ${bits}, its owner may not write it); the file was not changed`
      expect(w).toEqual({ kind: 'error', reason: wReason })
      expect(cw).toMatchObject({ kind: 'error', reason: wReason })
      const d = await safeDelete({
        path: file,
        expectedHash: hashContent(old),
        backupsDir: backups,
        trash: null,
      })
      expect(d).toEqual({
        kind: 'error',
        reason: `cannot delete ${file}: the file is read-only (mode ${bits}, its owner may not write it); the file was not changed`,
        fileKept: true,
      })
      const cd = await curation.deleteFile(file, hashContent(old), 'mode test')
      expect(cd.kind).toBe('error')
      expect(await readFile(file, 'utf8')).toBe(old)
      expect((await stat(file)).mode & 0o7777).toBe(c.mode)
      refusals += 4
    }
    expect(refusals).toBe(12)
    // Refused before any backup or temp file: nothing to list, nothing left beside the files.
    const { backups: list } = await listBackups(backups)
    expect(list.map((b) => b.path)).toEqual([join(dir, 'w644.md')])
    expect((await readdir(dir)).filter((f) => TEMP.test(f))).toEqual([])
    console.log(
      `[reliability] mode bits as root: ${refusals} of ${refusals} writes/deletes of owner-read-only files refused`,
    )
  })
})
