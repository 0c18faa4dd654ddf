/**
 * Packages a note lists as missing that a manifest lists now and listed at none of the note's
 * commit (issue 12: "plans or lists done since"; blind set Y: "Missing npm packages: …,
 * postgres" with `postgres` added later). The list is read by absence-claims.ts
 * (`missingPackages`); a manifest's dependency line is `dependencyIn`'s (manifest-names.ts).
 * And a product's version a note gives ("Next.js 15") that a manifest pinned when the note was
 * written and pins otherwise now (product-versions.ts; blind set AA lb-t01). And a Go module's
 * path go.mod declared then and declares otherwise now (module-paths.ts). All read the same
 * manifest searches, one per commit.
 */
import { missingPackages } from '../../core/audit/absence-claims'
import {
  manifestVersion,
  productVersions,
  versionAgrees,
  type ProductVersion,
} from '../../core/audit/product-versions'
import { declaredModule, modulePaths } from '../../core/audit/module-paths'
import { day, short, tick } from '../../core/audit/reason-text'
import { dependencyLines } from './candidate-lines'
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
  const versions = texts.map((t, i) =>
    thens[i] === null || thens[i] === head ? [] : productVersions(t),
  )
  const modules = texts.map((t, i) =>
    thens[i] === null || thens[i] === head ? [] : modulePaths(t),
  )
  const out = asked.map((): string[] => [])
  const names = [
    ...new Set([
      ...asked.flat(),
      ...versions.flat().flatMap((v) => v.names),
      ...modules.flat(),
      ...(modules.flat().length > 0 ? ['module'] : []),
    ]),
  ]
  if (names.length === 0) return out
  const revs = [
    ...new Set(
      asked.flatMap((a, i) =>
        a.length + versions[i].length + modules[i].length > 0 ? [thens[i] as string] : [],
      ),
    ),
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
    for (const v of versions[i]) {
      const why = versionMoved(v, then, now)
      if (why) out[i].push(`${why} (${short(thens[i] as string)})`)
    }
    for (const m of modules[i]) {
      const why = moduleRenamed(m, then, now)
      if (why) out[i].push(`${why} (${short(thens[i] as string)})`)
    }
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

/**
 * Why a product's version the note gives no longer holds: the first of its names a manifest
 * listed when the note was written, at that version, lists another version now.
 */
function versionMoved(v: ProductVersion, then: GrepFound, now: GrepFound): string | null {
  for (const name of v.names) {
    const before = dependencyLines(then, name)
    if (before.length === 0) continue
    const at = (l: { text: string }): number[] | null => manifestVersion(l.text, name)
    const agreed = before.filter((l) => {
      const n = at(l)
      return n !== null && versionAgrees(v.parts, n)
    })
    // The root-most manifest that agreed (`ts/package.json` of a monorepo, not a package's).
    const held = agreed.sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0]
    if (!held) return null
    const later = dependencyLines(now, name).filter((l) => at(l) !== null)
    // Judged by that manifest while it still pins one: a package of the monorepo left behind
    // at the old version does not hold the note's (blind set CX ta-t01: engines `>=20` → `>=22`).
    const same = later.filter((l) => l.path === held.path)
    const judged = same.length > 0 ? same : later
    if (judged.length === 0 || judged.some((l) => versionAgrees(v.parts, at(l) ?? []))) return null
    // The manifest that held it, when it still pins one (the root pyproject, not a tool's).
    const l = later.find((x) => x.path === held.path) ?? later[0]
    return `the note gives ${v.written}: ${tick(l.path)}:${l.line} lists ${tick(name)} as ${tick(l.text.trim())} now, and ${tick(held.path)} listed it as ${tick(held.text.trim())} when the note was written`
  }
  return null
}

/**
 * Why a Go module path the note gives no longer names the module: a go.mod declared it when the
 * note was written, and that go.mod declares another now, or no go.mod declares it.
 */
function moduleRenamed(path: string, then: GrepFound, now: GrepFound): string | null {
  const held = (then.manifest.get(path) ?? []).find((l) => declaredModule(l.path, l.text) === path)
  if (!held) return null
  const declares = (now.manifest.get('module') ?? []).filter((l) => l.path === held.path)
  const l = declares.find((x) => declaredModule(x.path, x.text) !== null)
  // Its go.mod gone, and no other declaring it: the module left (blind set DS nk-t01).
  const elsewhere = (now.manifest.get(path) ?? []).some(
    (x) => declaredModule(x.path, x.text) === path,
  )
  if (!l && !elsewhere)
    return `the note gives the Go module ${tick(path)}: no go.mod declares it now, and ${tick(held.path)}:${held.line} declared it when the note was written`
  if (!l || declaredModule(l.path, l.text) === path) return null
  return `the note gives the Go module ${tick(path)}: ${tick(l.path)}:${l.line} declares ${tick(l.text.trim())} now, and declared ${tick(held.text.trim())} when the note was written`
}
