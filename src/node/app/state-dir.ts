/**
 * Where the app and the CLI keep their own state (evidence archive, audit digests, kept results,
 * the command line's history logs):
 * `$XDG_STATE_HOME/memory-curator`, never the Claude home. A module of its own so a command that
 * only needs the folder (a warm `provenance`, the session-start hook) loads nothing else (issue 16).
 */
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir() || tmpdir(), '.local', 'state')
  return join(base, 'memory-curator')
}
