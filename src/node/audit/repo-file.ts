/**
 * Reading the audited repository's own files (manifests, quoted code, the "now" side of a
 * diff), and the one conversion of a native path to the POSIX form git and the rules use.
 */
import { realpath } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import type { CheckedReference } from '../../core/audit/checked-reference'
import { readTextFile, type ReadOptions, type TextRead } from '../fs/safe-read'
import { escapesFolder } from '../fs/path-guard'

/**
 * A repository file's text for a check or a diff, unless it is git's own or a link that leads
 * out of the repository (issue 11: a tracked symlink to `/etc/hostname` is not the
 * repository's content, and its target must not reach the window).
 */
export async function readRepoFile(
  root: string,
  rel: string,
  options?: ReadOptions,
): Promise<TextRead> {
  const path = join(root, ...rel.split('/'))
  if (rel.split('/').includes('.git'))
    return { ok: false, path, problem: 'unreadable', reason: 'inside .git' }
  if (await escapesFolder(path, await realpath(root).catch(() => root))) {
    return {
      ok: false,
      path,
      problem: 'unreadable',
      reason: 'a symlink that leads out of the repository',
    }
  }
  return readTextFile(path, options)
}

/** A native relative path in POSIX form. */
export const toPosix = (p: string): string => p.split(sep).join('/')

/**
 * The repository-relative path a note's path reference (`path` as the reference gives it)
 * resolves to now; null when it does not hold or resolves outside the repository.
 */
export function resolvedPath(
  checked: readonly CheckedReference[],
  path: string,
  factsRoot: string,
): string | null {
  const c = checked.find(
    (x) => x.ref.kind === 'path' && x.ref.path === path && x.audit.status === 'ok',
  )
  const rel = c?.audit.resolved ? toPosix(relative(factsRoot, c.audit.resolved)) : ''
  return rel === '' || rel.startsWith('..') ? null : rel
}
