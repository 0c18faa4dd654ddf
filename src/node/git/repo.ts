/**
 * Which git repository a directory belongs to, and its main worktree — the folder
 * whose encoded path keys the shared memory folder (docs/memory-rules.md §1.5).
 *
 * A scan asks this for hundreds of launch directories, and one `git rev-parse` process each
 * cost about 5 ms of main-thread time (issue 7). So the common layouts are read from the disk
 * the way git discovers them, walking up to `.git`:
 * - a `.git` folder (with HEAD, objects and refs, no commondir): the main worktree is that folder;
 * - a `.git` file `gitdir: <path>` whose gitdir holds a `commondir` that resolves to a folder
 *   named `.git`: a linked worktree, whose main worktree is the folder holding that `.git`.
 * Anything else — bare repositories, a gitdir without commondir (submodules point into
 * `.git/modules`), `core.worktree` or `core.bare` in the config, a launch directory inside a
 * `.git` folder, a repository owned by another user (git's safe.directory check), a repository
 * found across a file-system boundary — is left to real git, whose answer is the reference.
 *
 * The walk's calls are synchronous, a slice at a time (fs/sync-slice.ts), like the scan's other
 * small reads (issue 16): through the thread pool, the ~12 round trips per launch directory
 * (stat, realpath, `.git`, HEAD, objects, refs, config…) cost 50–170 ms of the one thread for the
 * heavy home's 300 projects, on the way to the window's first list; synchronously ~10 ms. Files
 * are opened with O_NONBLOCK and read only when fstat says regular file, so nothing waits on a FIFO.
 */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs'
import { basename, dirname, isAbsolute, resolve, sep } from 'node:path'
import { parseGitFile } from '../../core/git/parse'
import { BoundedCache } from '../cache/bounded-cache'
import { yieldIfSliceUsed } from '../fs/sync-slice'
import { runGit } from './run'

export { parseGitFile }

export interface RepoInfo {
  /** Top level of the worktree that contains the directory. */
  readonly toplevel: string
  /** Root of the repository's main worktree (equal to `toplevel` outside linked worktrees). */
  readonly mainRoot: string
  /** True when `toplevel` is a linked worktree rather than the main one. */
  readonly isLinkedWorktree: boolean
}

/**
 * Lookups by directory, kept for the life of the process (or until `clearRepoCache`): a scan asks
 * for hundreds of launch directories again and again, and where a repository starts does not
 * change under a running session. Bounded, least recently used first.
 */
const cache = new BoundedCache<string, Promise<RepoInfo | null>>(4096)
/** What `<dir>/.git` is, per real directory, shared by every lookup below it. */
const probes = new BoundedCache<string, Probe>(4096)

/** Find the repository of `dir`; null when `dir` is missing or not inside a git work tree. */
export function findRepo(dir: string): Promise<RepoInfo | null> {
  const key = resolve(dir)
  let hit = cache.get(key)
  if (!hit) {
    hit = lookup(key)
    cache.set(key, hit)
  }
  return hit
}

/** Forget cached lookups (tests create and remove repositories). */
export function clearRepoCache(): void {
  cache.clear()
  probes.clear()
  gitSaidNo.clear()
}

/** The answer of real git for `dir` (the reference the disk walk must agree with). */
export async function findRepoWithGit(dir: string): Promise<RepoInfo | null> {
  const r = await runGit(
    ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'],
    { cwd: dir, timeoutMs: 15_000 },
  )
  if (r.code !== 0) return null
  const [toplevel, commonDir] = r.stdout.split('\n')
  if (!toplevel || !commonDir) return null
  // The common dir of a non-bare repository is `<main worktree>/.git`.
  const mainRoot = commonDir.endsWith('/.git') ? dirname(commonDir) : toplevel
  return { toplevel, mainRoot, isLinkedWorktree: mainRoot !== toplevel }
}

/**
 * Why git refuses `dir` although a repository is there — owned by another user (git's
 * safe.directory check, honoured only from the user's own config, which the runner ignores),
 * or refused by the runner (a config include, a hook, a `.git` file leading elsewhere) — so the
 * window can say so instead of treating the project as outside git. Null otherwise.
 */
