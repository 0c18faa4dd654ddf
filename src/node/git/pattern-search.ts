/**
 * Which files hold each of many fixed strings, in one `git grep -o` run (patterns on stdin):
 * the audit's symbol search (every word of every symbol the notes name) and its quote search.
 * Inside an audit, a search of the work tree starts from the kept search of HEAD
 * (work-tree-delta.ts): HEAD's files are kept between runs (kept-searches.ts), and only the
 * files that differ from HEAD are searched again.
 */
import { createHash } from 'node:crypto'
import { parseGrepOnlyMatching } from '../../core/git/parse'
import { fixedStringsInput } from './grep-patterns'
import { firstLine } from './history'
import { keptSearches } from './kept-searches'
import { runGit } from './run'
import { searchWorkTree, type GrepOnce, type GrepWhere } from './work-tree-delta'

const GIT_MAX_BYTES = 256 * 1024 * 1024
const GIT_TIMEOUT_MS = 120_000
/** Files kept per searched word or line (enough to resolve, bounded for huge repos). */
const FILES_PER_PATTERN = 20

export interface SearchOptions {
  /** Search a plain folder (`git grep --no-index`) instead of a work tree. */
  readonly noIndex?: boolean
  /** Relative paths to leave out (the notes' own files). */
  readonly exclude?: readonly string[]
}

export type SearchResult =
  | { readonly ok: true; readonly files: ReadonlyMap<string, readonly string[]> }
  | { readonly ok: false; readonly reason: string }

/**
 * Which files contain each pattern (at most FILES_PER_PATTERN, in git's order), in the work
 * tree: its tracked files and its untracked ones (work-tree-delta.ts `searchWorkTree`). `words`
 * matches whole words; otherwise fixed strings anywhere in a line.
 */
export async function searchPatterns(
  root: string,
  patterns: readonly string[],
  words: boolean,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const wanted = [...new Set(patterns.filter((p) => p !== '' && !p.includes('\n')))]
  if (wanted.length === 0) return { ok: true, files: new Map() }
  const specs = ['.', ...(options.exclude ?? []).map((e) => `:(exclude,literal)${e}`)]
  if (options.noIndex) return searchNow(root, 'no-index', wanted, words, specs)
  let failure = 'git grep failed'
  const grep: GrepOnce<string> = async (where, pats, pathspecs) => {
    const r = await searchNow(root, where, pats, words, pathspecs)
    if (!r.ok) failure = r.reason
    return r.ok ? r.files : null
  }
  const files = await searchWorkTree({
    root,
    patterns: wanted,
    pathspecs: specs,
    cap: FILES_PER_PATTERN,
    grep,
    atHead: (head) => atHead(root, head, wanted, words, specs, grep),
    pathOf: (f) => f,
    lineOf: () => 0,
  })
  return files ? { ok: true, files } : { ok: false, reason: failure }
}

/** HEAD's files per pattern: kept between runs (kept-searches.ts), the rest searched at once. */
async function atHead(
  root: string,
  head: string,
  wanted: readonly string[],
  words: boolean,
  specs: readonly string[],
  grep: GrepOnce<string>,
): Promise<Map<string, readonly string[]> | null> {
  const kept = await keptSearches(root)
  const section = `files:${words ? 'w' : 's'}:${createHash('sha256').update(specs.join('\0')).digest('hex').slice(0, 16)}`
  const out = new Map<string, readonly string[]>()
  const left: string[] = []
  for (const p of wanted) {
    const was = kept?.get(section, head, p) as string[] | undefined
    if (was === undefined) left.push(p)
    else out.set(p, was)
  }
  if (left.length === 0) return out
  const found = await grep({ kind: 'tree', sha: head }, left, specs)
  if (!found) return null
  for (const p of left) {
    const files = found.get(p) ?? []
    out.set(p, files)
    kept?.keep(section, head, p, files)
  }
  return out
}

/** One `git grep -o`: in a commit's tree, the work tree's tracked or untracked files, a folder. */
async function searchNow(
  root: string,
  where: GrepWhere | 'no-index',
  wanted: readonly string[],
  words: boolean,
  pathspecs: readonly string[],
): Promise<SearchResult> {
  const files = new Map<string, string[]>(wanted.map((p) => [p, []]))
  const args = ['grep', '-z', '-o', '-I', '-E', '--no-color', '-f', '-']
  if (words) args.push('-w')
  if (where === 'no-index') args.push('--no-index', '--exclude-standard')
  else if (where.kind === 'untracked') args.push('--untracked')
  else if (where.kind === 'tree') args.push(where.sha)
  const r = await runGit([...args, '--', ...pathspecs], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
    maxBytes: GIT_MAX_BYTES,
    input: fixedStringsInput(wanted),
  })
  // Exit 1 means nothing matched.
  if (r.code !== 0 && r.code !== 1)
    return { ok: false, reason: `git grep failed: ${firstLine(r.stderr)}` }
  const prefix = where !== 'no-index' && where.kind === 'tree' ? `${where.sha}:` : ''
  for (const m of parseGrepOnlyMatching(r.stdout)) {
    const list = files.get(m.text)
    const path = m.path.startsWith(prefix) ? m.path.slice(prefix.length) : m.path
    if (
      list &&
      list.length < FILES_PER_PATTERN &&
      list[list.length - 1] !== path &&
      !list.includes(path)
    )
      list.push(path)
  }
  return { ok: true, files }
}
