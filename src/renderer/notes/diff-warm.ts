/**
 * Issue 16 (a note's diff within 150 ms of a click): once the selected note's diff is drawn and
 * the window is idle, ask the back end for the diffs of the next notes in the list, and drop the
 * answers. Nothing is kept here — a click still reads both sides at the time of the click — but the
 * back end keeps each file as of its commit (diff-read.ts), so the next click runs no `git show`.
 * Only while the selected note's diff came quickly, i.e. from a kept audit that still holds.
 */
import { useEffect } from 'react'
import { getApi } from '../api/api-client'
import { afterDiff, lastDiffWasQuick } from './diff-first'
import { findNote, listKeys, type NotesState } from './notes-state'

/** Notes after the selected one whose diffs are asked for ahead. */
const AHEAD = 2

export function useWarmNextDiffs(
  state: NotesState,
  mode: 'notes' | 'queue',
  memoryDir: string,
  repoRoot: string | null,
): void {
  const selected = state.selectedKey
  // The keys after the selection, as a string so the effect runs only when they change.
  const keys = listKeys(state, mode)
  const at = selected === null ? -1 : keys.indexOf(selected)
  const next = at < 0 ? '' : keys.slice(at + 1, at + 1 + AHEAD).join('\n')
  useEffect(() => {
    if (next === '') return
    let live = true
    const idle = (): Promise<void> =>
      new Promise((ok) => {
        if ('requestIdleCallback' in window)
          window.requestIdleCallback(() => ok(), { timeout: 2000 })
        else setTimeout(ok, 200)
      })
    void (async () => {
      await afterDiff()
      // Not while the kept audit no longer holds: each would then be a fresh look (seconds of git).
      if (!lastDiffWasQuick()) return
      for (const key of next.split('\n')) {
        await idle()
        const note = live ? findNote(state, key) : null
        if (!note) return
        const known = note.writtenAtSource === 'transcript' ? note.writtenAt : null
        await getApi()
          .noteDiffs(memoryDir, repoRoot, note.file, note.line, known)
          .catch(() => undefined)
      }
    })()
    return () => {
      live = false
    }
    // `state` is read for the notes of `next` only; a new audit changes `next`'s notes' keys.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [next, memoryDir, repoRoot])
}
