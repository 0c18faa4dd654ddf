/**
 * The built-in demo: a Claude home, a Codex home, a managed folder and a real git
 * repository with a linked worktree, materialised from the templates in `resources/demo/`.
 *
 * Transcripts must hold real absolute `cwd` paths and project folders are named after
 * those paths (memory-facts §1), so the demo cannot ship ready-made: `{{ROOT}}` and
 * `{{PROJECT:<key>}}` placeholders are filled in for the folder it lands in.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import {
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  realpath,
  rename,
  rm,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeProjectDir } from '../../core/memory/project-path'
import { readTextFile, pathExists } from '../fs/safe-read'
import { runGit as runHardenedGit, type GitResult } from '../git/run'

export interface DemoOptions {
  /** Folder that holds the demo; nothing is written outside it. */
  readonly targetDir: string
  /** The `resources/demo` folder with the templates (see `demoResourcesDir`). */
  readonly resourcesDir: string
  /** Rebuild even when the existing demo matches the templates. */
  readonly force?: boolean
}

export interface DemoPaths {
  /** The materialised folder; `{{ROOT}}` in the templates. */
  readonly root: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  /** Main worktree of the demo repository (`acme-shop`). */
  readonly repoRoot: string
  /** The linked worktree on the feature branch. */
  readonly worktreeRoot: string
}

export interface DemoResult extends DemoPaths {
  /** True when an up-to-date demo was found and nothing was rebuilt. */
  readonly reused: boolean
  /** Things that make the demo less faithful, in plain words (e.g. it sits inside a git repo). */
  readonly warnings: readonly string[]
}

/** A template or git problem while building the demo; the message names the path. */
export class DemoError extends Error {
  override readonly name = 'DemoError'
}

/** Bump when the way templates turn into files changes, so old demos are rebuilt. */
const BUILDER_VERSION = 1
const MANIFEST = 'demo.json'
const MARKER = '.memory-curator-demo.json'
const ROOT_NAME = 'root'
const LOCK_NAME = '.lock'
const LOCK_STALE_MS = 5 * 60_000
const LOCK_WAIT_MS = 120_000
/** Guards against a wrong `resourcesDir` (e.g. a home folder): the demo has ~100 files. */
const MAX_TEMPLATE_FILES = 2_000
const MAX_TEMPLATE_DEPTH = 12
const GIT_TIMEOUT_MS = 60_000
const SAFE_SEGMENT = /^[A-Za-z0-9._@+-]+$/

interface Tree {
  readonly from: string
  readonly to: string
}
interface Manifest {
  readonly version: number
  readonly trees: readonly Tree[]
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  readonly repo: {
    readonly dir: string
    readonly history: string
    readonly commits: string
    readonly untracked: string
    readonly checkout: string
    readonly worktrees: readonly { readonly dir: string; readonly branch: string }[]
  }
  readonly projects: Readonly<Record<string, string>>
  readonly mtimes: Readonly<Record<string, string>>
}
interface HistoryCommit {
  readonly files: string
  readonly branch: string
  readonly from?: string
  readonly author: string
  readonly date: string
  readonly message: string
  readonly rename?: readonly (readonly [string, string])[]
  readonly delete?: readonly string[]
}
interface History {
  readonly authors: Readonly<Record<string, { readonly name: string; readonly email: string }>>
  readonly commits: readonly HistoryCommit[]
}
interface Marker {
  readonly builder: number
  readonly hash: string
  readonly root: string
}

/**
 * Materialise the demo under `targetDir/root` (idempotent). A marker holding a hash of
 * the templates, the builder version and the root path decides whether an existing demo
 * is reused; otherwise a fresh copy is built in a staging folder and swapped in.
 */
export async function materializeDemo(opts: DemoOptions): Promise<DemoResult> {
  const resourcesDir = resolve(opts.resourcesDir)
  const manifest = parseManifest(await readTemplate(join(resourcesDir, MANIFEST)), resourcesDir)
  const target = await prepareTarget(resolve(opts.targetDir))
  const root = join(target, ROOT_NAME)
  const paths = demoPaths(root, manifest)
  const files = await listTemplates(resourcesDir)
  const hash = await templateHash(resourcesDir, files, root)
  const warnings = await placementWarnings(target)

  const release = await acquireLock(join(target, LOCK_NAME))
  try {
    if (!opts.force && (await isCurrent(root, hash, paths))) {
      return { ...paths, reused: true, warnings }
    }
    await removeLeftovers(target)
    const staging = await mkdtemp(join(target, '.staging-'))
    try {
      await buildInto(staging, root, resourcesDir, files, manifest)
    } catch (err) {
      await rm(staging, { recursive: true, force: true })
      throw err
    }
    await swapIn(target, staging, root)
    // Linked worktrees record absolute paths, so they are added at the final location.
    for (const wt of manifest.repo.worktrees) {
      await git(['worktree', 'add', '--quiet', join(root, wt.dir), wt.branch], paths.repoRoot)
    }
    const marker: Marker = { builder: BUILDER_VERSION, hash, root }
    await writeFile(join(root, `${MARKER}.tmp`), `${JSON.stringify(marker, null, 2)}\n`)
    await rename(join(root, `${MARKER}.tmp`), join(root, MARKER))
    return { ...paths, reused: false, warnings }
  } finally {
    await release()
  }
}

