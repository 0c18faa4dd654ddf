/**
 * Counts of the files or places using a piece of code that held when a note was written and
 * differ now (issue 12: counts that changed; count-claims.ts `usageCountClaims` reads them).
 * One `git grep -c` per claim and tree, over code files only (code-pathspecs.ts).
 */
import { changedCounts, usageCountClaims } from '../../core/audit/count-claims'
import { short, tick } from '../../core/audit/reason-text'
import { runGit } from '../git/run'
import { CODE_PATHSPECS } from './pickaxe'

const GIT_TIMEOUT_MS = 20_000
/** Claims counted per note (each is two whole-tree searches). */
const CLAIMS_MAX = 4

/** One reason per usage count of the note that equalled the code then and differs now. */
export async function usageCountFlips(
  root: string,
  head: string,
  then: string,
  text: string,
): Promise<string[]> {
  const out: string[] = []
  for (const claim of usageCountClaims(text).slice(0, CLAIMS_MAX)) {
    const [before, now] = await Promise.all([
      usesAt(root, then, claim.code),
      usesAt(root, head, claim.code),
    ])
    if (!before || !now) continue
    const ch = changedCounts(claim.count, before, now)[0]
    if (!ch) continue
    out.push(
      `the note counts ${claim.written} uses of ${tick(claim.code)}: ${claim.count} ${ch.what} when the note was written (${short(then)}), ${ch.now} now`,
    )
  }
  return out
}

/** Code files and lines holding `code` at a commit; null when git could not say. */
async function usesAt(
  root: string,
  rev: string,
  code: string,
): Promise<Map<string, number> | null> {
  const r = await runGit(
    ['grep', '-z', '-c', '-I', '-F', '-e', code, rev, '--', ...CODE_PATHSPECS],
    {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
    },
  )
  // 1: no match.
  if (r.code !== 0 && r.code !== 1) return null
  let files = 0
  let lines = 0
  for (const rec of r.stdout.split('\n')) {
    const n = Number(rec.slice(rec.lastIndexOf('\0') + 1))
    if (rec === '' || !Number.isFinite(n)) continue
    files++
    lines += n
  }
  return new Map([
    ['code files holding it', files],
    ['code lines holding it', lines],
  ])
}
