/** The desktop notification of a memory notice (issue 18 item 4): words, the fix named. */
import type { MemoryNotice } from '../shared/api-contract'

export function noticeNotification(n: MemoryNotice): { title: string; body: string } {
  if (n.kind === 'past-cutoff') {
    const count = n.entriesNotLoaded.toLocaleString()
    return {
      title: 'Memory written past the cutoff',
      body:
        `${count} ${n.entriesNotLoaded === 1 ? 'entry' : 'entries'} of ${n.file} no longer load at session start` +
        (n.newest ? `, the newest "${n.newest.title}"` : '') +
        '. Open Memory Curator to move it above the cutoff.',
    }
  }
  return {
    title: 'A memory line was removed by another session',
    body: `"${n.text.slice(0, 120)}" in ${n.file}. Open Memory Curator to restore it.`,
  }
}