/** The default demo folder: `$XDG_CACHE_HOME` (or `~/.cache`)/memory-curator/demo. */
export function defaultDemoDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache')
  return join(base, 'memory-curator', 'demo')
}

/**
 * Find `resources/demo`: `$MEMORY_CURATOR_RESOURCES` (the resources folder or the demo
 * folder itself), Electron's `process.resourcesPath`, then the folders above the running
 * code (src/node under vitest, out/cli or out/main when built). Null when none has it.
 */
export function demoResourcesDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates: string[] = []
  const fromEnv = env.MEMORY_CURATOR_RESOURCES
  if (fromEnv) candidates.push(join(fromEnv, 'demo'), fromEnv)
  const electronResources = (process as { resourcesPath?: string }).resourcesPath
  if (electronResources) {
    candidates.push(join(electronResources, 'demo'), join(electronResources, 'resources', 'demo'))
  }
  let dir = hereDir()
  for (let i = 0; i < 8 && dir; i++) {
    candidates.push(join(dir, 'resources', 'demo'))
    const up = dirname(dir)
    if (up === dir) break
    dir = up
  }
  for (const c of candidates) {
    if (existsSync(join(c, MANIFEST))) return resolve(c)
  }
  return null
}

function hereDir(): string {
  if (typeof __dirname !== 'undefined') return __dirname
  try {
    return dirname(fileURLToPath(import.meta.url))
  } catch {
    return process.cwd()
  }
}

function demoPaths(root: string, m: Manifest): DemoPaths {
  return {
    root,
    claudeHome: join(root, m.claudeHome),
    codexHome: join(root, m.codexHome),
    managedDir: join(root, m.managedDir),
    repoRoot: join(root, m.repo.dir),
    worktreeRoot: join(root, m.repo.worktrees[0]?.dir ?? m.repo.dir),
  }
}

// ---------------------------------------------------------------------------------------
// Templates

async function readTemplate(path: string): Promise<string> {
  const r = await readTextFile(path)
  if (!r.ok) throw new DemoError(`demo template ${path}: ${r.reason}`)
  return r.text
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new DemoError(`demo template ${path}: invalid JSON (${(err as Error).message})`)
  }
}

/** Read and check the manifest; every path in it must be a plain relative path. */
function parseManifest(text: string, resourcesDir: string): Manifest {
  const path = join(resourcesDir, MANIFEST)
  const m = parseJson(text, path) as Manifest
  const bad = (why: string): never => {
    throw new DemoError(`demo template ${path}: ${why}`)
  }
  if (!m || typeof m !== 'object' || m.version !== 1) bad('unknown version')
  if (!Array.isArray(m.trees) || !m.repo || !Array.isArray(m.repo.worktrees))
    bad('missing trees or repo')
  if (!m.projects || typeof m.projects !== 'object') bad('missing projects')
  if (!m.mtimes || typeof m.mtimes !== 'object') bad('missing mtimes')
  const rels = [
    m.claudeHome,
    m.codexHome,
    m.managedDir,
    m.repo.dir,
    m.repo.history,
    m.repo.commits,
    m.repo.untracked,
    ...m.trees.flatMap((t) => [t.from, t.to]),
    ...m.repo.worktrees.map((w) => w.dir),
    ...Object.keys(m.projects),
    ...Object.values(m.projects),
    ...Object.keys(m.mtimes),
  ]
  for (const r of rels) if (!isSafeRelative(r)) bad(`not a plain relative path: ${String(r)}`)
  if (m.repo.worktrees.length === 0) bad('the repository needs a linked worktree')
  return m
}

function isSafeRelative(p: unknown): p is string {
  if (typeof p !== 'string' || p === '') return false
  return p.split('/').every((s) => SAFE_SEGMENT.test(s) && s !== '.' && s !== '..')
}

