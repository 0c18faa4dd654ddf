/**
 * A placeholder a path pattern writes twice names one thing twice: in
 * `plugins/<name>/skills/<name>/` both parts are the same name, so a tree whose skills sit in
 * bundles (`plugins/bundle/skills/tool/`) no longer holds the layout the note describes, though
 * the plain glob `plugins/*\/skills/*\/` still matches it (blind set CV as-r04). Pure: the glob
 * checks in src/node/audit/prose-then.ts add this test to their match.
 */

import { normalizePath } from '../paths'
import type { Reference } from './reference'

const TOKEN_RE = /(<[A-Za-z][\w -]*>|\{[A-Za-z][\w-]*\})/
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The test a path must also pass when a placeholder repeats (the parts it stands for equal), for
 * a pattern naming a folder (`dir`: the files below it) or a file; null when none repeats or the
 * pattern has no folder.
 */
export function samePlaceholders(path: string, dir: boolean): RegExp | null {
  const parts = path.split(TOKEN_RE)
  const tokens = parts.filter((_, i) => i % 2 === 1)
  if (!path.includes('/') || new Set(tokens).size === tokens.length) return null
  const group = new Map<string, number>()
  let src = ''
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      src += escapeRe(part)
        .replace(/\\\*\\\*/g, '.*')
        .replace(/\\\*/g, '[^/]*')
      return
    }
    const n = group.get(part)
    if (n !== undefined) src += `\\${n}`
    else {
      group.set(part, group.size + 1)
      src += '([^/]+)'
    }
  })
  return new RegExp(`^${src.replace(/\/$/, '')}${dir ? '(?:/.*)?' : ''}$`)
}

/**
 * A path with `<name>` placeholders after a fixed first folder (`plugins/<name>/skills/<name>/`,
 * `src/routes/<page>.ts`): a pattern of the paths it stands for, checked as a glob is (blind set
 * CV as-r04: a plugin layout regrouped into bundles was never checked).
 */
export function placeholderPathRef(raw: string): Reference | null {
  if (!/<[A-Za-z]/.test(raw) || !/^[\w@.+-]+(?:\/(?:[\w@.+-]|<[A-Za-z][\w-]*>)+)+\/?$/.test(raw))
    return null
  // `feature/<topic>`, `fix/<issue>-<slug>`: a branch's naming pattern, not files.
  if (/^(?:feature|feat|fix|bugfix|hotfix|release|chore|docs|refactor|users?)\/<[^/]*$/.test(raw))
    return null
  const path = normalizePath(raw)
  return { kind: 'path', text: raw, path, line: null, dir: raw.endsWith('/'), pattern: true }
}
