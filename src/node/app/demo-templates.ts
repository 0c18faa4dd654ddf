/**
 * The demo's templates (`resources/demo/`): the manifest and its checks, listing and hashing the
 * template files, and turning a template into the file it becomes (`{{ROOT}}`, `{{PROJECT:key}}`,
 * project folder names, `_gitignore`). Every manifest path is a plain relative path.
 */
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { encodeProjectDir } from '../../core/memory/project-path'
import { readTextFile } from '../fs/safe-read'

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

/** A template or git problem while building the demo; the message names the path. */
export class DemoError extends Error {
  override readonly name = 'DemoError'
}

/** Bump when the way templates turn into files changes, so old demos are rebuilt. */
export const BUILDER_VERSION = 1
export const MANIFEST = 'demo.json'
/** Guards against a wrong `resourcesDir` (e.g. a home folder): the demo has ~100 files. */
const MAX_TEMPLATE_FILES = 2_000
const MAX_TEMPLATE_DEPTH = 12
const SAFE_SEGMENT = /^[A-Za-z0-9._@+-]+$/

export interface Tree {
  readonly from: string
  readonly to: string
}
export interface Manifest {
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
export interface HistoryCommit {
  readonly files: string
  readonly branch: string
  readonly from?: string
  readonly author: string
  readonly date: string
  readonly message: string
  readonly rename?: readonly (readonly [string, string])[]
  readonly delete?: readonly string[]
}
export interface History {
  readonly authors: Readonly<Record<string, { readonly name: string; readonly email: string }>>
  readonly commits: readonly HistoryCommit[]
}

export function demoPaths(root: string, m: Manifest): DemoPaths {
  return {
    root,
    claudeHome: join(root, m.claudeHome),
    codexHome: join(root, m.codexHome),
    managedDir: join(root, m.managedDir),
    repoRoot: join(root, m.repo.dir),
    worktreeRoot: join(root, m.repo.worktrees[0]?.dir ?? m.repo.dir),
  }
}

export async function readTemplate(path: string): Promise<string> {
  const r = await readTextFile(path)
  if (!r.ok) throw new DemoError(`demo template ${path}: ${r.reason}`)
  return r.text
}

export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new DemoError(`demo template ${path}: invalid JSON (${(err as Error).message})`)
  }
}

/** Read and check the manifest; every path in it must be a plain relative path. */
export function parseManifest(text: string, resourcesDir: string): Manifest {
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

export function isSafeRelative(p: unknown): p is string {
  if (typeof p !== 'string' || p === '') return false
  return p.split('/').every((s) => SAFE_SEGMENT.test(s) && s !== '.' && s !== '..')
}

/** Every regular file under the resources folder, as sorted `/`-separated relative paths. */
export async function listTemplates(base: string): Promise<string[]> {
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

export async function templateHash(
  base: string,
  files: readonly string[],
  root: string,
): Promise<string> {
  const h = createHash('sha256')
  h.update(`builder ${BUILDER_VERSION}\0root ${root}\0`)
  for (const f of files) {
    const text = await readTemplate(join(base, ...f.split('/')))
    h.update(`${f}\0${createHash('sha256').update(text).digest('hex')}\0`)
  }
  return h.digest('hex')
}

/** Fill in `{{ROOT}}` and `{{PROJECT:key}}`; inside JSON files the root is JSON-escaped. */
export function fillPlaceholders(text: string, file: string, root: string, m: Manifest): string {
  const json = file.endsWith('.json') || file.endsWith('.jsonl')
  const rootText = json ? JSON.stringify(root).slice(1, -1) : root
  return text
    .replaceAll('{{ROOT}}', rootText)
    .replace(/\{\{PROJECT:([A-Za-z0-9._-]+)\}\}/g, (_all, key: string) =>
      projectFolder(key, root, m, file),
    )
}

export function projectFolder(key: string, root: string, m: Manifest, file: string): string {
  const rel = Object.hasOwn(m.projects, key) ? m.projects[key] : undefined
  if (rel === undefined) throw new DemoError(`demo template ${file}: unknown project "${key}"`)
  return encodeProjectDir(join(root, ...rel.split('/')))
}

/** Where a template file lands, relative to the root; null for files that are not copied. */
export function outputPath(file: string, root: string, m: Manifest): string | null {
  for (const t of m.trees) {
    if (!file.startsWith(`${t.from}/`)) continue
    const parts = file.slice(t.from.length + 1).split('/')
    // Project folders are named after the real path they stand for (docs/memory-rules.md §1.3).
    if (t.to === m.claudeHome && parts[0] === 'projects' && parts.length > 2) {
      parts[1] = projectFolder(parts[1], root, m, file)
    }
    return [...t.to.split('/'), ...parts].join('/')
  }
  return null
}

/** `_gitignore` in the templates becomes `.gitignore` (a real one would act on this repo). */
export function templateName(rel: string): string {
  return rel
    .split('/')
    .map((s) => (s === '_gitignore' ? '.gitignore' : s))
    .join('/')
}
