/**
 * Counts of the files or places using a piece of code that held when a note was written and
 * differ now (issue 12: counts that changed; count-claims.ts `usageCountClaims` reads them).
 * One `git grep -c` per claim and tree, over code files only (code-pathspecs.ts). Counts of a
 * noun in the file of a named piece of code (noun-counts.ts) ride along.
 */
import { changedCounts, usageCountClaims } from '../../core/audit/count-claims'
import { nounCountClaims, type NounCountClaim } from '../../core/audit/noun-counts'
import { isTestFile } from '../../core/audit/name-loss'
import { short, tick } from '../../core/audit/reason-text'
import { runGit } from '../git/run'
import { CODE_PATHSPECS } from './pickaxe'
import { folderNounFlips, folderWordFlips } from './folder-noun-counts'

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
  for (const claim of nounCountClaims(text).slice(0, CLAIMS_MAX)) {
    const why = await nounCountFlip(root, head, then, claim)
    if (why) out.push(why)
  }
  out.push(...(await folderNounFlips(root, head, then, text)))
  out.push(...(await folderWordFlips(root, head, then, text)))
  return out
}

/**
 * "`create_app()` registers all 11 blueprints": the file holding the name whose lines with the
 * noun numbered the count when the note was written, and its lines now (noun-counts.ts).
 */
async function nounCountFlip(
  root: string,
  head: string,
  then: string,
  claim: NounCountClaim,
): Promise<string | null> {
  const before = await filesHolding(root, then, claim.name)
  if (!before || before.length > FILES_MAX) return null
  const counted = await nounLines(root, then, claim.noun, before)
  const file = before.find((f) => counted?.get(f) === claim.count)
  if (!file) return null
  // The same file now, or the one file of its name that holds the name (moved with it).
  const now = (await filesHolding(root, head, claim.name)) ?? []
  const base = file.slice(file.lastIndexOf('/') + 1)
  const namesakes = now.filter((f) => f.slice(f.lastIndexOf('/') + 1) === base)
  const nowFile = now.includes(file) ? file : namesakes.length === 1 ? namesakes[0] : null
  if (nowFile === null) return null
  const n = (await nounLines(root, head, claim.noun, [nowFile]))?.get(nowFile) ?? 0
  if (n === claim.count) return null
  const moved = nowFile === file ? '' : ` (now ${tick(nowFile)})`
  return `the note counts ${claim.written} of ${tick(claim.name)}: ${tick(file)} had ${claim.count} code lines with "${claim.noun}" when the note was written (${short(then)}), ${n} now${moved}`
}

/** Files beyond which a name is too common to say whose lines were counted. */
const FILES_MAX = 20

/** Code files (no tests) holding a name as a word at a commit; null when git could not say. */
async function filesHolding(root: string, rev: string, name: string): Promise<string[] | null> {
  const r = await runGit(
    ['grep', '-z', '-l', '-w', '-I', '-F', '-e', name, rev, '--', ...CODE_PATHSPECS],
    {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
    },
  )
  if (r.code !== 0 && r.code !== 1) return null
  return r.stdout
    .split('\0')
    .filter((f) => f !== '')
    .map((f) => f.slice(rev.length + 1))
    .filter((f) => !isTestFile(f))
}

/** Lines holding a noun in any case, per file, at a commit; null when git could not say. */
async function nounLines(
  root: string,
  rev: string,
  noun: string,
  files: readonly string[],
): Promise<Map<string, number> | null> {
  const specs = files.map((f) => `:(literal)${f}`)
  const r = await runGit(['grep', '-z', '-c', '-i', '-I', '-F', '-e', noun, rev, '--', ...specs], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
  })
  if (r.code !== 0 && r.code !== 1) return null
  const out = new Map<string, number>()
  for (const rec of r.stdout.split('\n')) {
    const [where, n] = rec.split('\0')
    if (where && n) out.set(where.slice(rev.length + 1), Number(n))
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
