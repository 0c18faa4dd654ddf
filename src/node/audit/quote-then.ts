/**
 * A quote that now appears only with changes (issue 12 item 5: names intact, lines changed):
 * what the file holding it now looked like when the note was written. When the quote matched
 * it exactly then, the code changed since: the note is suspect, and the diff shows the lines
 * then and now. When the file held the same lines then as now, nothing changed since the
 * note: it paraphrased the code from the start.
 */
import { matchSnippet, type SnippetMatch } from '../../core/audit/snippet-match'
import { showAt, type ShowResult } from '../git/history'
import { historyRead } from '../git/history-read'
import { commitAtOrBefore } from '../../core/git/parse'
import { showManyAt } from '../git/show-many'
import { runGit } from '../git/run'

const QUOTE_FILE_MAX_BYTES = 4 * 1024 * 1024

/** The commit at or before a time (HEAD's history): the tree the note was written against. */
export interface CommitThen {
  readonly sha: string
  /** Committer date, ISO. */
  readonly date: string
}

const commits = new Map<string, Promise<CommitThen | null>>()

/** The newest commit reachable from HEAD at or before `ms`; null when none (or git failed). */
export function commitAt(
  root: string,
  head: string | null,
  ms: number,
): Promise<CommitThen | null> {
  // The history index, when read already, says the same as `git log -1 --before` (its commits
  // are in git log's order): one process less per note time.
  const h = historyRead(root, head)
  if (h) {
    const c = commitAtOrBefore(h, ms)
    return Promise.resolve(c ? { sha: c.sha, date: c.date } : null)
  }
  const secs = Math.floor(ms / 1000)
  const key = `${root}\0${head ?? ''}\0${secs}`
  let hit = commits.get(key)
  if (!hit) {
    hit = runGit(['log', '-1', '--format=%H%x1f%cI', `--before=@${secs}`, 'HEAD', '--'], {
      cwd: root,
      timeoutMs: 20_000,
    }).then((r) => {
      const [sha, date] = r.stdout.trim().split('\x1f')
      // A failure (a time limit) is not kept: the next audit asks again and says if it fails.
      if (r.code !== 0) commits.delete(key)
      return r.code === 0 && sha && date ? { sha, date } : null
    })
    if (commits.size > 256) commits.clear()
    commits.set(key, hit)
  }
  return hit
}

/** How a changed quote stood when its note was written, in the file that holds it now. */
export interface QuoteThen {
  readonly commit: CommitThen
  /** The best match in that file then; null when the file did not exist then. */
  readonly match: SnippetMatch | null
  /** The matched lines then, for the diff. */
  readonly region: string | null
}

/** The quote against `file` at the commit the note was written on; null when not known. */
export async function quoteThen(
  root: string,
  head: string | null,
  code: string,
  file: string,
  writtenMs: number,
  /** Files read ahead (`readQuoteFiles`), by commit and file. */
  read?: ReadonlyMap<string, ShowResult>,
): Promise<QuoteThen | null> {
  const commit = await commitAt(root, head, writtenMs)
  if (!commit) return null
  const shown =
    read?.get(`${commit.sha}\0${file}`) ??
    (await showAt(root, commit.sha, file, QUOTE_FILE_MAX_BYTES))
  if (!shown.ok) return { commit, match: null, region: null }
  const match = matchSnippet(code, shown.text)
  const region =
    match.kind === 'none'
      ? null
      : shown.text
          .split(/\r?\n/)
          .slice(match.startLine - 1, match.endLine)
          .join('\n')
  return { commit, match, region }
}

/**
 * The files `quoteThen` will read, read ahead: the file each quote is in now, at the commit
 * its note was written on, in two git runs per commit (show-many.ts) instead of one per file.
 */
export async function readQuoteFiles(
  root: string,
  head: string | null,
  asks: readonly { readonly file: string; readonly writtenMs: number }[],
): Promise<Map<string, ShowResult>> {
  const bySha = new Map<string, string[]>()
  for (const a of asks) {
    const commit = await commitAt(root, head, a.writtenMs)
    if (!commit) continue
    const list = bySha.get(commit.sha)
    if (list) list.push(a.file)
    else bySha.set(commit.sha, [a.file])
  }
  const out = new Map<string, ShowResult>()
  for (const [sha, files] of bySha) {
    const shown = await showManyAt(root, sha, files, QUOTE_FILE_MAX_BYTES)
    for (const [file, r] of shown) out.set(`${sha}\0${file}`, r)
  }
  return out
}
