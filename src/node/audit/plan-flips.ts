/**
 * Plan states in plain words (src/core/audit/plan-claims.ts) that the code now contradicts: what
 * the note gives as not made yet is in the code. Each found one is a reason the note is suspect
 * (claim-flips.ts), naming the file that holds it.
 *
 * Decisions:
 * - Two kinds of evidence, code files only (docs, notes and plans name plans, not code:
 *   src/core/git/code-pathspecs.ts):
 *   - a tracked code file whose path holds every word of the item (`vehicle-reflection/…` for
 *     "Vehicle reflections … NOT built"); an item of one word needs a file added since the
 *     note's commit, since one word in some path ("page") says little on its own;
 *   - a code file of the subject (its path holds a word of the note's title: `water.plugin.ts`
 *     under "Simple water plan") whose text holds every word of the item, each at a word's start
 *     (`ShaderMaterial` for "no shader yet").
 * - Unlike absence-claims.ts, the claim need not have held at the note's commit: a plan state is
 *   about the project, and a note that kept "NOT built" after it was built is as wrong as one
 *   that went stale. The reason says which, when the note's commit is known.
 * - At most SUBJECT_FILES_MAX files are read per claim, each up to FILE_MAX_BYTES.
 * - Third, when the code shows nothing: the commits since the note's commit (merges left out, the
 *   newest SUBJECTS_MAX) whose subject names the item, its first two words side by side
 *   ("Complete guard expressions: …" for "TODO: Guard expressions for type constraints"). A
 *   commit that says it worked on the planned thing is no proof it is done, but it is what a
 *   person should read before trusting "not made yet": suspect, quoting the subject. An item of
 *   one word says too little to look for in prose, and is not looked for.
 */
import { pathWords, planClaims, subjectNames, type PlanClaim } from '../../core/audit/plan-claims'
import { day, short, tick } from '../../core/audit/reason-text'
import { runGit } from '../git/run'
import { isCodePathspecFile } from '../../core/git/code-pathspecs'
import { readRepoFile } from './repo-file'

const SUBJECT_FILES_MAX = 40
const TEST_RE = /(?:^|\/)(?:__tests__|tests?|spec)\/|[._-](?:test|spec)\.[^/]+$/
const FILE_MAX_BYTES = 512 * 1024

export interface PlanAsk {
  readonly text: string
  readonly title: string
  /** The note's commit, when known. */
  readonly then: string | null
}

/** For each note, the reasons the code contradicts a plan state it gives (empty: none). */
export async function planFlips(
  root: string,
  tracked: ReadonlySet<string>,
  asks: readonly PlanAsk[],
  treeAt: (rev: string) => Promise<ReadonlySet<string> | null>,
): Promise<string[][]> {
  const claims = asks.map((a) => planClaims(a.text, a.title))
  if (claims.every((c) => c.length === 0)) return asks.map(() => [])
  // Tests last: a plan is made in the code a test exercises.
  const code = [...tracked]
    .filter(isCodePathspecFile)
    .sort((a, b) => Number(TEST_RE.test(a)) - Number(TEST_RE.test(b)))
    .map((f) => ({ f, words: pathWords(f) }))
  const logs = new Map<string, Promise<Subject[]>>()
  const subjectsSince = (then: string): Promise<Subject[]> => {
    let l = logs.get(then)
    if (!l) logs.set(then, (l = commitSubjects(root, then)))
    return l
  }
  return Promise.all(
    asks.map(async (a, i) => {
      const out: string[] = []
      for (const c of claims[i]) {
        const why =
          (await contradiction(root, code, c, a.then, treeAt)) ??
          (a.then !== null && c.items.length > 1 ? saidDone(c, await subjectsSince(a.then)) : null)
        if (why !== null) out.push(why)
      }
      return out
    }),
  )
}

/** Commit subjects read since a note's commit, newest first. */
const SUBJECTS_MAX = 2000

interface Subject {
  readonly sha: string
  readonly date: string
  readonly text: string
}

async function commitSubjects(root: string, then: string): Promise<Subject[]> {
  const r = await runGit(
    [
      'log',
      '--no-merges',
      `-${SUBJECTS_MAX}`,
      '-z',
      '--format=%H%x00%cI%x00%s',
      `${then}..HEAD`,
      '--',
    ],
    { cwd: root, timeoutMs: 30_000, maxBytes: 4 * 1024 * 1024 },
  )
  if (r.code !== 0) return []
  const f = r.stdout.split('\0')
  const out: Subject[] = []
  for (let i = 0; i + 2 < f.length; i += 3)
    out.push({ sha: f[i].trim(), date: f[i + 1], text: f[i + 2] })
  return out
}

/** The oldest commit since the note whose subject names the claim's item (its first two words). */
function saidDone(c: PlanClaim, subjects: readonly Subject[]): string | null {
  const [a, b] = c.items
  for (let i = subjects.length - 1; i >= 0; i--) {
    const w = subjectNames(subjects[i].text)
    for (let k = 0; k + 1 < w.length; k++) {
      if (w[k] !== a || w[k + 1] !== b) continue
      const s = subjects[i]
      return `the note gives ${c.items.join(' ')} as not made yet (“${c.written}”); ${short(s.sha)} on ${day(s.date)}, since the note was written, says “${s.text.slice(0, 120)}”`
    }
  }
  return null
}

async function contradiction(
  root: string,
  code: readonly { f: string; words: Set<string> }[],
  c: PlanClaim,
  then: string | null,
  treeAt: (rev: string) => Promise<ReadonlySet<string> | null>,
): Promise<string | null> {
  const says = `the note gives ${c.items.join(' ')} as not made yet (“${c.written}”)`
  const before = then === null ? null : await treeAt(then)
  const named = code.filter((x) => c.items.every((w) => x.words.has(w)))
  const added = before === null ? [] : named.filter((x) => !before.has(x.f))
  const file = c.items.length > 1 ? (added[0] ?? named[0]) : added[0]
  if (file !== undefined) {
    const when =
      before === null
        ? ''
        : before.has(file.f)
          ? ' (it was there when the note was written too)'
          : ' (added since the note was written)'
    return `${says}; ${tick(file.f)} is in the code now${when}`
  }
  const subject = c.subject.filter((w) => !c.items.includes(w))
  if (subject.length === 0) return null
  const files = code.filter((x) => subject.some((w) => x.words.has(w))).slice(0, SUBJECT_FILES_MAX)
  const res = c.items.map((w) => new RegExp(`(?<![A-Za-z])${w}`, 'i'))
  for (const { f } of files) {
    // Through the repository's reader: a tracked link out of the repository is not its code.
    const r = await readRepoFile(root, f, { maxBytes: FILE_MAX_BYTES })
    if (!r.ok || !res.every((re) => re.test(r.text))) continue
    const text = r.text
    const at = text.slice(0, text.search(res[0])).split('\n').length
    return `${says}; ${tick(`${f}:${at}`)} has it in the code now`
  }
  return null
}
