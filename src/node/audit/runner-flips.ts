/**
 * A note's package-manager commands against the repository when the note was written and now
 * (issue 12: commands that no longer run as written):
 * - the manager it names was replaced (its lock file went, another's came), or the one manager
 *   the repository locked with gave way to another (src/core/audit/package-managers.ts);
 * - a script the root package.json had then is only in another package's now (blind set AC:
 *   `pnpm start` in the root notes of a repository split into `frontend/` and `backend/`),
 *   while the note does not say to run it there.
 */
import type { CheckedReference } from '../../core/audit/checked-reference'
import { isPackageManager, lockFiles, managerSwitch } from '../../core/audit/package-managers'
import { short, tick } from '../../core/audit/reason-text'
import { scriptsAt } from './script-flips'

/** What the runner checks need of the repository. */
export interface RunnerRepo {
  readonly root: string
  readonly head: string
  /** The tracked paths at a commit (claim-flips.ts's cache of trees). */
  readonly treeAt: (rev: string) => Promise<ReadonlySet<string> | null>
  /** The package.json files that define each script now (repo-manifests.ts). */
  readonly scripts: ReadonlyMap<string, readonly string[]>
}

/** Each tree's lock files, read once (a tree is read for every note that runs a command). */
const locks = new WeakMap<ReadonlySet<string>, ReturnType<typeof lockFiles>>()
function locksOf(tree: ReadonlySet<string>): ReturnType<typeof lockFiles> {
  let l = locks.get(tree)
  if (!l) locks.set(tree, (l = lockFiles(tree)))
  return l
}

/** One reason per replaced manager, and per script that left the root package.json. */
export async function runnerFlips(
  repo: RunnerRepo,
  then: string,
  text: string,
  checked: readonly CheckedReference[],
  /** The note's file, relative to the repository root ('' when outside it). */
  noteFile = '',
): Promise<string[]> {
  const commands = checked.flatMap((c) =>
    c.ref.kind === 'command' && isPackageManager(c.ref.runner)
      ? [
          {
            runner: c.ref.runner,
            target: c.ref.target,
            text: c.ref.text,
            ok: c.audit.status === 'ok',
          },
        ]
      : [],
  )
  if (commands.length === 0) return []
  const out: string[] = []
  const [before, now] = await Promise.all([repo.treeAt(then), repo.treeAt(repo.head)])
  if (before && now) {
    const [locksThen, locksNow] = [locksOf(before), locksOf(now)]
    const told = new Set<string>()
    for (const c of commands) {
      const sw = managerSwitch(c.runner, locksThen, locksNow)
      if (!sw || told.has(c.runner)) continue
      told.add(c.runner)
      out.push(
        `the note runs ${tick(c.text)}: the repository used ${sw.from} when the note was written (${tick(sw.was)} at ${short(then)}); ${tick(sw.was)} is gone now and ${tick(sw.lock)} says it uses ${sw.by}`,
      )
    }
  }
  const moved = commands.filter(
    (c) => c.ok && !(repo.scripts.get(c.target) ?? []).includes('package.json'),
  )
  if (moved.length === 0) return out
  const rootThen = await scriptsAt(repo.root, then)
  for (const c of moved) {
    if (!rootThen || !Object.hasOwn(rootThen, c.target)) continue
    const elsewhere = (repo.scripts.get(c.target) ?? []).filter((f) => f !== 'package.json')
    // No script anywhere: the command runs a dependency's program (check-reference.ts).
    if (elsewhere.length === 0) continue
    const folders = elsewhere.map((f) => f.replace(/\/?package\.json$/, ''))
    // `cd frontend && pnpm start`, "in `frontend/`", or a note in `frontend/CLAUDE.md`: the
    // note runs it where it is.
    if (folders.some((d) => d !== '' && (text.includes(d) || noteFile.startsWith(`${d}/`))))
      continue
    out.push(
      `the note runs ${tick(c.text)}: the root \`package.json\` had a ${tick(c.target)} script when the note was written (${short(then)}); now only ${elsewhere.slice(0, 2).map(tick).join(', ')}${elsewhere.length > 2 ? ', …' : ''} has it`,
    )
  }
  return out
}
