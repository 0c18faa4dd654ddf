/**
 * Pure POSIX path helpers for the rules in src/core (no `node:path`, so they run anywhere and
 * mean the same on every platform): one normaliser, and what is built on it.
 *
 * Decisions:
 * - `normalizePath` is the only place `.`, `..`, `//` and a trailing `/` are resolved; every
 *   other helper here, the load-order rules and the audit's reference paths go through it.
 * - An absolute path never climbs above `/`; a relative one keeps its leading `..` so a
 *   caller can tell that it climbs (resolveRelative).
 */

/** Normalise a POSIX path: collapse `//`, `.` and `..` (never above `/`), drop a trailing `/`. */
export function normalizePath(path: string): string {
  const absolute = path.startsWith('/')
  const parts: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop()
      else if (!absolute) parts.push('..')
      continue
    }
    parts.push(part)
  }
  const joined = parts.join('/')
  if (absolute) return '/' + joined
  return joined === '' ? '.' : joined
}

/** Join POSIX path segments and normalise. */
export function joinPath(...segments: string[]): string {
  return normalizePath(segments.filter((s) => s !== '').join('/'))
}

/** Parent directory of a POSIX path (`/` for `/` and for top-level entries). */
export function dirnameOf(path: string): string {
  const p = normalizePath(path)
  const i = p.lastIndexOf('/')
  if (i < 0) return '.'
  if (i === 0) return '/'
  return p.slice(0, i)
}

/** True when `path` is `root` or lies below it (both absolute POSIX paths). */
export function isInsidePath(path: string, root: string): boolean {
  const p = normalizePath(path)
  const r = normalizePath(root)
  if (r === '/') return p.startsWith('/')
  return p === r || p.startsWith(r + '/')
}

/** Every directory from `/` down to `dir` (inclusive), root first. */
export function ancestorsRootFirst(dir: string): string[] {
  const p = normalizePath(dir)
  const out = ['/']
  if (p === '/') return out
  const parts = p.split('/').filter((s) => s !== '')
  let acc = ''
  for (const part of parts) {
    acc += '/' + part
    out.push(acc)
  }
  return out
}

/** Path of `path` relative to the directory `base` (POSIX), or null when outside it. */
export function relativeInside(path: string, base: string): string | null {
  const p = normalizePath(path)
  const b = normalizePath(base)
  if (p === b) return ''
  const prefix = b === '/' ? '/' : b + '/'
  return p.startsWith(prefix) ? p.slice(prefix.length) : null
}

/**
 * A relative path with `.`, `..` and `//` resolved, `''` for the starting folder itself; null
 * when it climbs above where it starts. Leading `/` are dropped: the path is read as relative.
 */
export function resolveRelative(rel: string): string | null {
  const p = normalizePath(rel.replace(/^\/+/, ''))
  if (p === '..' || p.startsWith('../')) return null
  return p === '.' ? '' : p
}