export async function repoRefusal(dir: string): Promise<string | null> {
  const r = await runGit(['rev-parse', '--show-toplevel'], { cwd: dir, timeoutMs: 15_000 })
  if (r.code === 0) return null
  const line =
    r.stderr
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  if (r.code === -1 && !/^cannot run git|timed out/.test(line)) return line || null
  return /dubious ownership/.test(line)
    ? `${line.replace(/^fatal: /, '')} (git will not run there)`
    : null
}

async function lookup(dir: string): Promise<RepoInfo | null> {
  await yieldIfSliceUsed()
  let start: Stats
  let real: string
  try {
    start = statSync(dir)
    if (!start.isDirectory()) return null
    // git reports real paths: it works from getcwd(), where symlinks are resolved.
    real = realpathSync.native(dir)
  } catch {
    return null
  }
  const found = walkUp(real, start.dev)
  if (found !== 'ask-git') return found
  const info = await findRepoWithGit(dir)
  if (info === null) gitSaidNo.set(resolve(dir), true)
  return info
}

/** Folders where the disk showed a repository of an unusual kind and git then answered no. */
const gitSaidNo = new BoundedCache<string, true>(1024)

/**
 * Why `dir` has no repository although one is there (git refused it), or null. Runs git only
 * where `findRepo` already had to ask it and it said no: a folder outside any repository costs
 * nothing more.
 */
export async function refusedRepo(dir: string): Promise<string | null> {
  if ((await findRepo(dir)) !== null || !gitSaidNo.has(resolve(dir))) return null
  return repoRefusal(dir)
}

/** A repository read from the disk, null when there is none, or 'ask-git' for other layouts. */
type Found = RepoInfo | null | 'ask-git'

function walkUp(real: string, dev: number): Found {
  // Inside a git folder, git answers differently (no work tree): leave it to git.
  if (real.split(sep).includes('.git')) return 'ask-git'
  for (let d = real; ; d = dirname(d)) {
    const probe = probeDir(d)
    if (probe.kind === 'unusual') return 'ask-git'
    if (probe.kind === 'repo') {
      // git stops at a file-system boundary (GIT_DISCOVERY_ACROSS_FILESYSTEM is not passed).
      if (d !== real && devOf(d) !== dev) return 'ask-git'
      return probe.info
    }
    if (dirname(d) === d) return null
  }
}

type Probe =
  | { readonly kind: 'none' }
  | { readonly kind: 'unusual' }
  | { readonly kind: 'repo'; readonly info: RepoInfo }

const UNUSUAL: Probe = { kind: 'unusual' }
const NONE: Probe = { kind: 'none' }

function probeDir(d: string): Probe {
  let hit = probes.get(d)
  if (!hit) {
    try {
      hit = probe(d)
    } catch {
      hit = UNUSUAL
    }
    probes.set(d, hit)
  }
  return hit
}

/** What `<d>/.git` says about `d`. */
function probe(d: string): Probe {
  const dotGit = joinPath(d, '.git')
  let st: Stats | undefined
  try {
    // Missing is the common answer: no exception built for it.
    st = lstatSync(dotGit, { throwIfNoEntry: false })
  } catch (err) {
    if (codeOf(err) !== 'ENOTDIR') return UNUSUAL
  }
  // No `.git`: git would still check whether `d` itself is a bare repository.
  if (st === undefined) return exists(joinPath(d, 'HEAD')) ? UNUSUAL : NONE
  if (!ownedByUs(st)) return UNUSUAL
  if (st.isDirectory()) return mainWorktree(d, dotGit)
  if (st.isFile()) return linkedWorktree(d, dotGit)
  return UNUSUAL
}

/** `<d>/.git` is a folder: a plain repository whose main worktree is `d`. */
function mainWorktree(d: string, gitDir: string): Probe {
  const head = kindOf(joinPath(gitDir, 'HEAD'))
  const objects = kindOf(joinPath(gitDir, 'objects'))
  const refs = kindOf(joinPath(gitDir, 'refs'))
  const commondir = kindOf(joinPath(gitDir, 'commondir'))
  if (head !== 'file' || objects !== 'dir' || refs !== 'dir' || commondir !== 'missing') {
    return UNUSUAL
  }
  const config = readText(joinPath(gitDir, 'config'), '')
  if (config === UNREADABLE || configMovesWorktree(config)) return UNUSUAL
  return { kind: 'repo', info: { toplevel: d, mainRoot: d, isLinkedWorktree: false } }
}

