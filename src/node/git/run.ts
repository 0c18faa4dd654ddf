/**
 * The one place the app runs `git` (eslint.config.js forbids `node:child_process` elsewhere
 * in src/). Every repository the app scans is hostile input (issue 11): its `.git/config` and
 * `.gitattributes` can name programs git would run — an fsmonitor hook, hooks, pagers,
 * editors, diff drivers, textconv, clean/smudge filters, gpg, ssh, credential helpers,
 * transports for a lazy fetch. So each run here is safe by construction:
 * - argument arrays (never a shell), bounded output, a timeout, no prompts;
 * - an environment built from an allow-list (no inherited GIT_*, EDITOR, PAGER, SSH_ASKPASS);
 * - system and global config ignored; every program-running key overridden with command-line
 *   scope, which beats repository config ({@link SAFE_CONFIG});
 * - before each run, the repository's own config is listed (reading it runs nothing; kept
 *   while its files read the same, {@link configNames}): a config that includes other files
 *   or defines hooks is refused, and every filter, diff and merge driver it names is disabled
 *   by name ({@link driverOverrides});
 * - only the subcommands below, with `--no-ext-diff` / `--no-textconv` added where git has them;
 * - a `.git` file leading anywhere but a linked worktree's or a submodule's git folder is
 *   refused before git starts, so a repository cannot send git to read another one.
 * Parsing of the output lives in pure functions (src/core/git/parse.ts).
 */
import { spawn } from 'node:child_process'
import { configStamp, foreignOf, nearestDotGit, type DotGit } from './dot-git'
import { cutOff } from './cut-offs'

export interface GitResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export interface GitOptions {
  readonly cwd: string
  readonly timeoutMs?: number
  readonly maxBytes?: number
  readonly input?: string | Buffer
}

const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null'

/**
 * Config the app forces on every run (command-line scope, which outranks the repository's).
 * One line per knob of git-config(1) that runs a program or reaches the network.
 */
export const SAFE_CONFIG: readonly (readonly [string, string])[] = [
  ['core.quotepath', 'off'],
  ['core.fsmonitor', 'false'], // runs a hook whenever the index is read
  ['core.hooksPath', NULL_DEVICE], // no hook can exist under a non-folder
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.askPass', ''],
  ['credential.helper', ''], // an empty value clears the list of helpers
  ['core.sshCommand', 'false'],
  ['ssh.variant', 'simple'],
  ['core.gitProxy', ''],
  ['core.alternateRefsCommand', ''],
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['log.showSignature', 'false'], // would run gpg on every signed commit `git log` prints
  // No transport at all: a lazy fetch (partial clone) would otherwise run `ext::` commands,
  // ssh or `remote.*.uploadpack`. A per-protocol setting beats `protocol.allow`, so each is set.
  ['protocol.allow', 'never'],
  ...['ext', 'file', 'git', 'ssh', 'http', 'https', 'ftp', 'ftps'].map(
    (p) => [`protocol.${p}.allow`, 'never'] as const,
  ),
  ['fetch.recurseSubmodules', 'false'],
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['core.untrackedCache', 'false'],
  // An embedded bare repository (in a cloned tree) brings its own config and hooks.
  ['safe.bareRepository', 'explicit'],
  // Files named by repository config that would be read from anywhere on the disk.
  ['blame.ignoreRevsFile', ''],
  ['mailmap.file', ''],
  ['mailmap.blob', ''],
  // Output the parsers can read: no colour, UTF-8.
  ['color.ui', 'false'],
  ['i18n.logOutputEncoding', 'UTF-8'],
]

/** Subcommands the app may run, with the flags that keep diff machinery from running drivers. */
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  'rev-parse': [],
  'ls-files': [],
  // A commit's file list (a glob a note names, matched as the tree was when it was written).
  'ls-tree': [],
  // Which objects a partial clone lacks (`--missing=print`; node/git/missing-blobs.ts).
  'rev-list': [],
  'check-ignore': [],
  worktree: [],
  'hash-object': [],
  // `-O` an empty order file: a repository's `diff.orderFile` would be read from anywhere.
  'diff-files': ['--no-ext-diff', '--no-textconv', `-O${NULL_DEVICE}`],
  'diff-index': ['--no-ext-diff', '--no-textconv', `-O${NULL_DEVICE}`],
  log: ['--no-ext-diff', '--no-textconv', `-O${NULL_DEVICE}`],
  show: ['--no-ext-diff', '--no-textconv', `-O${NULL_DEVICE}`],
  blame: ['--no-textconv'],
  grep: ['--no-textconv'],
  // The demo builds its own repository (src/node/app/demo-repository.ts).
  init: [],
  'symbolic-ref': [],
  'fast-import': [],
  reset: [],
}

