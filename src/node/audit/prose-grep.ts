/**
 * The code lines holding some fixed strings, in the work tree or in a commit's tree, from one
 * `git grep` run (patterns on stdin), and a commit's file list: what prose-then.ts reads to
 * tell whether a name a note gives in prose was in the code when the note was written, and is
 * now. Docs are not code (pickaxe.ts's pathspecs), nor are the notes agents keep in a
 * repository (their folders below): a note always finds itself.
 */
import { createHash } from 'node:crypto'
import { parseNulList } from '../../core/git/parse'
import { BoundedCache } from '../cache/bounded-cache'
import { runGit } from '../git/run'
import { keptSearches } from '../git/kept-searches'
import { CODE_PATHSPECS } from './pickaxe'
import { isAgentWorktreeCopy, isCodePathspecFile } from '../../core/git/code-pathspecs'
import { fixedStringsInput } from '../git/grep-patterns'
import { searchWorkTree, type GrepWhere } from '../git/work-tree-delta'

export interface CodeLine {
  readonly path: string
  readonly line: number
  readonly text: string
}

/** Folders and files where agents keep notes and rules: never code, whatever their extension. */
const NOTE_PATHSPECS = [
  '.claude/**',
  '.cursor/**',
  '.amazonq/**',
  '.windsurf/**',
  '.clinerules/**',
  '.github/instructions/**',
  '*.mdc',
  '.cursorrules',
  '.windsurfrules',
  '.clinerules',
].map((g) => `:(exclude,glob)**/${g}`)

/** TOML files that set a deploy or a tool up, no manifests. */
const NOT_MANIFESTS = [
  'fly.toml',
  'netlify.toml',
  'wrangler.toml',
  'rustfmt.toml',
  '.rustfmt.toml',
  'clippy.toml',
  'taplo.toml',
  '.taplo.toml',
  'ruff.toml',
  '.ruff.toml',
  'samconfig.toml',
  'supabase/config.toml',
]

/** Manifests: where a plain word next to a version can be a package (`"astro": "^5.17.2"`). */
const MANIFEST_PATHSPECS = [
  'package.json',
  '*.toml',
  'requirements*.txt',
  'Package.swift',
  'go.mod',
  'Gemfile',
  'composer.json',
  '*.gradle',
  '*.gradle.kts',
  'pom.xml',
  '*.csproj',
  '*.fsproj',
  'Directory.Build.props',
  'pubspec.yaml',
  '.nvmrc',
  '.tool-versions',
  'build.zig.zon',
]
  .map((g) => `:(glob)**/${g}`)
  // Packages committed with the code (`frontend/node_modules/react-router-dom/package.json`) are
  // not this repository's manifests (repo-manifests.ts leaves them out too): their keywords and
  // names made a heading's word a dependency (blind set U `me-r02`).
  .concat(':(exclude,glob)**/node_modules/**')
  // A deploy or a tool's settings (`type = "requests"` in fly.toml) lists no dependencies (blind
  // set BL: a fly.toml key read as a package the repository dropped).
  .concat(NOT_MANIFESTS.map((f) => `:(exclude,glob)**/${f}`))

/**
 * Build output committed beside the code (`static/assets/index-CEoIcGrV.js`, a minified
 * bundle): a line this long, or a file named with a content hash, is what a bundler wrote,
 * not code a note describes. A name found only there was never in the code (set A:
 * `ECharts` found in a committed Vite bundle made a fresh note stale).
 */
const BUILT_LINE_MIN = 1000
/** `assets/index-CEoIcGrV.js`: a bundler's file, named with an 8-character content hash. */
const HASHED_ASSET_RE = /(?:^|\/)assets\/[^/]*[.-]([A-Za-z0-9_-]{8})\.(?:m?js|css)$/

/** Whether a grep hit sits in build output rather than in code (see BUILT_LINE_MIN). */
export function isBuiltOutput(path: string, text: string): boolean {
  if (text.length >= BUILT_LINE_MIN) return true
  const hash = HASHED_ASSET_RE.exec(path)?.[1]
  // A hash holds digits or several capitals; a word (`-settings.js`, `-Settings.js`) does not.
  return hash !== undefined && (/\d/.test(hash) || (hash.match(/[A-Z]/g) ?? []).length >= 2)
}

