/**
 * The `-M` log of a partial clone (`git clone --filter=blob:limit=…`): rename detection reads the
 * blobs on both sides of a change, and git stops at the first one the clone lacks (runGit sets
 * GIT_NO_LAZY_FETCH). Read as a log without renames, every rename becomes a delete and an add,
 * and a note naming a file that only moved is called stale (blind set BI: a folder renamed in
 * one commit, `t-deck-cli/` to `t-rex-firmware/`).
 *
 * Decisions:
 * - Only after the `-M` log failed so: a complete clone pays nothing.
 * - Two logs at once: `-M` without the paths whose blobs are missing (missing-blobs.ts), with
 *   `--full-history` so no commit of those paths is simplified away; and `--no-renames` over
 *   everything, which lists every commit in the order the plain log does. Each commit of the
 *   second keeps its place; its changes are the first log's (renames found) and its own changes
 *   of the left-out paths (those read as a delete and an add, as before).
 * - Either log failing, or no missing blob found: null, and the caller reads the log without
 *   renames as before.
 */
import type { GitResult } from './run'
import { excludedPath, missingBlobExcludes } from './missing-blobs'

/** Runs `git log -z <renames> --name-status --format=<LOG_FORMAT> <range> -- <specs>`. */
export type LogRun = (
  renames: string,
  range?: string,
  specs?: readonly string[],
  extra?: readonly string[],
) => Promise<GitResult>

/** The merged log as one GitResult, in the `-z --name-status` text the plain log prints. */
export async function partialCloneRenameLog(
  root: string,
  head: string,
  range: string,
  log: LogRun,
): Promise<GitResult | null> {
  const left = await missingBlobExcludes(root, [head])
  if (left === null) return null
  const [renamed, plain] = await Promise.all([
    log('-M', range, left, ['--full-history']),
    log('--no-renames', range, []),
  ])
  if (renamed.code !== 0 || plain.code !== 0) return null
  const stdout = mergeLogs(renamed.stdout, plain.stdout, new Set(left.map(excludedPath)))
  return { code: 0, stdout, stderr: '' }
}

/** A commit's chunk of a `-z` log: its header (up to the first NUL) and its change tokens. */
function chunks(out: string): Map<string, string[]> {
  const bySha = new Map<string, string[]>()
  for (const chunk of out.split('\x1e')) {
    const tokens = chunk.split('\0')
    const sha = tokens[0].split('\x1f')[0]
    if (sha !== '') bySha.set(sha, tokens)
  }
  return bySha
}

/**
 * Every commit of `plain` in its order, with the changes `renamed` gives it and its own changes
 * of the `left` paths. Exported for tests.
 */
export function mergeLogs(renamed: string, plain: string, left: ReadonlySet<string>): string {
  const withRenames = chunks(renamed)
  const out: string[] = []
  for (const chunk of plain.split('\x1e')) {
    const tokens = chunk.split('\0')
    const sha = tokens[0].split('\x1f')[0]
    if (sha === '') continue
    // `--no-renames`: the changes are (status, path) pairs after the header (the first status
    // token starts with the newline after the header's NUL).
    const own: string[] = []
    for (let i = 1; i + 1 < tokens.length; i += 2) {
      if (left.has(tokens[i + 1])) own.push(tokens[i], tokens[i + 1])
    }
    const found = withRenames.get(sha)
    if (found === undefined) {
      out.push(chunk)
      continue
    }
    // Its tokens end with '' (the trailing NUL) or a newline: the left paths' changes go after
    // the last change (the parser reads a status token with or without its newline).
    const kept = [...found]
    while (kept.length > 1 && kept[kept.length - 1].trim() === '') kept.pop()
    const body = own.map((t, i) => (i % 2 === 0 ? t.replace(/^\n+/, '') : t))
    out.push([...kept, ...body, ''].join('\0'))
  }
  return out.map((c) => `\x1e${c}`).join('')
}
