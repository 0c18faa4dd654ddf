/** The freedesktop trash: free names, symlinks, errors, info text, across devices. */
import { execFileSync } from 'node:child_process'
import { lstat, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultTrashDir, freedesktopTrash, trashInfoText } from '../../../../src/node/edits/trash'

import { tempDirs } from './temp-dirs'

const dirs = tempDirs('mc-backups-')
const fresh = dirs.fresh

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
    const mnt = join(dir, `..`, `xdev`)
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
