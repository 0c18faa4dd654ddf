/**
 * Git runs cut off by their time limit, gathered per job (issue 12: a search that times out
 * answers nothing, so the finding it would have made is missing and a note can read fresh
 * that is not; the job says so instead of dropping it silently).
 *
 * Decisions:
 * - AsyncLocalStorage, not a parameter through every search: each audit (the window may run
 *   several at once) gathers only its own runs, and no search module changes its signature.
 * - Only time limits are gathered. An output cap is a search's own deterministic answer ("too
 *   many lines to say"); a time limit depends on the machine's load, so the same note on the
 *   same commits could read fresh in one run and suspect in the next.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** One run cut off: its subcommand, and the limit it hit. */
export interface CutOff {
  readonly command: string
  readonly limitMs: number
}

const gathered = new AsyncLocalStorage<CutOff[]>()

/** Run a job, gathering every git run its async work had cut off by a time limit. */
export async function gatheringCutOffs<T>(
  job: () => Promise<T>,
): Promise<{ readonly value: T; readonly cutOffs: readonly CutOff[] }> {
  const cutOffs: CutOff[] = []
  const value = await gathered.run(cutOffs, job)
  return { value, cutOffs }
}

/** Called by the runner (run.ts) when it kills a git run at its time limit. */
export function cutOff(args: readonly string[], limitMs: number): void {
  gathered.getStore()?.push({ command: `git ${args[0] ?? ''}`, limitMs })
}

/** One line for a person: which searches were cut off (grouped), and what that means. */
export function cutOffsText(cutOffs: readonly CutOff[]): string {
  const counts = new Map<string, number>()
  for (const c of cutOffs) {
    const limit = c.limitMs < 1000 ? `${c.limitMs} ms` : `${Math.round(c.limitMs / 1000)} s`
    const k = `${c.command} (limit ${limit})`
    counts.set(k, (counts.get(k) ?? 0) + 1)
  }
  const runs = [...counts].map(([k, n]) => (n === 1 ? k : `${k} ×${n}`)).join(', ')
  return `${cutOffs.length === 1 ? 'a search' : `${cutOffs.length} searches`} ran out of time: ${runs}`
}
