/**
 * A file a note names by the version in its name (`stream-a-spec-v1.1.md`, `schema_v2.sql`)
 * that a newer version beside it replaced after the note was written (blind set EF: "the live
 * spec is `…-v1.1.md`" once `…-v1.2.md` came). The file itself stays, so no reference fails; the
 * note is suspect (claim-flips.ts), naming the newer file and the commit that added it. Pure.
 *
 * Decisions:
 * - A newer version is a file of the same folder, name and extension whose version is higher,
 *   tracked now, that first came after the note. One that was there already when the note was
 *   written means the note chose the older one: nothing is said.
 */
import type { HistoryIndex } from '../git/parse'
import { day, short, tick } from './reason-text'

const VERSIONED_RE = /^(.*?)v(\d+(?:\.\d+){0,3})(\.[A-Za-z0-9]{1,8})$/

interface Versioned {
  /** Folder, name before the version and the extension: what newer versions share. */
  readonly key: string
  readonly version: readonly number[]
}

function versioned(path: string): Versioned | null {
  const m = VERSIONED_RE.exec(path)
  // The version follows a separator (`-v1.1`, `_v2`, `.v3`) or starts the name (`v2.md`).
  if (!m || !/(?:^|[-_./])$/.test(m[1])) return null
  return { key: `${m[1]}\0${m[3]}`, version: m[2].split('.').map(Number) }
}

function newer(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0)
  return false
}

/** Reasons: each named versioned file with newer versions that all came after `writtenMs`. */
export function supersededFiles(
  named: readonly string[],
  tracked: Iterable<string>,
  history: HistoryIndex | null,
  writtenMs: number,
): string[] {
  const asked = named.map((p) => [p, versioned(p)] as const).filter(([, v]) => v !== null)
  if (asked.length === 0 || history === null) return []
  const out: string[] = []
  const all = [...tracked]
  for (const [path, v] of asked) {
    if (v === null) continue
    const later = all.filter((f) => {
      const o = versioned(f)
      return o !== null && o.key === v.key && newer(o.version, v.version)
    })
    const came = later.map((f) => ({ f, t: history.firstArrivals.get(f) }))
    if (came.length === 0 || came.some((c) => !c.t || Date.parse(c.t.date) <= writtenMs)) continue
    const first = came.reduce((a, b) => ((b.t?.time ?? 0) < (a.t?.time ?? 0) ? b : a))
    if (!first.t) continue
    const others = came.length > 1 ? ` (and ${came.length - 1} more)` : ''
    out.push(
      `a newer version of ${tick(path)} came after the note: ${tick(first.f)}${others}, added in ${short(first.t.sha)} on ${day(first.t.date)}`,
    )
  }
  return out
}
