/**
 * The `git log --name-status -M` of a repository kept between runs (issue 16: the log is a
 * quarter of an audit on a medium repository, and a command-line audit starts cold every time).
 * One file per work tree in the folder a process names with {@link keepHistoryIn} (the command
 * line's and the window's state folder; tests name none and keep nothing): the raw log of HEAD.
 * When HEAD is what the file holds, git is not asked; when HEAD moved on from it (the kept HEAD
 * is an ancestor), only the new commits are logged and put before the kept ones; anything else
 * (a rebase, a reset, another branch) logs everything again.
 *
 * Decisions:
 * - The raw text is kept, not the index: parse.ts reads it as it reads git, so a damaged file
 *   gives at worst a wrong index until the next change of HEAD, never a crash; a file whose header
 *   does not name this work tree, or is not one of ours, is ignored.
 * - A shallow clone keeps nothing: deepening it rewrites the history a kept log describes.
 * - Written atomically (a temp file, then a rename); a failed write costs only the next run's time.
 * - At most KEPT_MAX logs: writing one removes the least recently written beyond that, so
 *   audits of many short-lived clones (CI, a scratch checkout) do not fill the state folder.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { GitResult } from './run'
import { runGit } from './run'

/** Largest kept log read back; a bigger one is logged again. */
const KEPT_MAX_BYTES = 256 * 1024 * 1024
const HEADER = 'memory-curator history log v1'
/** Logs kept at most (work trees). */
const KEPT_MAX = 24
const SHA_RE = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/

let keptDir: string | null = null

/** Keep each repository's history log in this folder between runs (null: keep none). */
export function keepHistoryIn(dir: string | null): void {
  keptDir = dir
}

/** The folder logs are kept in, or null (kept-searches.ts keeps its files beside them). */
export const keptFolder = (): string | null => keptDir

/** Where a work tree's log is kept. */
export const keptLogPath = (dir: string, root: string): string =>
  join(dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.log`)

/**
 * The `-M` log of HEAD, from the kept one where it can be (see above). `log` runs git with the
 * rename option and a range (`HEAD`, or `<kept>..HEAD`).
 */
export async function renameLog(
  root: string,
  head: string,
  shallow: boolean,
  log: (range: string) => Promise<GitResult>,
): Promise<GitResult> {
  const dir = keptDir
  if (dir === null || shallow || !SHA_RE.test(head)) return log('HEAD')
  const file = keptLogPath(dir, root)
  const kept = await readKept(file, root)
  if (kept?.head === head) return { code: 0, stdout: kept.text, stderr: '' }
  let r: GitResult | null = null
  if (kept && (await isAncestor(root, kept.head))) {
    const newer = await log(`${kept.head}..HEAD`)
    if (newer.code === 0) r = { ...newer, stdout: newer.stdout + kept.text }
  }
  r ??= await log('HEAD')
  if (r.code === 0) await writeKept(file, root, head, r.stdout)
  return r
}

async function readKept(
  file: string,
  root: string,
): Promise<{ head: string; text: string } | null> {
  // The log holds NUL bytes (`-z`), which readTextFile refuses as binary: read it as ours.
  let text: string
  try {
    const st = await stat(file)
    if (!st.isFile() || st.size > KEPT_MAX_BYTES) return null
    text = await readFile(file, 'utf8')
  } catch {
    return null
  }
  const nl = text.indexOf('\n')
  if (nl < 0) return null
  let header: unknown
  try {
    header = JSON.parse(text.slice(0, nl))
  } catch {
    return null
  }
  const h = header as { kind?: unknown; root?: unknown; head?: unknown } | null
  if (!h || h.kind !== HEADER || h.root !== root || typeof h.head !== 'string') return null
  if (!SHA_RE.test(h.head)) return null
  return { head: h.head, text: text.slice(nl + 1) }
}

async function writeKept(file: string, root: string, head: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(tmp, `${JSON.stringify({ kind: HEADER, root, head })}\n${text}`)
    await rename(tmp, file)
  } catch {
    await unlink(tmp).catch(() => undefined)
    return
  }
  await prune(dirname(file))
}

/** Remove the least recently written logs beyond KEPT_MAX, and kept searches whose log went. */
async function prune(dir: string): Promise<void> {
  try {
    const all = await readdir(dir)
    const names = all.filter((n) => n.endsWith('.log'))
    for (const n of all)
      if (n.endsWith('.searches.json') && !names.includes(n.replace(/\.searches\.json$/, '.log')))
        await unlink(join(dir, n)).catch(() => undefined)
    if (names.length <= KEPT_MAX) return
    const dated = await Promise.all(
      names.map(async (n) => ({
        n,
        t: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0,
      })),
    )
    dated.sort((a, b) => b.t - a.t)
    for (const { n } of dated.slice(KEPT_MAX)) {
      await unlink(join(dir, n)).catch(() => undefined)
      await unlink(join(dir, n.replace(/\.log$/, '.searches.json'))).catch(() => undefined)
    }
  } catch {
    // A folder that cannot be listed keeps what it has.
  }
}

/**
 * Whether a commit is an ancestor of HEAD: nothing reachable from it that HEAD does not reach
 * (`rev-list`, one of the runner's subcommands). False when git cannot say, or does not know it.
 */
async function isAncestor(root: string, sha: string): Promise<boolean> {
  const r = await runGit(['rev-list', '-n1', sha, '^HEAD', '--'], { cwd: root, timeoutMs: 30_000 })
  return r.code === 0 && r.stdout.trim() === ''
}