/** `<d>/.git` is a file: a linked worktree when its gitdir has a commondir ending in `.git`. */
function linkedWorktree(d: string, gitFile: string): Probe {
  const text = readText(gitFile, null)
  if (text === null || text === UNREADABLE) return UNUSUAL
  const target = parseGitFile(text)
  if (target === null) return UNUSUAL
  const gitDir = isAbsolute(target) ? target : resolve(d, target)
  const head = kindOf(joinPath(gitDir, 'HEAD'))
  const commondirText = readText(joinPath(gitDir, 'commondir'), null)
  const config = readText(joinPath(gitDir, 'config.worktree'), '')
  // No commondir: a submodule (gitdir in `.git/modules`) or a hand-made layout.
  if (head !== 'file' || commondirText === null || commondirText === UNREADABLE) return UNUSUAL
  if (config === UNREADABLE || configMovesWorktree(config)) return UNUSUAL
  const common = commondirText.replace(/\r?\n$/, '')
  if (common === '' || common.includes('\n')) return UNUSUAL
  const commonDir = realpathSync.native(isAbsolute(common) ? common : resolve(gitDir, common))
  if (basename(commonDir) !== '.git') return UNUSUAL
  const commonConfig = readText(joinPath(commonDir, 'config'), '')
  const objects = kindOf(joinPath(commonDir, 'objects'))
  const refs = kindOf(joinPath(commonDir, 'refs'))
  if (objects !== 'dir' || refs !== 'dir') return UNUSUAL
  if (commonConfig === UNREADABLE || configMovesWorktree(commonConfig)) return UNUSUAL
  const mainRoot = dirname(commonDir)
  return { kind: 'repo', info: { toplevel: d, mainRoot, isLinkedWorktree: mainRoot !== d } }
}

/**
 * True when a git config sets `core.worktree` or `core.bare = true` (or anything in it is
 * beyond a simple reading: includes), so the work tree is not simply the folder of `.git`.
 * Pure; exported for tests.
 */
export function configMovesWorktree(config: string): boolean {
  return (
    /^\s*worktree\s*=/im.test(config) ||
    /^\s*bare\s*=\s*(?:true|yes|on|1)\s*(?:[#;].*)?$/im.test(config) ||
    /^\s*\[\s*include(?:if)?\b/im.test(config)
  )
}

type EntryKind = 'file' | 'dir' | 'missing' | 'other'

function kindOf(path: string): EntryKind {
  try {
    const st = statSync(path, { throwIfNoEntry: false })
    if (st === undefined) return 'missing'
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other'
  } catch {
    return 'other'
  }
}

/** A file that is neither a regular file nor one that fails to open or read (a FIFO, a device). */
const UNREADABLE = Symbol('unreadable')

/**
 * The text of a small git file, or `otherwise` when it cannot be read (missing, a folder), as
 * `readFile(…).catch(() => otherwise)` would answer; UNREADABLE for a FIFO or a device, which a
 * blocking read would wait on or never finish (git judges those: the probe is unusual).
 */
function readText<T>(path: string, otherwise: T): string | T | typeof UNREADABLE {
  let fd: number
  try {
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch {
    return otherwise
  }
  try {
    const st = fstatSync(fd)
    if (st.isDirectory()) return otherwise
    if (!st.isFile()) return UNREADABLE
    return readFileSync(fd, 'utf8')
  } catch {
    return otherwise
  } finally {
    closeSync(fd)
  }
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined
  } catch {
    return false
  }
}

function devOf(d: string): number {
  return statSync(d).dev
}

/** git refuses repositories owned by someone else (safe.directory); let git judge those. */
function ownedByUs(st: Stats): boolean {
  const uid = process.getuid?.()
  return uid === undefined || st.uid === uid
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
}
