/**
 * Where a path written in a note lands in the repository: the candidate repository-relative
 * paths (from the root, then from the note's folder), the absolute path of a relative one,
 * and which paths are too long to look up at all.
 */
import { GIT_PATH_MAX_CHARS, GIT_PATH_MAX_COMPONENTS } from '../limits'
import { relativeInside, resolveRelative } from '../paths'
import type { Reference } from './reference'
import type { RepoFacts } from './repo-facts'

/**
 * Why a path named in a note is too long to look up (no file system holds it), or null. Such
 * a path is reported, never sent to git or the disk (see GIT_PATH_MAX_CHARS).
 */
export function overlongPath(path: string): string | null {
  if (path.length > GIT_PATH_MAX_CHARS)
    return `is ${path.length.toLocaleString('en')} characters long, over the ${GIT_PATH_MAX_CHARS.toLocaleString('en')} a path can have`
  let parts = 1
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    if (++parts > GIT_PATH_MAX_COMPONENTS)
      return `has over ${GIT_PATH_MAX_COMPONENTS} path components`
  }
  return null
}

/**
 * Candidate repository-relative paths for a path as written: from the root, then
 * from the folder of the file holding the note. Null when it points outside, or is too
 * long to be a path (overlongPath).
 */
export function candidatePaths(
  path: string,
  root: string,
  noteDir: string | null,
): string[] | null {
  if (overlongPath(path) !== null) return null
  const out: string[] = []
  const push = (p: string | null): void => {
    if (p !== null && p !== '' && !out.includes(p)) out.push(p)
  }
  // `cd ~/haAutomation/inventory`: a home's checkout of this repository, by its folder's name
  // (blind set BA: the crate folder renamed since), is a path in it.
  const own = ownCheckout(path, root)
  if (own !== null) return candidatePaths(own, root, null)
  if (path.startsWith('/')) {
    const rel = relativeInside(path, root)
    return rel === null ? null : [rel]
  }
  if (path.startsWith('~')) return null
  // `.claude/projects/-Users-ro-app/memory/x.md`: a Claude home's project folder (its layout:
  // docs/memory-rules.md §1.3), written from the home, not from the repository (blind set M).
  if (/^\.claude\/projects\/[^/]+\//.test(path)) return null
  // `.claude.json`: Claude Code's own file in the home (`~/.claude.json`, docs/memory-rules.md),
  // not the repository's (blind set AZ: "2.1.126 requires missing `.claude.json`").
  if (path === '.claude.json') return null
  // `refs/heads/`, `.git/worktrees/*/HEAD`, `packed-refs`: git's own files, in the repository's
  // git folder, not its tree (hidden set K: a note on reading branches from disk).
  if (/^(?:\.git\/|refs\/(?:heads|tags|remotes)(?:\/|$)|packed-refs$)/.test(path)) return null
  if (!path.startsWith('../')) push(resolveRelative(path))
  if (noteDir !== null) {
    const base = relativeInside(noteDir, root)
    if (base !== null) push(resolveRelative(base === '' ? path : `${base}/${path}`))
  }
  return out.length > 0 ? out : null
}

/**
 * The rest of a path into a checkout of the repository in a home (`~/<name>/x`,
 * `/Users/<user>/…/<name>/x`, `<name>` the repository folder's name, four characters or more),
 * when it is not the repository's own absolute path; null otherwise.
 */
function ownCheckout(path: string, root: string): string | null {
  const name = root.replace(/\/+$/, '').split('/').pop() ?? ''
  if (name.length < 4 || relativeInside(path, root) !== null) return null
  if (!/^(?:~|\/(?:Users|home)\/[^/]+)\//.test(path)) return null
  const parts = path.split('/')
  const at = parts.indexOf(name)
  return at > 0 && at < parts.length - 1 ? parts.slice(at + 1).join('/') : null
}

/** First folders of absolute paths on a machine (Linux, macOS, Windows under WSL or Git Bash). */
const MACHINE_ROOTS = new Set(
  (
    'home Users root tmp var etc usr opt srv mnt media private Volumes Library System Applications ' +
    'dev proc sys bin sbin lib lib64 boot run nix snap workspace workspaces c d'
  ).split(' '),
)

/**
 * A rooted path that may be a web root's (`/images/escudo.jpg` for `public/images/escudo.jpg`)
 * rather than a place on a machine: the path without its leading `/`, to be looked up by
 * suffix; null for a path under a machine's root folders or no rooted path at all.
 */
export function webRootPath(path: string): string | null {
  if (!path.startsWith('/')) return null
  const rel = path.replace(/^\/+/, '')
  return rel === '' || MACHINE_ROOTS.has(rel.split('/')[0] ?? '') ? null : rel
}

/** Join a root and a relative path into an absolute one. */
export function absolute(root: string, rel: string): string {
  if (rel === '') return root
  return root.endsWith('/') ? `${root}${rel}` : `${root}/${rel}`
}

/** Shallowest path first, then by name: the root's file before a nested one. */
export function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0)
}

