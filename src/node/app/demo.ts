/**
 * The built-in demo: a Claude home, a Codex home, a managed folder and a real git
 * repository with a linked worktree, materialised from the templates in `resources/demo/`.
 *
 * Transcripts must hold real absolute `cwd` paths and project folders are named after
 * those paths (docs/memory-rules.md §1.3), so the demo cannot ship ready-made: `{{ROOT}}` and
 * `{{PROJECT:<key>}}` placeholders are filled in for the folder it lands in.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, utimes, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  acquireLock,
  isCurrent,
  MARKER,
  prepareTarget,
  removeLeftovers,
  swapIn,
  type Marker,
} from './demo-folder'
import { buildRepository, demoGit, placementWarnings } from './demo-repository'
import {
  demoPaths,
  fillPlaceholders,
  listTemplates,
  MANIFEST,
  outputPath,
  parseManifest,
  readTemplate,
  templateHash,
  templateName,
  BUILDER_VERSION,
  DemoError,
  type DemoPaths,
  type Manifest,
} from './demo-templates'

export { DemoError, type DemoPaths }

export interface DemoOptions {
  /** Folder that holds the demo; nothing is written outside it. */
  readonly targetDir: string
  /** The `resources/demo` folder with the templates (see `demoResourcesDir`). */
  readonly resourcesDir: string
  /** Rebuild even when the existing demo matches the templates. */
  readonly force?: boolean
}

export interface DemoResult extends DemoPaths {
  /** True when an up-to-date demo was found and nothing was rebuilt. */
  readonly reused: boolean
  /** Things that make the demo less faithful, in plain words (e.g. it sits inside a git repo). */
  readonly warnings: readonly string[]
}

const ROOT_NAME = 'root'
const LOCK_NAME = '.lock'

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
      await demoGit(['worktree', 'add', '--quiet', join(root, wt.dir), wt.branch], paths.repoRoot)
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

/** Resolve `rel` under `base` and refuse anything that would land outside it. */
function inside(base: string, rel: string): string {
  const dest = resolve(base, ...rel.split('/'))
  if (dest !== base && !dest.startsWith(base + sep)) {
    throw new DemoError(`refusing to write ${dest}: outside ${base}`)
  }
  return dest
}