/**
 * Variables kept from the parent environment: what finds git and the user's own ignore files.
 * Everything else (GIT_DIR, GIT_SSH_COMMAND, GIT_CONFIG_*, EDITOR, PAGER, SSH_ASKPASS, …) is dropped.
 */
const KEPT_ENV = [
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'TMPDIR',
  'SystemRoot',
  'SYSTEMROOT',
  'PATHEXT',
]

/**
 * The environment git runs with, carrying `config` as GIT_CONFIG_COUNT/KEY/VALUE (keys and
 * values travel separately, so a driver name holding `=` or spaces cannot be mis-split).
 */
export function cleanGitEnv(
  config: readonly (readonly [string, string])[] = SAFE_CONFIG,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const k of KEPT_ENV) if (base[k] !== undefined) env[k] = base[k]
  Object.assign(env, {
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: NULL_DEVICE,
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_LAZY_FETCH: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_CONFIG_COUNT: String(config.length),
  })
  config.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k
    env[`GIT_CONFIG_VALUE_${i}`] = v
  })
  return env
}

/**
 * What a repository's own config (names from `git config --name-only --list --no-includes`)
 * means for running git there: refused when it includes other files (their contents are not
 * ours to read, and their drivers would escape {@link driverOverrides}) or configures hooks
 * by name (`hook.<name>.command`, which `core.hooksPath` does not switch off); otherwise the
 * overrides that disable each filter, diff and merge driver it names. Pure; exported for tests.
 */
export function driverOverrides(
  names: readonly string[],
):
  | { readonly ok: true; readonly config: [string, string][] }
  | { readonly ok: false; readonly reason: string } {
  const config: [string, string][] = []
  const seen = new Set<string>()
  for (const name of names) {
    const dot = name.indexOf('.')
    const last = name.lastIndexOf('.')
    const section = name.slice(0, dot).toLowerCase()
    const sub = last > dot ? name.slice(dot + 1, last) : null
    if (section === 'include' || section === 'includeif') {
      return {
        ok: false,
        reason: `its git config includes another file (${name}); git is not run there`,
      }
    }
    if (section === 'hook' && sub !== null) {
      return { ok: false, reason: `its git config defines a hook (${name}); git is not run there` }
    }
    if (sub === null || seen.has(`${section}\0${sub}`)) continue
    seen.add(`${section}\0${sub}`)
    if (section === 'filter') {
      // Empty commands make git pass content through; `required` would turn that into an error.
      for (const k of ['clean', 'smudge', 'process']) config.push([`filter.${sub}.${k}`, ''])
      config.push([`filter.${sub}.required`, 'false'])
    } else if (section === 'diff') {
      for (const k of ['command', 'textconv']) config.push([`diff.${sub}.${k}`, ''])
    } else if (section === 'merge') {
      config.push([`merge.${sub}.driver`, ''])
    }
  }
  return { ok: true, config }
}

/** Run `git args...` in `cwd`; resolves with the exit code (never rejects on a git error). */
export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const sub = args[0] ?? ''
  const flags = SUBCOMMANDS[sub]
  // An alias (`alias.x = !cmd`) would run a shell command: only known builtins run.
  if (flags === undefined)
    return { code: -1, stdout: '', stderr: `git ${sub} is not run by this app` }
  const found = await nearestDotGit(options.cwd)
  const foreign = await foreignOf(found)
  if (foreign !== null) return { code: -1, stdout: '', stderr: foreign }
  const listed = await configNames(options.cwd, found)
  if ('code' in listed) return listed
  const drivers = driverOverrides(listed.names)
  if (!drivers.ok) return { code: -1, stdout: '', stderr: `${options.cwd}: ${drivers.reason}` }
  return spawnGit([sub, ...flags, ...args.slice(1)], options, [...SAFE_CONFIG, ...drivers.config])
}