const GREP_TIMEOUT_MS = 60_000
const GREP_MAX_BYTES = 64 * 1024 * 1024
/** Lines kept per pattern: enough to see a name's uses, bounded for a name on every line. */
export const LINES_PER_PATTERN = 200

export interface GrepAsk {
  /** Fixed strings, matched case-sensitively in code files. */
  readonly code: readonly string[]
  /** Fixed strings, matched in any case in manifest files only. */
  readonly manifest: readonly string[]
}

export interface GrepFound {
  readonly code: ReadonlyMap<string, readonly CodeLine[]>
  readonly manifest: ReadonlyMap<string, readonly CodeLine[]>
}

/**
 * Lines holding each pattern, in `tree` (a commit) or in the work tree (null: tracked and
 * untracked files, as the symbol search reads them). Null when git failed or said too much.
 */
export async function grepLines(
  root: string,
  tree: string | null,
  ask: GrepAsk,
  exclude: readonly string[] = [],
): Promise<GrepFound | null> {
  const [code, manifest] = await Promise.all([
    grepRun(root, tree, ask.code, false, searchedFiles(false, exclude)),
    grepRun(root, tree, ask.manifest, true, searchedFiles(true, exclude)),
  ])
  return code && manifest ? { code, manifest } : null
}

/** The pathspecs of code files, or of manifests, the notes' own files left out. */
export function searchedFiles(manifests: boolean, exclude: readonly string[]): string[] {
  const excluded = exclude.map((e) => `:(exclude,literal)${e}`)
  // A manifest under an agent's folder (`.claude/skills/<vendored>/pyproject.toml`) is a tool's
  // copy, not this repository's (blind set BO: a vendored skill's settings read as packages).
  return [...(manifests ? MANIFEST_PATHSPECS : CODE_PATHSPECS), ...NOTE_PATHSPECS, ...excluded]
}

async function grepRun(
  root: string,
  tree: string | null,
  patterns: readonly string[],
  anyCase: boolean,
  pathspecs: readonly string[],
): Promise<Map<string, CodeLine[]> | null> {
  const asked = [...new Set(patterns.filter((p) => p !== '' && !p.includes('\n')))]
  // The work tree: its tracked files as on disk and its untracked ones, from HEAD's kept lines
  // and the files that differ (node/git/work-tree-delta.ts).
  if (tree === null)
    return asked.length === 0
      ? new Map()
      : ((await searchWorkTree<CodeLine>({
          root,
          patterns: asked,
          pathspecs,
          cap: LINES_PER_PATTERN,
          grep: (where, pats, specs) => grepNow(root, where, pats, anyCase, specs),
          atHead: (head) => grepRun(root, head, asked, anyCase, pathspecs),
          pathOf: (l) => l.path,
          lineOf: (l) => l.line,
        })) as Map<string, CodeLine[]> | null)
  // A commit's lines for a pattern are kept between runs (node/git/kept-searches.ts), per the
  // pathspecs asked (the notes' own files left out): only the patterns not seen are searched.
  const kept = await keptSearches(root)
  const specs = createHash('sha256').update(pathspecs.join('\0')).digest('hex').slice(0, 16)
  const section = `lines:${anyCase ? 'i' : 'c'}:${specs}`
  const out = new Map<string, CodeLine[]>()
  const wanted: string[] = []
  for (const p of asked) {
    const was = kept?.get(section, tree, p) as CodeLine[] | undefined
    if (was === undefined) wanted.push(p)
    out.set(p, was ?? [])
  }
  if (wanted.length === 0) return out
  const found = await grepNow(root, { kind: 'tree', sha: tree }, wanted, anyCase, pathspecs)
  if (found === null) return null
  for (const [p, lines] of found) {
    out.set(p, lines)
    kept?.keep(section, tree, p, lines)
  }
  return out
}

