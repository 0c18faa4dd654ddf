/**
 * A name with a value (`network_proximity: 4`, `"react": "^19.0.0"`) whose name is on more code
 * lines than the search keeps (LINES_PER_PATTERN): the kept lines may miss the one that holds
 * the value. One search per such pair, of the work tree's lines holding the name and the
 * value's first number, tells (prose-then.ts): a line holds it, none does, or the search could
 * not tell (it failed, or it too was cut). Without it such a pair was either read as gone on
 * the first 200 lines (blind set DN `oi-t02`) or never judged (the visible set's
 * `ap-cmd-min-score`, a value changed among 200 data lines of its name).
 */
import { runGit } from '../git/run'
import { pairInLine, type ProsePair } from '../../core/audit/prose-names'
import { isCommentLine, isTestFile } from '../../core/audit/name-loss'
import { isBuiltOutput, LINES_PER_PATTERN, searchedFiles, type GrepFound } from './prose-grep'

export type PastCap = 'holds' | 'not' | 'unknown'

const TIMEOUT_MS = 60_000
const MAX_BYTES = 16 * 1024 * 1024

/** Whether the search for a pair's name kept fewer lines than it found (its lines were cut). */
export const isCapped = (found: GrepFound, pair: ProsePair): boolean =>
  ((pair.manifest ? found.manifest : found.code).get(pair.name)?.length ?? 0) >= LINES_PER_PATTERN

/** How each capped pair stands in the work tree (tracked files as on disk, and untracked). */
export async function pastCap(
  root: string,
  found: GrepFound,
  pairs: readonly ProsePair[],
  exclude: readonly string[],
): Promise<Map<ProsePair, PastCap>> {
  const out = new Map<ProsePair, PastCap>()
  for (const pair of pairs) {
    // Tests exercise old values on purpose (pairLines): a test's line counts only when no line
    // outside tests gives the name.
    const lines = (pair.manifest ? found.manifest : found.code).get(pair.name) ?? []
    const tests = pair.manifest || lines.every((l) => isTestFile(l.path))
    out.set(pair, await oneSearch(root, pair, tests, exclude))
  }
  return out
}

async function oneSearch(
  root: string,
  pair: ProsePair,
  tests: boolean,
  exclude: readonly string[],
): Promise<PastCap> {
  const number = /\d+/.exec(pair.value)?.[0]
  if (number === undefined) return 'unknown'
  const args = ['grep', '-z', '-n', '-I', '-F', '--no-color', '--untracked']
  if (pair.manifest) args.push('-i')
  args.push('-e', pair.name, '--and', '-e', number, '--', ...searchedFiles(pair.manifest, exclude))
  const r = await runGit(args, { cwd: root, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES })
  // Exit 1: no line holds both.
  if (r.code === 1) return 'not'
  if (r.code !== 0) return 'unknown'
  for (const row of r.stdout.split('\n')) {
    const [path, num, ...rest] = row.split('\0')
    if (num === undefined || rest.length === 0) continue
    const text = rest.join('\0').replace(/\r$/, '')
    // As pairLines reads code: build output, notebooks and comments give no setting.
    if (isBuiltOutput(path, text) || /\.ipynb$/i.test(path)) continue
    if (!pair.manifest && isCommentLine(text)) continue
    if ((tests || !isTestFile(path)) && pairInLine(text, pair) === 'holds') return 'holds'
  }
  // Every line holding both was read (more than the output's bound fails the run above).
  return 'not'
}