/**
 * The names in the repository's own config, listed by git. The listing is kept per `.git`
 * folder while the files it came from read the same (issue 16: each git run cost two process
 * starts, and a start blocks the one thread for 5–15 ms under load): `config` and
 * `config.worktree` in a `.git` folder, by inode, size and nanosecond change and modification
 * times. A `.git` file (linked worktree, submodule), a `commondir`, a config that is not a plain
 * file or changed in the last 2 s, or no `.git` found: listed every time.
 * Any change to either file, as git would see it, lists again before the next run.
 */
async function configNames(
  cwd: string,
  found: DotGit | null,
): Promise<{ readonly names: string[] } | GitResult> {
  const kept = await configStamp(found)
  const hit = kept && listings.get(kept.gitDir)
  if (kept && hit && hit.stamp === kept.stamp) return { names: hit.names }
  // Runs that start together (the two `rev-parse` of openRepo) share one listing.
  const key = kept ? `${kept.gitDir}\0${kept.stamp}` : ''
  const run = listingsUnderWay.get(key) ?? listConfig(cwd, kept)
  if (key !== '' && !listingsUnderWay.has(key))
    listingsUnderWay.set(
      key,
      run.finally(() => listingsUnderWay.delete(key)),
    )
  return run
}
type Listed = { readonly names: string[] } | GitResult
const listingsUnderWay = new Map<string, Promise<Listed>>()

async function listConfig(
  cwd: string,
  kept: { gitDir: string; stamp: string } | null,
): Promise<Listed> {
  const listed = await spawnGit(
    ['config', '-z', '--name-only', '--no-includes', '--list'],
    { cwd, timeoutMs: 15_000, maxBytes: 16 * 1024 * 1024 },
    SAFE_CONFIG,
  )
  if (listed.code !== 0) return listed
  const names = listed.stdout.split('\0').filter((n) => n !== '')
  // Kept only when the files read the same after the listing as before it.
  const after = kept && (await configStamp(await nearestDotGit(cwd)))
  if (kept && after && after.gitDir === kept.gitDir && after.stamp === kept.stamp) {
    if (listings.size >= MAX_LISTINGS) listings.delete(listings.keys().next().value as string)
    listings.set(kept.gitDir, { stamp: kept.stamp, names })
  }
  return { names }
}

/** Config listings kept (a folder each); the oldest goes first. */
const MAX_LISTINGS = 256
const listings = new Map<string, { readonly stamp: string; readonly names: string[] }>()

let started = 0

/** Git processes started so far, config listings included (tests: a warm path starts none). */
export const gitProcessesStarted = (): number => started

function spawnGit(
  args: readonly string[],
  options: GitOptions,
  config: readonly (readonly [string, string])[],
): Promise<GitResult> {
  const { cwd, timeoutMs = 60_000, maxBytes = 512 * 1024 * 1024 } = options
  started++
  return new Promise((resolve) => {
    const child = spawn('git', ['--no-pager', ...args], {
      cwd,
      env: cleanGitEnv(config),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    let done = false
    const finish = (r: GitResult): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(r)
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      if (!done) cutOff(args, timeoutMs)
      finish({
        code: -1,
        stdout: '',
        stderr: `git ${args[0] ?? ''} timed out after ${timeoutMs} ms`,
      })
    }, timeoutMs)
    child.stdout?.on('data', (d: Buffer) => {
      size += d.length
      if (size > maxBytes) {
        child.kill('SIGKILL')
        finish({
          code: -1,
          stdout: '',
          stderr: `git ${args[0] ?? ''} output over ${maxBytes} bytes`,
        })
        return
      }
      out.push(d)
    })
    child.stderr?.on('data', (d: Buffer) => err.push(d))
    child.on('error', (e) =>
      finish({ code: -1, stdout: '', stderr: `cannot run git: ${e.message}` }),
    )
    child.on('close', (code) =>
      finish({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    )
    // git may exit before reading all input (a refused repository); that is its answer, not ours.
    child.stdin?.on('error', () => undefined)
    if (options.input !== undefined) child.stdin?.end(options.input)
  })
}