/** Every regular file under the resources folder, as sorted `/`-separated relative paths. */
async function listTemplates(base: string): Promise<string[]> {
  const out: string[] = []
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_TEMPLATE_DEPTH) throw new DemoError(`demo templates nest too deep at ${dir}`)
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (err) {
      throw new DemoError(`demo templates: cannot list ${dir} (${(err as Error).message})`)
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name
      // Symlinks and special files are not templates; skipping them keeps reads inside.
      if (e.isDirectory()) await walk(join(dir, e.name), r, depth + 1)
      else if (e.isFile()) out.push(r)
      if (out.length > MAX_TEMPLATE_FILES) {
        throw new DemoError(`${base} holds more than ${MAX_TEMPLATE_FILES} files: not the demo`)
      }
    }
  }
  await walk(base, '', 0)
  return out.sort()
}

async function templateHash(base: string, files: readonly string[], root: string): Promise<string> {
  const h = createHash('sha256')
  h.update(`builder ${BUILDER_VERSION}\0root ${root}\0`)
  for (const f of files) {
    const text = await readTemplate(join(base, ...f.split('/')))
    h.update(`${f}\0${createHash('sha256').update(text).digest('hex')}\0`)
  }
  return h.digest('hex')
}

/** Fill in `{{ROOT}}` and `{{PROJECT:key}}`; inside JSON files the root is JSON-escaped. */
function fillPlaceholders(text: string, file: string, root: string, m: Manifest): string {
  const json = file.endsWith('.json') || file.endsWith('.jsonl')
  const rootText = json ? JSON.stringify(root).slice(1, -1) : root
  return text
    .replaceAll('{{ROOT}}', rootText)
    .replace(/\{\{PROJECT:([A-Za-z0-9._-]+)\}\}/g, (_all, key: string) =>
      projectFolder(key, root, m, file),
    )
}

function projectFolder(key: string, root: string, m: Manifest, file: string): string {
  const rel = Object.hasOwn(m.projects, key) ? m.projects[key] : undefined
  if (rel === undefined) throw new DemoError(`demo template ${file}: unknown project "${key}"`)
  return encodeProjectDir(join(root, ...rel.split('/')))
}

/** Where a template file lands, relative to the root; null for files that are not copied. */
function outputPath(file: string, root: string, m: Manifest): string | null {
  for (const t of m.trees) {
    if (!file.startsWith(`${t.from}/`)) continue
    const parts = file.slice(t.from.length + 1).split('/')
    // Project folders are named after the real path they stand for (memory-facts §1).
    if (t.to === m.claudeHome && parts[0] === 'projects' && parts.length > 2) {
      parts[1] = projectFolder(parts[1], root, m, file)
    }
    return [...t.to.split('/'), ...parts].join('/')
  }
  return null
}

// ---------------------------------------------------------------------------------------
// Building

async function buildInto(
  staging: string,
  root: string,
  resourcesDir: string,
  files: readonly string[],
  m: Manifest,
): Promise<void> {
  const write = async (rel: string, text: string, mode?: number): Promise<void> => {
    const dest = inside(staging, rel)
    await mkdir(dirname(dest), { recursive: true })
    await writeFile(dest, text, mode === undefined ? undefined : { mode })
  }
  for (const dir of [m.claudeHome, m.codexHome, m.managedDir]) {
    await mkdir(inside(staging, dir), { recursive: true })
  }
  for (const f of files) {
    const out = outputPath(f, root, m)
    if (out === null) continue
    const text = await readTemplate(join(resourcesDir, ...f.split('/')))
    await write(out, fillPlaceholders(text, f, root, m))
  }

  const repo = inside(staging, m.repo.dir)
  await mkdir(repo, { recursive: true })
  await buildRepository(repo, root, resourcesDir, files, m)
  const untracked = `${m.repo.untracked}/`
  for (const f of files.filter((x) => x.startsWith(untracked))) {
    const text = await readTemplate(join(resourcesDir, ...f.split('/')))
    await write(
      `${m.repo.dir}/${templateName(f.slice(untracked.length))}`,
      fillPlaceholders(text, f, root, m),
    )
  }

  // Fixed mtimes, so "when was this note written" is the same on every machine.
  for (const [f, iso] of Object.entries(m.mtimes)) {
    const out = outputPath(f, root, m)
    const when = Date.parse(iso)
    if (out === null || Number.isNaN(when)) {
      throw new DemoError(`demo template ${MANIFEST}: bad mtime entry ${f} = ${iso}`)
    }
    const dest = inside(staging, out)
    try {
      await utimes(dest, new Date(when), new Date(when))
    } catch {
      throw new DemoError(`demo template ${MANIFEST}: mtime for ${f}, which is not a template file`)
    }
  }
}

