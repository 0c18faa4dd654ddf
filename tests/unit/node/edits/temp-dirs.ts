/**
 * Fresh temp folders for the tests of the write primitives: `tempDirs(prefix)` registers the
 * temp root's set-up and clean-up in the calling test file and returns a factory of folders
 * (files, backups and a trash beside them) plus the root, for tests that mount beneath it.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

export interface TempDirs {
  /** A new folder of files for one test, with a backups folder and a trash beside it. */
  fresh(): Promise<{ dir: string; backups: string; trash: string }>
  /** The temp root (set once the file's tests start). */
  root(): string
}

export function tempDirs(prefix: string): TempDirs {
  let root = ''
  let n = 0
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), prefix))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })
  return {
    async fresh() {
      const base = join(root, `t${n++}`)
      await mkdir(join(base, 'files'), { recursive: true })
      return {
        dir: join(base, 'files'),
        backups: join(base, 'backups'),
        trash: join(base, 'Trash'),
      }
    },
    root: () => root,
  }
}

/** Temp files of ours (`.<name>.mc-<random>.tmp`) left in `dir`. */
export const tempLeft = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => f.includes('.mc-'))
