/**
 * The freedesktop.org trash (Trash specification 1.0) for the CLI and `serve`, where
 * Electron's shell.trashItem is not available: `files/<name>` plus `info/<name>.trashinfo`.
 * Simplification: everything goes to the home trash; a file on another device is copied
 * (and fsynced) there and then unlinked, instead of using a per-mount `.Trash-$uid`.
 */
import { constants as fsConstants } from 'node:fs'
import {
  copyFile,
  lstat,
  mkdir,
  open,
  readlink,
  rename,
  rm,
  symlink,
  unlink,
} from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, extname, join, resolve } from 'node:path'
import { describeFsError } from '../fs/fs-errors'
import { syncDir } from './backups'
import { pathExists } from '../fs/safe-read'

export interface TrashedItem {
  /** Where the file now is, inside `<trash>/files/`. */
  readonly trashedPath: string
  readonly infoPath: string
}

export interface FreedesktopTrashOptions {
  /** The trash folder (holding files/ and info/); default `$XDG_DATA_HOME/Trash`. */
  readonly trashDir?: string
  readonly env?: NodeJS.ProcessEnv
  /** Deletion time written to the info file. */
  readonly now?: Date
}

/** `$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash` (the spec's home trash). */
export function defaultTrashDir(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/')
      ? env.XDG_DATA_HOME
      : join(env.HOME && env.HOME !== '' ? env.HOME : homedir(), '.local', 'share')
  return join(dataHome, 'Trash')
}

/** The `.trashinfo` text: original path URL-escaped (slashes kept), local time without zone. */
export function trashInfoText(originalPath: string, date: Date): string {
  const path = originalPath.split('/').map(encodeURIComponent).join('/')
  const p = (n: number): string => String(n).padStart(2, '0')
  const when =
    `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}` +
    `T${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`
  return `[Trash Info]\nPath=${path}\nDeletionDate=${when}\n`
}

/** Move across devices: copy (fsynced), then unlink the original; undo the copy on failure. */
async function moveAcrossDevices(from: string, to: string): Promise<void> {
  const st = await lstat(from)
  if (st.isSymbolicLink()) {
    await symlink(await readlink(from), to)
  } else if (st.isFile()) {
    try {
      await copyFile(from, to, fsConstants.COPYFILE_EXCL)
    } catch (err) {
      // A copy cut short (disk full) must not stay in the trash as a damaged stray entry.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') await rm(to, { force: true })
      throw err
    }
    try {
      const handle = await open(to, 'r+')
      try {
        await handle.chmod(st.mode & 0o7777)
        await handle.sync()
      } finally {
        await handle.close()
      }
    } catch (err) {
      await rm(to, { force: true })
      throw err
    }
  } else {
    throw new Error('only files and symlinks can be moved to a trash on another device')
  }
  try {
    await unlink(from)
  } catch (err) {
    await rm(to, { force: true })
    throw err
  }
}

/**
 * Move `path` to the freedesktop trash. The info file is created first with O_EXCL to
 * claim a free name, as the spec asks. Rejects with an Error naming the path; on
 * failure the file is where it was.
 */
export async function freedesktopTrash(
  path: string,
  options: FreedesktopTrashOptions = {},
): Promise<TrashedItem> {
  const abs = resolve(path)
  const trashDir = resolve(options.trashDir ?? defaultTrashDir(options.env))
  const filesDir = join(trashDir, 'files')
  const infoDir = join(trashDir, 'info')
  const fail = (why: string): Error =>
    new Error(`cannot move ${abs} to the trash ${trashDir}: ${why}`)
  try {
    await lstat(abs)
  } catch (err) {
    throw fail(describeFsError(err))
  }
  try {
    await mkdir(filesDir, { recursive: true, mode: 0o700 })
    await mkdir(infoDir, { recursive: true, mode: 0o700 })
  } catch (err) {
    throw fail(describeFsError(err))
  }
  const base = basename(abs)
  const ext = extname(base)
  const stem = base.slice(0, base.length - ext.length)
  const info = trashInfoText(abs, options.now ?? new Date())
  for (let n = 1; n <= 1000; n++) {
    const name = n === 1 ? base : `${stem}.${n}${ext}`
    const infoPath = join(infoDir, `${name}.trashinfo`)
    const trashedPath = join(filesDir, name)
    let handle
    try {
      handle = await open(infoPath, 'wx', 0o600)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw fail(describeFsError(err))
    }
    try {
      await handle.writeFile(info)
      await handle.sync()
    } catch (err) {
      await handle.close().catch(() => undefined)
      await rm(infoPath, { force: true })
      throw fail(describeFsError(err))
    }
    await handle.close()
    if (await pathExists(trashedPath)) {
      // A stray entry without its info file: leave it, try the next name.
      await rm(infoPath, { force: true })
      continue
    }
    try {
      try {
        await rename(abs, trashedPath)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err
        await moveAcrossDevices(abs, trashedPath)
      }
    } catch (err) {
      await rm(infoPath, { force: true })
      throw fail(
        err instanceof Error && !(err as NodeJS.ErrnoException).code
          ? err.message
          : describeFsError(err),
      )
    }
    await syncDir(filesDir)
    await syncDir(infoDir)
    return { trashedPath, infoPath }
  }
  throw fail('no free name in the trash')
}
