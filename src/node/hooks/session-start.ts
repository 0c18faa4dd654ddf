/**
 * `memory-curator hook session-start` (issue 18 item 1): what a new Claude Code session should
 * know about its own memory. Claude Code runs the hook with a JSON object on standard input
 * (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `source`) and adds what it prints
 * to the session's context.
 *
 * Decisions (fast, and never in the way):
 * - The cutoff is always computed afresh: one read of MEMORY.md and a listing of its folder.
 * - Stale and wrong-from-the-start notes come from the last audit's digest (audit-digest.ts),
 *   never from an audit run here; with no digest, only the cutoff part is said.
 * - The memory folder is found as the agent finds it for that `cwd` (docs/memory-rules.md §1.5,
 *   §1.6): the main worktree's encoded path, unless auto memory is off or moved.
 * - Nothing to say prints nothing. Any failure prints nothing and adds one line to our log
 *   (hook-log.ts); the caller always exits 0.
 */
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import type { CutoffResult } from '../../shared/model'
import { cutoffFile } from '../memory/cutoff-file'
import { resolveAutoMemory, type Homes } from '../memory/homes'
import { findRepo } from '../git/repo'
import { loadAuditDigest, notesStillThere, type DigestNote } from './audit-digest'

/** Notes named in one notice (the issue's "at most 5"). */
export const NOTICE_MAX_NOTES = 5
/** Largest hook input read (Claude Code sends a few hundred bytes). */
export const HOOK_INPUT_MAX_BYTES = 64 * 1024

export interface HookInput {
  readonly sessionId: string | null
  readonly cwd: string
  readonly source: string | null
}

/** The fields we use from the hook's JSON; throws with a reason when there is no usable cwd. */
export function parseHookInput(text: string): HookInput {
  const data = JSON.parse(text) as unknown
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new Error('hook input is not a JSON object')
  const d = data as Record<string, unknown>
  const cwd = d.cwd
  if (typeof cwd !== 'string' || !isAbsolute(cwd) || cwd.includes('\0'))
    throw new Error('hook input has no absolute cwd')
  return {
    sessionId: typeof d.session_id === 'string' ? d.session_id.slice(0, 200) : null,
    cwd,
    source: typeof d.source === 'string' ? d.source.slice(0, 40) : null,
  }
}

export interface NoticeInput extends Homes {
  readonly cwd: string
  readonly stateDir: string
  readonly env: Record<string, string | undefined>
}

export interface SessionFindings {
  readonly memoryFile: string | null
  readonly cutoff: CutoffResult | null
  readonly notes: readonly DigestNote[]
  readonly auditedAt: string | null
}

/** What the notice is made of, for a launch directory. */
export async function sessionFindings(input: NoticeInput): Promise<SessionFindings> {
  const repo = await findRepo(input.cwd)
  const homeDir = input.env.HOME && input.env.HOME !== '' ? input.env.HOME : homedir()
  const memory = await resolveAutoMemory({
    claudeHome: input.claudeHome,
    managedDir: input.managedDir,
    homeDir,
    cwd: input.cwd,
    canonicalRoot: repo?.mainRoot ?? input.cwd,
    env: input.env,
  })
  if (memory.dir === null) return { memoryFile: null, cutoff: null, notes: [], auditedAt: null }
  const memoryFile = join(memory.dir, 'MEMORY.md')
  const [cutoff, digest] = await Promise.all([
    cutoffFile(memoryFile),
    loadAuditDigest(input.stateDir, memory.dir),
  ])
  const notes = digest ? await notesStillThere(digest) : []
  return { memoryFile, cutoff, notes, auditedAt: digest?.at ?? null }
}

const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** The notice text, or '' when all is well. */
export function noticeText(f: SessionFindings): string {
  const parts: string[] = []
  const c = f.cutoff
  if (c && c.firstUnloadedLine !== null) {
    const unloaded = c.entries.filter((e) => !e.loaded)
    const newest = unloaded[unloaded.length - 1]
    const what =
      unloaded.length > 0
        ? `${plural(unloaded.length, 'entry', 'entries')} did not load into this session`
        : `${plural(c.totalLines - c.loadedLines, 'line')} did not load into this session`
    const limit = c.limitHit === 'chars' ? '25,000-character' : '200-line'
    parts.push(
      `Memory Curator: MEMORY.md (${c.file}) is past its ${limit} load cutoff from line ` +
        `${c.firstUnloadedLine.toLocaleString('en-US')}: ${what}` +
        (newest
          ? `; the newest is "${newest.title}" (line ${newest.line.toLocaleString('en-US')})`
          : '') +
        '. Those notes are not in your context; read MEMORY.md past that line if they matter, and ' +
        'tell the person they can move entries above the cutoff in Memory Curator.',
    )
  }
  if (f.notes.length > 0) {
    const shown = f.notes.slice(0, NOTICE_MAX_NOTES)
    const more = f.notes.length - shown.length
    const lines = shown.map((n) => {
      const why = n.verdict === 'stale' ? 'stale' : 'wrong from the start'
      const reason = n.reasons[0] ? `: ${n.reasons[0]}` : ''
      return `- "${n.title}" (${n.file}:${n.line}) — ${why}${reason}`
    })
    parts.push(
      `Memory Curator: the last audit${f.auditedAt ? ` (${f.auditedAt.slice(0, 10)})` : ''} judged ` +
        `${plural(f.notes.length, 'memory note')} not to match the code; do not rely on ` +
        `${f.notes.length === 1 ? 'it' : 'them'} without checking:\n${lines.join('\n')}` +
        (more > 0 ? `\n- and ${plural(more, 'more note')}` : ''),
    )
  }
  return parts.join('\n\n')
}
