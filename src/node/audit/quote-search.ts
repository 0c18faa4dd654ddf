/**
 * Where a note's quoted code is now: the lines to search for (its most distinctive ones),
 * and the best match among the files its note names, then the files holding those lines.
 */
import {
  distinctiveLines,
  distinctiveToken,
  matchSnippet,
  normaliseLines,
} from '../../core/audit/snippet-match'
import type { SnippetFinding } from '../../core/audit/repo-facts'
import { readRepoFile } from './repo-file'

/** Files read when looking for one quote. */
const MAX_SNIPPET_CANDIDATES = 10

/** One quote to look for, and the files to read for it, best first. */
export interface Quote {
  readonly code: string
  readonly candidates: readonly string[]
}

/** The patterns a search for this quote looks for: its distinctive lines, or one token. */
export function quoteProbes(code: string): string[] {
  const lines = distinctiveLines(code)
  const norm = normaliseLines(code)
  const token = norm.length === 1 ? distinctiveToken(norm[0].text) : null
  return token ? [...lines, token] : lines
}

/**
 * The best match of each quote, keyed by its code; the text of the file each was found in
 * goes into `texts` (for diffs). Each file is read once.
 */
export async function findQuotes(
  root: string,
  quotes: readonly Quote[],
  texts: Map<string, string>,
): Promise<Map<string, SnippetFinding>> {
  const snippets = new Map<string, SnippetFinding>()
  const fileText = new Map<string, string | null>()
  const readRel = async (rel: string): Promise<string | null> => {
    if (!fileText.has(rel)) {
      const r = await readRepoFile(root, rel)
      fileText.set(rel, r.ok ? r.text : null)
    }
    return fileText.get(rel) ?? null
  }
  for (const q of quotes) {
    let best: SnippetFinding = { file: null, match: matchSnippet(q.code, '') }
    for (const c of q.candidates.slice(0, MAX_SNIPPET_CANDIDATES)) {
      const text = await readRel(c)
      if (text === null) continue
      const m = matchSnippet(q.code, text)
      if (m.score > best.match.score || (best.file === null && m.kind !== 'none')) {
        best = { file: c, match: m }
        texts.set(q.code, text)
      }
      if (m.kind === 'exact') break
    }
    snippets.set(q.code, best)
  }
  return snippets
}