/** `_gitignore` in the templates becomes `.gitignore` (a real one would act on this repo). */
function templateName(rel: string): string {
  return rel
    .split('/')
    .map((s) => (s === '_gitignore' ? '.gitignore' : s))
    .join('/')
}

/** Resolve `rel` under `base` and refuse anything that would land outside it. */
function inside(base: string, rel: string): string {
  const dest = resolve(base, ...rel.split('/'))
  if (dest !== base && !dest.startsWith(base + sep)) {
    throw new DemoError(`refusing to write ${dest}: outside ${base}`)
  }
  return dest
}

/**
 * Build the repository with one `git fast-import` stream: commits in order, fixed
 * author and committer dates, no hooks, no signing, no user config — so the commit ids
 * are the same on every machine.
 */
async function buildRepository(
  repo: string,
  root: string,
  resourcesDir: string,
  files: readonly string[],
  m: Manifest,
): Promise<void> {
  const historyPath = join(resourcesDir, ...m.repo.history.split('/'))
  const history = parseJson(await readTemplate(historyPath), historyPath) as History
  if (!history || !Array.isArray(history.commits) || !history.authors) {
    throw new DemoError(`demo template ${historyPath}: needs authors and commits`)
  }
  const chunks: Buffer[] = []
  const put = (s: string): void => {
    chunks.push(Buffer.from(s, 'utf8'))
  }
  const data = (s: string): void => {
    put(`data ${Buffer.byteLength(s, 'utf8')}\n`)
    put(s)
    put('\n')
  }
  const tips = new Map<string, number>()
  let mark = 0
  for (const c of history.commits) {
    const where = `${historyPath}, commit ${c.files}`
    const who = Object.hasOwn(history.authors, c.author) ? history.authors[c.author] : undefined
    if (!who) throw new DemoError(`${where}: unknown author ${c.author}`)
    const when = gitDate(c.date, where)
    if (!isSafeRelative(c.files) || !/^[A-Za-z0-9._/-]+$/.test(c.branch)) {
      throw new DemoError(`${where}: bad files folder or branch name`)
    }
    mark++
    put(`commit refs/heads/${c.branch}\nmark :${mark}\n`)
    put(`author ${who.name} <${who.email}> ${when}\ncommitter ${who.name} <${who.email}> ${when}\n`)
    data(c.message.endsWith('\n') ? c.message : `${c.message}\n`)
    if (!tips.has(c.branch) && tips.size > 0) {
      const from = c.from === undefined ? undefined : tips.get(c.from)
      if (from === undefined)
        throw new DemoError(`${where}: a new branch needs "from" naming a branch`)
      put(`from :${from}\n`)
    }
    for (const [a, b] of c.rename ?? []) {
      if (!isSafeRelative(a) || !isSafeRelative(b)) throw new DemoError(`${where}: bad rename ${a}`)
      put(`R ${a} ${b}\n`)
    }
    for (const d of c.delete ?? []) {
      if (!isSafeRelative(d)) throw new DemoError(`${where}: bad delete ${d}`)
      put(`D ${d}\n`)
    }
    const prefix = `${m.repo.commits}/${c.files}/`
    const changed = files.filter((f) => f.startsWith(prefix))
    if (changed.length === 0 && !c.rename?.length && !c.delete?.length) {
      throw new DemoError(`${where}: no files in ${prefix}`)
    }
    for (const f of changed) {
      const rel = templateName(f.slice(prefix.length))
      const text = fillPlaceholders(
        await readTemplate(join(resourcesDir, ...f.split('/'))),
        f,
        root,
        m,
      )
      put(`M ${rel.endsWith('.sh') ? '100755' : '100644'} inline ${rel}\n`)
      data(text)
    }
    put('\n')
    tips.set(c.branch, mark)
  }
  if (!tips.has(m.repo.checkout)) {
    throw new DemoError(`${historyPath}: no commits on branch ${m.repo.checkout}`)
  }
  // `--template=` keeps the user's template hooks out of the demo repository.
  await git(['init', '--quiet', '--template=', '.'], repo)
  await git(['symbolic-ref', 'HEAD', `refs/heads/${m.repo.checkout}`], repo)
  await git(
    ['fast-import', '--quiet', '--done'],
    repo,
    Buffer.concat([...chunks, Buffer.from('done\n')]),
  )
  await git(['reset', '--quiet', '--hard'], repo)
}

