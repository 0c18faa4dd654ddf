/**
 * Files whose contents a partial clone does not have (`git clone --filter=blob:limit=…`): the
 * history walks of the audit (node/audit/pickaxe.ts) read every changed file's blobs, and git
 * stops at the first one it cannot read ("unable to read <oid>", or "could not fetch <oid> from
 * promisor remote": runGit sets GIT_NO_LAZY_FETCH, so nothing is fetched from the network). The walk is then asked again
 * with those files left out, so a large data file the clone skipped does not make every
 * note's history unknown.
 *
 * Decisions:
 * - Only after a walk failed so: a complete clone pays nothing.
 * - The missing objects come from `git rev-list --objects --missing=print HEAD` (`?<oid>`
 *   lines), their paths from `git log --raw` over the same history (every path a missing blob
 *   was ever at). Both are bounded like every git run; no answer means no retry.
 * - At most MISSING_PATHS_MAX paths are left out (each is a pathspec git matches against every
 *   tree entry it diffs); more than that and the walk stays unknown.
 * - One answer per (repository, HEAD) for the process.
 */
import { BoundedCache } from '../cache/bounded-cache'
import { runGit, type GitResult } from './run'

const MISSING_TIMEOUT_MS = 60_000
const MISSING_MAX_BYTES = 256 * 1024 * 1024
const MISSING_PATHS_MAX = 500

const cache = new BoundedCache<string, Promise<readonly string[] | null>>(32)

/** Whether a failed git run stopped on an object the clone does not have. */
export function stoppedOnMissingObject(r: GitResult): boolean {
  return (
    r.code !== 0 &&
    /\bunable to read [0-9a-f]{40,64}\b|\bcould not fetch [0-9a-f]{40,64} from promisor remote\b/.test(
      r.stderr,
    )
  )
}

/**
 * Pathspecs leaving out every path a missing blob was at in the history of `revs` (commits by
 * id, so an answer never goes stale); null: unknown.
 */
export function missingBlobExcludes(
  root: string,
  revs: readonly string[],
): Promise<readonly string[] | null> {
  const key = `${root}\0${revs.join('\0')}`
  const known = cache.get(key)
  if (known) return known
  const run = findExcludes(root, revs)
  cache.set(key, run)
  void run.then((v) => {
    if (v === null) cache.delete(key)
  })
  return run
}

async function findExcludes(
  root: string,
  revs: readonly string[],
): Promise<readonly string[] | null> {
  const opts = { cwd: root, timeoutMs: MISSING_TIMEOUT_MS, maxBytes: MISSING_MAX_BYTES }
  const [objects, raw] = await Promise.all([
    runGit(['rev-list', '--objects', '--missing=print', ...revs, '--'], opts),
    runGit(['log', '--raw', '--no-abbrev', '--no-renames', '-z', '--format=', ...revs, '--'], opts),
  ])
  if (objects.code !== 0 || raw.code !== 0) return null
  const missing = new Set<string>()
  for (const line of objects.stdout.split('\n'))
    if (line.startsWith('?')) missing.add(line.slice(1).trim())
  if (missing.size === 0) return null
  const paths = new Set<string>()
  // `-z --raw`: `:<mode> <mode> <old> <new> <status>` NUL `<path>` NUL, one per change.
  const parts = raw.stdout.split('\0')
  for (let i = 0; i < parts.length - 1; i++) {
    const entry = parts[i].trim()
    if (!entry.startsWith(':')) continue
    const f = entry.split(' ')
    const path = parts[i + 1]
    if ((missing.has(f[2]) || missing.has(f[3])) && path !== '') paths.add(path)
    i++
  }
  if (paths.size === 0 || paths.size > MISSING_PATHS_MAX) return null
  return [...paths].map((p) => `:(exclude,literal)${p}`)
}

/** The repository-relative path of an exclude pathspec made here. */
export const excludedPath = (spec: string): string => spec.replace(/^:\(exclude,literal\)/, '')

/** Forget what was found (tests rewrite repositories). */
export function clearMissingBlobCache(): void {
  cache.clear()
}
