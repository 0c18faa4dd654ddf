/** How reasons name commits, days and code: one wording for every check and verdict. */
import type { RenameStep } from '../git/parse'

export const short = (sha: string): string => sha.slice(0, 7)
export const day = (iso: string): string => iso.slice(0, 10)
export const tick = (s: string): string => `\`${s}\``

export function describeSteps(steps: readonly RenameStep[]): string {
  return steps
    .map(
      (s, i) =>
        `${i === 0 ? 'was renamed' : 'then'} to ${tick(s.to)} in ${short(s.sha)} on ${day(s.date)}`,
    )
    .join(', ')
}
