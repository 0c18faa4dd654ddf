/**
 * History indexes already read (history.ts `readHistory`), by work tree and HEAD: the commit a
 * note was written on comes from one instead of a `git log -1 --before` per note time
 * (quote-then.ts `commitAt`; issue 16: a memory of notes written at many times started one git
 * process per time).
 */
import type { HistoryIndex } from '../../core/git/parse'
import { BoundedCache } from '../cache/bounded-cache'

const readIndexes = new BoundedCache<string, HistoryIndex>(16)

export function keepIndex(root: string, head: string, index: HistoryIndex): void {
  readIndexes.set(`${root}\0${head}`, index)
}

/** The index read for this work tree at this HEAD, if any. */
export const historyRead = (root: string, head: string | null): HistoryIndex | undefined =>
  head === null ? undefined : readIndexes.get(`${root}\0${head}`)

export function forgetIndexes(): void {
  readIndexes.clear()
}