/** Whether a repository-relative file is documentation, not code: a text format, a `docs/` folder, a licence. */
export function isDocFile(rel: string): boolean {
  return (
    /\.(?:md|mdc|mdx|markdown|txt|rst|adoc)$/i.test(rel) ||
    /(?:^|\/)(?:docs?\/|LICEN[CS]E|COPYING)/i.test(rel)
  )
}

/**
 * A file-name suffix as a note writes one (`.meta.json`, `.test.ts`, `.d.ts`): a leading dot and
 * at least one more, no folder. Checked as the end of file names (check-path.ts), never as a
 * dotfile of that name unless the repository has one.
 */
export function isNameSuffix(path: string): boolean {
  return /^\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/.test(path)
}

/** Folder names build tools, package managers and running programs create; never part of the source. */
const GENERATED_DIRS = new Set(
  (
    'dist build out target coverage node_modules .next .nuxt .svelte-kit .turbo .cache .parcel-cache ' +
    'logs tmp .tmp temp output outputs ' +
    '.output .vercel .terraform __pycache__ .pytest_cache .mypy_cache .venv venv storybook-static'
  ).split(' '),
)

export function isGenerated(rel: string): boolean {
  return rel.split('/').some((seg) => GENERATED_DIRS.has(seg))
}

/** One folder name, written as a folder (`packs/`) or from the current folder (`./data`). */
export function runtimeFolderName(ref: Reference, path: string, dir: boolean): boolean {
  if (path.includes('/') || path === '' || path === '.' || path === '..') return false
  return dir || (ref.text.startsWith('./') && !/\.[A-Za-z0-9]+$/.test(path))
}

/** The extensions of a compiled file's source, by the compiled file's own (`.js`, `.mjs`). */
const SOURCES: Readonly<Record<string, readonly string[]>> = {
  js: ['ts', 'tsx', 'jsx'],
  mjs: ['mts'],
  cjs: ['cts'],
}

/**
 * The tracked source of a compiled file a note names under a build folder (`dist/tests/a.test.js`
 * from `tests/a.test.ts`, or `src/…` under a `rootDir`), when the repository has it or had it:
 * the build output is on no one's disk but the source says whether the file still exists (blind
 * set AM: `node --test dist/tests/…/x.test.js` after `x.test.ts` was deleted).
 */
export function builtFrom(rel: string, facts: RepoFacts): string | null {
  const m = /^(?:dist|build|out|lib)\/(.+)\.(c?js|mjs)$/.exec(rel)
  if (!m) return null
  for (const base of [m[1], `src/${m[1]}`])
    for (const ext of SOURCES[m[2]] ?? []) {
      const p = `${base}.${ext}`
      if (facts.exists(p) || facts.history?.arrivals.has(p)) return p
    }
  return null
}

/**
 * Whether the repository has, or once had, a folder at this path: a tree drawn under it names
 * its entries there (blind set Z: `rodski-web/` over `src/`, read as the root `src/` that went).
 * A top folder the repository never had is its own name: the entries are the root's.
 */
export function hadFolder(facts: RepoFacts, top: string): boolean {
  if (top === '' || top.startsWith('/') || top.startsWith('..')) return false
  if (facts.isDir(top)) return true
  const inside = `${top}/`
  for (const p of facts.history?.leaves.keys() ?? []) if (p.startsWith(inside)) return true
  return false
}

/**
 * `/docs/tasks/backlog.md`: a rooted file path under a top folder the repository has or had, the
 * root's path even when no such file ever was (blind set DN vr-t07); its path from the root.
 */
export function rootedFile(path: string, dir: boolean, facts: RepoFacts): string | null {
  const rel = webRootPath(path)
  if (rel === null || dir || !/\.[A-Za-z]\w*$/.test(rel)) return null
  return hadFolder(facts, rel.split('/')[0]) ? rel : null
}

/**
 * `owner/name` that no tracked path and no history has, whose first part is no folder at the root:
 * another repository (issue 12 item 3), not a path of this one.
 */
export function repositoryName(path: string, dir: boolean, facts: RepoFacts): boolean {
  // `actions/checkout@v4`: a GitHub Action at a version is another repository too, and so is
  // a container image at a tag (`pgvector/pgvector:pg17`; blind set BL).
  const m = /^([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*?)(?:@[\w.-]+|:[\w.-]+)?$/.exec(path)
  // `find_op/2` is an Erlang name and arity, not a repository.
  if (!m || dir || /\.[A-Za-z0-9]+$/.test(m[2]) || !/[A-Za-z]/.test(m[2])) return false
  return !facts.exists(m[1])
}

/**
 * A pattern's folders before its first placeholder or elision (`dist/app/.../x.json`, blind set
 * EC cs-t06; `knowledge/agents/<slug>/`), when two or more; null for a glob (`*`).
 */
export function fixedFolder(path: string): string | null {
  if (path.includes('*')) return null
  const parts = path.split('/')
  const at = parts.findIndex((x) => /[[\]<>{}$:]|^(?:\.{3}|…)$/.test(x))
  return at >= 2 ? parts.slice(0, at).join('/') : null
}
