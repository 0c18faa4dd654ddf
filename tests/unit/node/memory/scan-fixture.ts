/** File builders for the scan tests: transcript lines, dates, and files with a chosen mtime. */
import { mkdir, mkdtemp, realpath, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { clearRepoCache } from '../../../../src/node/git/repo'

/** One JSON line. */
export const line = (o: unknown): string => `${JSON.stringify(o)}\n`
/** A user transcript line launched from `cwd`. */
export const msg = (cwd: string, sessionId: string, gitBranch = ''): string =>
  line({
    type: 'user',
    cwd,
    sessionId,
    gitBranch,
    timestamp: '2025-01-01T00:00:00.000Z',
    uuid: 'u',
  })
/** Midnight UTC of `d` (YYYY-MM-DD). */
export const day = (d: string): Date => new Date(`${d}T00:00:00Z`)

/** Write a file (creating folders) and optionally set its mtime. */
export async function put(path: string, content: string | Buffer, mtime?: Date): Promise<string> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, content)
  if (mtime) await utimes(path, mtime, mtime)
  return path
}

/**
 * A fresh temp folder (its real path) for a scan test; git finds no repository above it, so
 * "not in git" is exact. The caller restores GIT_CEILING_DIRECTORIES.
 */
export async function scanRoot(prefix: string): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  process.env.GIT_CEILING_DIRECTORIES = dirname(root)
  clearRepoCache()
  return root
}