/** `2026-01-12T10:30:00+01:00` → git's raw `1768210200 +0100`. */
function gitDate(iso: string, where: string): string {
  const ms = Date.parse(iso)
  const tz = /(Z|([+-])(\d\d):?(\d\d))$/.exec(iso)
  if (Number.isNaN(ms) || !tz) throw new DemoError(`${where}: date needs a time zone: ${iso}`)
  const offset = tz[1] === 'Z' ? '+0000' : `${tz[2]}${tz[3]}${tz[4]}`
  return `${Math.floor(ms / 1000)} ${offset}`
}

// ---------------------------------------------------------------------------------------
// Swapping, locking, checking

/** Create the target folder and return its real path (project folders encode real paths). */
async function prepareTarget(dir: string): Promise<string> {
  try {
    await mkdir(dir, { recursive: true })
    const real = await realpath(dir)
    if (!(await stat(real)).isDirectory()) throw new Error('not a folder')
    return real
  } catch (err) {
    throw new DemoError(`cannot use ${dir} as the demo folder: ${(err as Error).message}`)
  }
}

/** Staging and old copies left by a build that was killed (we hold the lock, so none is live). */
async function removeLeftovers(target: string): Promise<void> {
  for (const name of await readdir(target)) {
    if (/^\.(staging|old)-[A-Za-z0-9]+$/.test(name)) {
      await rm(join(target, name), { recursive: true, force: true })
    }
  }
}

async function swapIn(target: string, staging: string, root: string): Promise<void> {
  let old: string | null = null
  if (await pathExists(root)) {
    old = join(target, `.old-${randomBytes(6).toString('hex')}`)
    await rename(root, old)
  }
  await rename(staging, root)
  if (old) await rm(old, { recursive: true, force: true })
}

async function isCurrent(root: string, hash: string, paths: DemoPaths): Promise<boolean> {
  const r = await readTextFile(join(root, MARKER))
  if (!r.ok) return false
  let marker: Partial<Marker>
  try {
    marker = JSON.parse(r.text) as Partial<Marker>
  } catch {
    return false
  }
  if (marker.hash !== hash || marker.builder !== BUILDER_VERSION || marker.root !== root)
    return false
  // A half-deleted demo is rebuilt rather than trusted.
  return (
    (await isKind(join(paths.repoRoot, '.git'), 'dir')) &&
    (await isKind(join(paths.worktreeRoot, '.git'), 'file')) &&
    (await isKind(paths.claudeHome, 'dir'))
  )
}

async function isKind(path: string, kind: 'dir' | 'file'): Promise<boolean> {
  try {
    const st = await lstat(path)
    return kind === 'dir' ? st.isDirectory() : st.isFile()
  } catch {
    return false
  }
}

/** One builder at a time per target (the window and the CLI may start together). */
async function acquireLock(path: string): Promise<() => Promise<void>> {
  const started = Date.now()
  for (;;) {
    try {
      const fh = await open(path, 'wx')
      await fh.writeFile(`${process.pid}\n`)
      await fh.close()
      return async () => {
        await unlink(path).catch(() => undefined)
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DemoError(`cannot lock ${path}: ${(err as Error).message}`)
      }
    }
    try {
      if (Date.now() - (await stat(path)).mtimeMs > LOCK_STALE_MS) {
        await unlink(path).catch(() => undefined)
        continue
      }
    } catch {
      continue
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new DemoError(`${path} is held by another process; remove it if none is running`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** A demo inside another repository is still usable, but its non-git project is not. */
async function placementWarnings(target: string): Promise<string[]> {
  const r = await runGit(['rev-parse', '--show-toplevel'], target)
  if (r.code !== 0) return []
  return [
    `the demo folder ${target} is inside the git repository ${r.stdout.trim()}, ` +
      'so its "outside git" project is not outside git',
  ]
}

// ---------------------------------------------------------------------------------------
// git

/** git through the one hardened runner (git-run.ts): no hooks, filters or user config. */
async function git(args: readonly string[], cwd: string, input?: Buffer): Promise<string> {
  const r = await runGit(args, cwd, input)
  if (r.code !== 0) {
    throw new DemoError(`git ${args[0]} in ${cwd} failed: ${r.stderr.trim() || `exit ${r.code}`}`)
  }
  return r.stdout
}

function runGit(args: readonly string[], cwd: string, input?: Buffer): Promise<GitResult> {
  // System and global config are ignored there, so no `core.autocrlf` rewrites the demo's bytes.
  return runHardenedGit(args, {
    cwd,
    timeoutMs: GIT_TIMEOUT_MS,
    ...(input === undefined ? {} : { input }),
  })
}
