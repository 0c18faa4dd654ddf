/**
 * Packages a note lists as missing that a manifest lists now and listed at none of the note's
 * commit (issue 12: "plans or lists done since"; blind set Y: "Missing npm packages: …,
 * postgres" with `postgres` added later). The list is read by absence-claims.ts
 * (`missingPackages`); a manifest's dependency line is `dependencyIn`'s (manifest-names.ts).
 */
import { missingPackages } from '../../core/audit/absence-claims'
import { day, short, tick } from '../../core/audit/reason-text'
import { dependencyLines } from './prose-candidates'
import { grepLines, type GrepFound } from './prose-grep'
import { firstChange } from './value-flips'

/** Note commits whose manifests are searched in one audit; further notes say nothing. */
const THEN_COMMITS_MAX = 12

/** For each note, one reason per listed-missing package that a manifest lists now only. */
export async function dependencyFlips(
  root: string,
  head: string,
  thens: readonly (string | null)[],
  texts: readonly string[],
): Promise<string[][]> {
  const asked = texts.map((t, i) =>
    thens[i] === null || thens[i] === head ? [] : missingPackages(t),
  )
  const out = asked.map((): string[] => [])
  const names = [...new Set(asked.flat())]
  if (names.length === 0) return out
  const revs = [
    ...new Set(asked.flatMap((a, i) => (a.length > 0 ? [thens[i] as string] : []))),
  ].slice(0, THEN_COMMITS_MAX)
  const ask = { code: [], manifest: names }
  const [now, ...found] = await Promise.all([
    grepLines(root, null, ask),
    ...revs.map((r) => grepLines(root, r, ask)),
  ])
  if (!now) return out
  const at = new Map<string, GrepFound | null>(revs.map((r, k) => [r, found[k]]))
  for (let i = 0; i < asked.length; i++) {
    const then = thens[i] === null ? undefined : at.get(thens[i] as string)
    if (!then) continue
    for (const name of asked[i]) {
      const listed = dependencyLines(now, name)[0]
      if (!listed || dependencyLines(then, name).length > 0) continue
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const added = await firstChange(root, thens[i] as string, [`-G${escaped}`], listed.path)
      const when = added ? `, added in ${short(added.sha)} on ${day(added.date)}` : ''
      out[i].push(
        `the note lists ${tick(name)} as a missing package; no manifest listed it when the note was written, and ${tick(listed.path)}:${listed.line} lists it now${when}`,
      )
    }
  }
  return out
}
