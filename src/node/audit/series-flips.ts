/**
 * Numbered series a note writes by their ends (`BT1~BT7`: src/core/audit/count-claims.ts
 * `seriesClaims`) that the code continues now: the next member (`BT8`) is a whole word in a code
 * file beside the last one the note gives. A reason the note is suspect (claim-flips.ts), naming
 * where the code has it; files the note names are looked at first.
 *
 * Decisions:
 * - One `git grep` of the work tree's code files (docs and notes excluded: prose-grep.ts) for the
 *   last and the next member of every series of the notes asked.
 * - Like a plan state (plan-flips.ts), the series need not have ended there at the note's commit:
 *   a list the code has outgrown is wrong now either way.
 */
import { seriesClaims } from '../../core/audit/count-claims'
import { tick } from '../../core/audit/reason-text'
import { runGit } from '../git/run'
import { CODE_PATHSPECS } from './pickaxe'

const GREP_TIMEOUT_MS = 30_000
const GREP_MAX_BYTES = 8 * 1024 * 1024

/** For each note, the series the code now continues (empty: none). */
export async function seriesFlips(
  root: string,
  asks: readonly { readonly text: string; readonly named: readonly string[] }[],
): Promise<string[][]> {
  const claims = asks.map((a) => seriesClaims(a.text))
  const words = [
    ...new Set(claims.flat().flatMap((c) => [c.prefix + c.last, c.prefix + (c.last + 1)])),
  ]
  if (words.length === 0) return asks.map(() => [])
  const r = await runGit(
    ['grep', '-I', '-n', '-w', '-F', ...words.flatMap((w) => ['-e', w]), '--', ...CODE_PATHSPECS],
    { cwd: root, timeoutMs: GREP_TIMEOUT_MS, maxBytes: GREP_MAX_BYTES },
  )
  // git grep exits 1 when nothing matched.
  if (r.code !== 0) return asks.map(() => [])
  const hits = new Map<string, { file: string; line: number }[]>()
  for (const row of r.stdout.split('\n')) {
    const m = /^(.+?):(\d+):(.*)$/.exec(row)
    if (!m) continue
    for (const w of words)
      if (new RegExp(`(?<![\\w])${w}(?![\\w])`).test(m[3]))
        hits.set(w, [...(hits.get(w) ?? []), { file: m[1], line: Number(m[2]) }])
  }
  return asks.map((a, i) =>
    claims[i].flatMap((c) => {
      const next = `${c.prefix}${c.last + 1}`
      const at = hits.get(next) ?? []
      if (at.length === 0 || !hits.has(`${c.prefix}${c.last}`)) return []
      const shown = at.find((h) => a.named.includes(h.file)) ?? at[0]
      return [
        `the note gives the series ${tick(c.written)}, ending at ${c.prefix}${c.last}; the code has ${tick(next)} too (${tick(`${shown.file}:${shown.line}`)})`,
      ]
    }),
  )
}
