/**
 * Counts a note gives beside a folder, document or file it names (src/core/audit/count-claims.ts)
 * that held when it was written and differ now: a folder's entries, a document's numbered items,
 * a table's rows, a file's lines. A reason the note is suspect (claim-flips.ts), with the counts
 * then and now.
 */
import {
  changedCounts,
  countClaims,
  documentCounts,
  tableCounts,
  folderCounts,
  lineCounts,
  type Entry,
} from '../../core/audit/count-claims'
import { short, tick } from '../../core/audit/reason-text'
import { extractReferences } from '../../core/audit/references'
import { showAt } from '../git/history'
import { runGit } from '../git/run'
import type { CheckedReference } from '../../core/audit/checked-reference'
import { resolvedPath } from './repo-file'

const GIT_TIMEOUT_MS = 30_000
const SHOW_MAX_BYTES = 2 * 1024 * 1024

/** A note as the count and option checks read it: its checked text and references. */
export interface SaidNote {
  readonly text: string
  readonly checked: readonly CheckedReference[]
}

/** Counts beside a named folder or document that held then and differ now. */
export async function countFlips(
  root: string,
  head: string,
  then: string,
  ask: SaidNote,
  factsRoot: string,
): Promise<string[]> {
  const out: string[] = []
  // A pattern is not checked (check-path.ts), but its fixed folder can be counted.
  const patterns = extractReferences(ask.text).filter((r) => r.kind === 'path' && r.pattern)
  const claims = countClaims(ask.text, [...ask.checked.map((c) => c.ref), ...patterns])
  for (const claim of claims) {
    const rel = claim.fixed ? claim.path : resolvedPath(ask.checked, claim.path, factsRoot)
    if (rel === null) continue
    const counts = async (rev: string): Promise<Map<string, number> | null> => {
      const entries = await listFolder(root, rev, rel)
      if (entries !== null && entries.length > 0) return claim.lines ? null : folderCounts(entries)
      if (claim.lines) {
        const shown = await showAt(root, rev, rel, SHOW_MAX_BYTES)
        return shown.ok ? lineCounts(shown.text) : null
      }
      const table = /\.(?:csv|tsv)$/i.test(rel)
      if (!table && !/\.(?:md|markdown|mdx|txt|rst)$/i.test(rel)) return null
      const shown = await showAt(root, rev, rel, SHOW_MAX_BYTES)
      if (!shown.ok) return null
      return table ? tableCounts(shown.text) : documentCounts(shown.text)
    }
    const [before, now] = [await counts(then), await counts(head)]
    if (!before || !now) continue
    const changed = changedCounts(claim.count, before, now, claim.approx)
    if (changed.length === 0) continue
    const ch = changed[0]
    out.push(
      `the note counts ${claim.written} beside ${tick(claim.path)}: ${tick(rel)} held ${ch.then} ${ch.what} when the note was written (${short(then)}), ${ch.now} now`,
    )
  }
  return out
}

/** A folder's direct entries at a commit; null when it is not a folder there. */
async function listFolder(root: string, rev: string, rel: string): Promise<Entry[] | null> {
  const r = await runGit(['ls-tree', '-z', rev, '--', `${rel}/`], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
  })
  if (r.code !== 0) return null
  return r.stdout
    .split('\0')
    .filter((l) => l !== '')
    .map((l) => {
      const [meta, path] = l.split('\t')
      return { name: path.slice(path.lastIndexOf('/') + 1), dir: meta.split(' ')[1] === 'tree' }
    })
}
