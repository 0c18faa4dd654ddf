/**
 * Permissions and mode bits (issue 8 and issue 11, docs/reliability.md): clear errors naming
 * the file, the original untouched. Permissions are checked by a child process running as
 * `nobody`, since root ignores them; mode bits are checked as root.
 */
import { execFileSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBackups } from '../../../src/node/edits/backups'
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

describe('permissions (a child process running as nobody)', () => {
  let dir = ''
  let backups = ''
  const old = '# Memory\n- [Root owned](root.md) — not yours\n'
  /** Replace `file`, which holds `old`, with `mine`, backing up into `backupsDir`. */
  const writeMine = (file: string, backupsDir: string) => ({
    op: 'write',
    path: file,
    expectedHash: hashContent(old),
    newText: 'mine\n',
    backupsDir,
  })
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
        writeMine(file, backups),
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
    const [w] = (await runOps(child, [writeMine(file, backups)], { asNobody: true })) as {
      kind: string
      reason: string
    }[]
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
    const [w, ok] = (await runOps(child, [writeMine(file, rootBackups), writeMine(file, backups)], {
      asNobody: true,
    })) as { kind: string; reason: string }[]
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
