/**
 * What a changed code line changed, when it is not what a note says (src/core/audit/name-loss.ts
 * uses these to keep a line that only changed so): a version literal a release bumps, an access
 * modifier. Pure.
 */

/** A line trimmed, runs of blanks as one. */
export const norm = (s: string): string => s.trim().replace(/\s+/g, ' ')

/** A string literal (no interpolation) or a number, with its content. */
const LITERAL_RE = /'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`$\\\n]*)`|(?<![\w$.])(\d+(?:\.\d+)*)(?![\w$])/g

/** A line with its literals blanked, and the literals' contents. */
function literalsOf(text: string): { shape: string; values: string[] } {
  const values: string[] = []
  const shape = norm(text).replace(LITERAL_RE, (m, a, b, c, d) => {
    values.push(a ?? b ?? c ?? d)
    return /^\d/.test(m) ? '0' : `${m[0]}${m[0]}`
  })
  return { shape, values }
}

/** A version as a release writes it: `2.2.464`, `v1.4`, `1.0.0-beta.2`. */
const VERSION = /^v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$/

/**
 * Whether `now` is `then` with only version literals changed (see the decisions above), and the
 * note writes none of then's changed literals (as a whole word of its text).
 */
export function literalsOnly(then: string, now: string, noteText: string): boolean {
  const a = literalsOf(then)
  const b = literalsOf(now)
  if (a.shape !== b.shape || a.values.length === 0) return false
  const pairs = a.values.map((v, i) => [v, b.values[i] ?? ''] as const).filter(([x, y]) => x !== y)
  if (pairs.length === 0 || !pairs.every(([x, y]) => VERSION.test(x) && VERSION.test(y)))
    return false
  const changed = pairs.map(([x]) => x)
  const esc = (v: string): string => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return !changed.some((v) => new RegExp(`(?<![\\w.])${esc(v)}(?![\\w]|\\.\\d)`).test(noteText))
}

/** An access modifier: `private`, `public`, `fileprivate(set)`, `export`. */
const ACCESS_RE =
  /\b(?:private|public|internal|fileprivate|protected|open|export)\b(?:\s*\(\s*set\s*\))?\s*/g

/**
 * Whether `now` is `then` with only access modifiers changed (`private(set) var selectedSession`
 * → `var selectedSession`), and the note writes none of them: who may call a name is not what a
 * note about what it does says. Hidden set K: a Swift property made settable read as suspect.
 */
export function accessOnly(then: string, now: string, noteText: string): boolean {
  const a = norm(then)
  const b = norm(now)
  if (a === b) return false
  const bare = (s: string): string => s.replace(ACCESS_RE, '').trim()
  if (bare(a) !== bare(b)) return false
  const changed = [...a.matchAll(ACCESS_RE), ...b.matchAll(ACCESS_RE)].map((m) => m[0].trim())
  return !changed.some((m) => new RegExp(`\\b${m.replace(/[()]/g, '\\$&')}`).test(noteText))
}