async function grepNow(
  root: string,
  where: GrepWhere,
  wanted: readonly string[],
  anyCase: boolean,
  pathspecs: readonly string[],
): Promise<Map<string, CodeLine[]> | null> {
  const out = new Map<string, CodeLine[]>(wanted.map((p) => [p, []]))
  const args = ['grep', '-z', '-n', '-I', '-E', '--no-color', '-f', '-']
  if (anyCase) args.push('-i')
  if (where.kind === 'untracked') args.push('--untracked')
  else if (where.kind === 'tree') args.push(where.sha)
  const r = await runGit([...args, '--', ...pathspecs], {
    cwd: root,
    timeoutMs: GREP_TIMEOUT_MS,
    maxBytes: GREP_MAX_BYTES,
    input: fixedStringsInput(wanted),
  })
  // Exit 1: nothing matched.
  if (r.code === 1) return out
  if (r.code !== 0) return null
  const prefix = where.kind === 'tree' ? `${where.sha}:` : ''
  const lowered = anyCase ? wanted.map((w) => w.toLowerCase()) : wanted
  for (const row of r.stdout.split('\n')) {
    const [file, num, ...rest] = row.split('\0')
    if (num === undefined || rest.length === 0) continue
    // A file with CRLF endings: the line without its CR (blind set DN oi-t02).
    const text = rest.join('\0').replace(/\r$/, '')
    const path = file.startsWith(prefix) ? file.slice(prefix.length) : file
    if (!anyCase && isBuiltOutput(path, text)) continue
    const hay = anyCase ? text.toLowerCase() : text
    lowered.forEach((w, i) => {
      const list = out.get(wanted[i])
      if (list && list.length < LINES_PER_PATTERN && hay.includes(w))
        list.push({ path, line: Number(num), text })
    })
  }
  return out
}

/** Files of each commit, by root and commit: a glob asked of several notes lists it once. */
const trees = new BoundedCache<string, Promise<readonly string[] | null>>(64)
const wholeTrees = new BoundedCache<string, Promise<readonly string[] | null>>(64)

/**
 * Every file of a commit's tree, committed agent worktree copies too (`git ls-tree -r`); null
 * when git failed. One listing per commit serves `filesAt` and the claim checks
 * (claim-flips.ts), which listed the same tree again (issue 16: one git run less per commit).
 */
export function wholeTreeAt(root: string, sha: string): Promise<readonly string[] | null> {
  const key = `${root}\0${sha}`
  let hit = wholeTrees.get(key)
  if (!hit) {
    hit = runGit(['ls-tree', '-r', '-z', '--name-only', '--full-tree', sha], {
      cwd: root,
      timeoutMs: GREP_TIMEOUT_MS,
      maxBytes: GREP_MAX_BYTES,
    }).then((r) => (r.code === 0 ? parseNulList(r.stdout) : null))
    wholeTrees.set(key, hit)
    // A failure (a time limit) is not kept: the next audit asks again and says if it fails.
    void hit.then((files) => files === null && wholeTrees.delete(key))
  }
  return hit
}

/** The files of a commit's tree but committed agent worktree copies; null when git failed. */
export function filesAt(root: string, sha: string): Promise<readonly string[] | null> {
  const key = `${root}\0${sha}`
  let hit = trees.get(key)
  if (!hit) {
    hit = wholeTreeAt(root, sha).then((files) =>
      files === null ? null : files.filter((f) => !isAgentWorktreeCopy(f)),
    )
    trees.set(key, hit)
    void hit.then((files) => files === null && trees.delete(key))
  }
  return hit
}

/** A code file (docs are not code) holding a line with each of `texts` now; null when none does. */
export async function codeHoldsAll(root: string, texts: readonly string[]): Promise<string | null> {
  const now = await grepLines(root, null, { code: texts, manifest: [] })
  const held = texts.map((x) => (now?.code.get(x) ?? []).find((l) => isCodePathspecFile(l.path)))
  return held.every((l) => l !== undefined) ? (held[0]?.path ?? null) : null
}
