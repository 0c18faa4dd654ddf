/**
 * `memory-curator watch` (docs/cli.md §14): follows the Claude home's memory folders and writes
 * one line on stderr for each notice of src/node/hooks/memory-monitor.ts — an index written
 * past the load cutoff, a line a parallel session removed — with the fix to apply in the app.
 * With `--json`, one JSON object per notice on stdout instead. Runs until stopped (Ctrl+C).
 */
import type { Command } from '../args'
import { createCliBackend } from '../backend-call'
import type { MemoryNotice } from '../../shared/api-contract'
import { resolveHomes } from '../../node/memory/homes'
import { watchMemory } from '../../node/memory/watch'

/** How long stopping may take after Ctrl+C or SIGTERM before the process ends regardless. */
const STOP_GRACE_MS = 5_000

const n = (x: number): string => x.toLocaleString('en-US')

/** The line a notice becomes, naming the fix. */
export function noticeLine(notice: MemoryNotice): string {
  if (notice.kind === 'past-cutoff') {
    const newest = notice.newest
      ? `; the newest is "${notice.newest.title}" (line ${n(notice.newest.line)})`
      : ''
    return (
      `memory-curator: ${notice.file}: ${n(notice.entriesNotLoaded)} ${notice.entriesNotLoaded === 1 ? 'entry does' : 'entries do'} ` +
      `not load at session start (cutoff at line ${n(notice.firstUnloadedLine)})${newest}. ` +
      `Fix: open it in the app (memory-curator serve), Memory tab, "Move above the cutoff".`
    )
  }
  return (
    `memory-curator: ${notice.file}: session ${notice.removedBy} removed a line session ` +
    `${notice.addedBy} wrote: ${JSON.stringify(notice.text)}. ` +
    `Fix: restore it in the app (memory-curator serve), History tab, "Restore".`
  )
}

export async function run(cmd: Extract<Command, { kind: 'watch' }>): Promise<number> {
  const homes = resolveHomes(cmd.global)
  const backend = await createCliBackend(homes)
  backend.onMemoryNotice((notice) => {
    if (cmd.global.json) process.stdout.write(`${JSON.stringify(notice)}\n`)
    else process.stderr.write(`${noticeLine(notice)}\n`)
  })
  const watch = watchMemory(backend, { claudeHome: homes.claudeHome })
  await watch.ready
  process.stderr.write(`watching the memory folders of ${homes.claudeHome} — Ctrl+C to stop\n`)
  await new Promise<void>((done) => {
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
  // Stopping never hangs the terminal or a supervisor: a second signal, or 5 s, ends the
  // process whatever is still closing (a watcher or a job of the back end).
  const quit = (): never => process.exit(0)
  process.once('SIGINT', quit)
  process.once('SIGTERM', quit)
  setTimeout(quit, STOP_GRACE_MS).unref()
  await watch.stop()
  await backend.dispose()
  return 0
}
