/**
 * Check one reference against the repository facts (docs/cli.md §7 `audit`): paths in
 * check-path.ts, commands, symbols and quoted code here. URLs and branch names are listed,
 * never checked (see verdict.ts).
 */
import type { Reference } from './reference'
import { makePatternMakes, type RepoFacts } from './repo-facts'
import { checked, type CheckedReference } from './checked-reference'
import { checkPath } from './check-path'
import { absolute, byDepth, isDocFile } from './repo-paths'
import { tick } from './reason-text'

/** Check one reference against the repository facts. `noteDir` is the absolute folder of the note's file. */
export function checkReference(
  ref: Reference,
  facts: RepoFacts,
  noteDir: string | null,
  /** When the note was written (ms), when known (check-path.ts). */
  writtenMs: number | null = null,
): CheckedReference | { readonly skipped: string } {
  switch (ref.kind) {
    case 'url':
    case 'branch':
      return { ...checked(ref, 'ok', null), checkable: false }
    case 'path':
      return checkPath(ref, ref.path, ref.dir, facts, noteDir, writtenMs)
    case 'command':
      if (ref.runner === 'file') return checkPath(ref, ref.target, false, facts, noteDir, writtenMs)
      return checkCommand(ref, facts)
    case 'symbol':
    case 'snippet': {
      const c = ref.kind === 'symbol' ? checkSymbol(ref, facts) : checkSnippet(ref, facts)
      // Not found by a search that failed is not known to be gone.
      const failed = ref.kind === 'symbol' ? facts.unsearched?.words : facts.unsearched?.quotes
      if (c.audit.status !== 'missing' || failed === undefined) return c
      const shown = ref.kind === 'symbol' ? ref.name : firstLine(ref.code)
      return { skipped: `${tick(shown)}: the search for it failed (${failed}); not checked` }
    }
  }
}

function checkCommand(
  ref: Extract<Reference, { kind: 'command' }>,
  facts: RepoFacts,
): CheckedReference {
  const make = ref.runner === 'make'
  const table = make ? facts.makeTargets : facts.scripts
  const files = table.get(ref.target) ?? (make ? byMakePattern(facts, ref.target) : [])
  // After `cd apps/cli`, the folder's own manifest runs it when it has one: npm, pnpm, yarn and
  // make read the folder they run in (blind set BT).
  const own = ref.dir === undefined ? undefined : `${ref.dir}/${make ? 'Makefile' : 'package.json'}`
  if (own !== undefined && (make ? facts.makefiles : facts.packageFiles).includes(own)) {
    if (files.includes(own))
      return checked(ref, 'ok', absolute(facts.root, own), { namedPath: own, restsOn: own })
    const what = make ? 'target' : 'script'
    return checked(ref, 'missing', null, {
      reason: `${tick(ref.text)}: no ${tick(ref.target)} ${what} in ${tick(own)}, where the note runs it`,
    })
  }
  // `pnpm vitest run x.test.ts`: with no script of that name, pnpm and yarn run the program a
  // dependency installs (blind set EW sa-r11: a `vitest` script removed, the program kept).
  if (
    files.length === 0 &&
    (ref.runner === 'pnpm' || ref.runner === 'yarn') &&
    facts.packageDeps?.has(ref.target)
  )
    return checked(ref, 'ok', null, {
      reason: `${tick(ref.text)} runs the ${tick(ref.target)} program a package.json depends on (no script has its name)`,
    })
  if (files.length > 0) {
    // Prefer the file at the root, then the shallowest.
    const file = [...files].sort(byDepth)[0]
    return checked(ref, 'ok', absolute(facts.root, file), { namedPath: file })
  }
  const where = make
    ? facts.makefiles.length === 0
      ? 'there is no Makefile in the repository'
      : `no ${tick(ref.target)} target in ${facts.makefiles.map(tick).join(', ')}`
    : facts.packageFiles.length === 0
      ? 'there is no package.json in the repository'
      : `no ${tick(ref.target)} script in ${facts.packageFiles.length === 1 ? tick(facts.packageFiles[0]) : 'any package.json'}`
  return checked(ref, 'missing', null, { reason: `${tick(ref.text)}: ${where}` })
}

/** The Makefiles whose pattern rules (`server-%`) make `target`. */
function byMakePattern(facts: RepoFacts, target: string): string[] {
  const out = new Set<string>()
  for (const [t, files] of facts.makeTargets)
    if (makePatternMakes(t, target)) for (const f of files) out.add(f)
  return [...out]
}

function checkSymbol(
  ref: Extract<Reference, { kind: 'symbol' }>,
  facts: RepoFacts,
): CheckedReference {
  const missingTerms = ref.terms.filter((t) => (facts.wordFiles.get(t) ?? []).length === 0)
  if (missingTerms.length === 0) {
    // Point at code rather than at a document that merely mentions the name.
    const files = facts.wordFiles.get(ref.terms[ref.terms.length - 1]) ?? []
    const file = [...files].sort(
      (a, b) => Number(isDocFile(a)) - Number(isDocFile(b)) || (a < b ? -1 : 1),
    )[0]
    return checked(ref, 'ok', file === undefined ? null : absolute(facts.root, file))
  }
  const which = ref.terms.length > 1 ? ` (${missingTerms.map(tick).join(', ')} not found)` : ''
  return checked(ref, 'missing', null, {
    reason: `${tick(ref.name)} is not found in the repository${which}`,
  })
}

function checkSnippet(
  ref: Extract<Reference, { kind: 'snippet' }>,
  facts: RepoFacts,
): CheckedReference {
  const finding = facts.snippets.get(ref.code)
  const m = finding?.match
  const head = firstLine(ref.code)
  const cut = m?.truncated ? ` (only its first ${m.lines} lines were compared)` : ''
  if (finding && finding.file !== null && m && m.kind === 'exact') {
    return checked(ref, 'ok', absolute(facts.root, finding.file), {
      reason: m.truncated ? `quoted code ${tick(head)} found in ${tick(finding.file)}${cut}` : null,
    })
  }
  if (finding && finding.file !== null && m && m.kind === 'similar') {
    const pct = Math.round(m.score * 100)
    return checked(ref, 'changed', absolute(facts.root, finding.file), {
      reason: `quoted code ${tick(head)} now appears only with changes in ${tick(finding.file)} (lines ${m.startLine}–${m.endLine}, ${pct}% alike)${cut}`,
    })
  }
  const near =
    m && m.score > 0 && finding?.file
      ? ` (closest: ${Math.round(m.score * 100)}% alike in ${tick(finding.file)})`
      : ''
  return checked(ref, 'missing', null, {
    reason: `quoted code ${tick(head)} is not found in the repository${near}${cut}`,
  })
}

function firstLine(code: string): string {
  const line = code.split(/\r?\n/).find((l) => l.trim() !== '') ?? ''
  const t = line.trim()
  return t.length > 60 ? `${t.slice(0, 59)}…` : t
}
