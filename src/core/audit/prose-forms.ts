/**
 * How prose writes names besides one word (src/core/audit/prose-names.ts takes the words):
 * names given as alternatives, and names the prose only negates. Pure.
 */

/** Text ending in a negation of what follows: "not a", "no", "without the", "instead of". */
const NEGATED_RE =
  /(?:\b(?:no|not|without|never|nor|instead\s+of|rather\s+than)|n't)\s+(?:(?:a|an|any|the|use|using)\s+)?$/i

/**
 * The words of `prose` (matches of it) that it only ever negates ("always visible (not a
 * ConditionalContainer)"): a claim that the name is not used, so its leaving the code says
 * nothing. Blind set S. Each test reads the 40 characters before the word (linear time).
 */
export function onlyNegated(prose: string, words: readonly RegExpMatchArray[]): Set<string> {
  const negates = (at: number): boolean => NEGATED_RE.test(prose.slice(Math.max(0, at - 40), at))
  const out = new Set(words.filter((m) => negates(m.index ?? 0)).map((m) => m[0]))
  for (const m of words) if (!negates(m.index ?? 0)) out.delete(m[0])
  return out
}

/** Words joined by slashes, with no path mark around them (`requireRole/requireUser`). */
const SLASH_RUN_RE =
  /(?<![\p{L}\p{N}_$@./\\:-])[\p{L}_$][\p{L}\p{N}_$]*(?:\/[\p{L}_$][\p{L}\p{N}_$]*)+(?![\p{L}\p{N}_$]|[./\\:-][\p{L}\p{N}_$])/gu

/**
 * Names written as alternatives (`requireRole/requireUser`, `useAuth/useSession`): a slash run
 * is a path unless every part has an identifier's shape (`shaped`; issue 12 item 2: `A/B/C`
 * alternatives are not paths); then each part is a name. `src/components/Foo` stays a path
 * (`src` is a word). Blind set N: a checklist naming a guard removed since.
 */
export function alternatives(prose: string, shaped: (word: string) => boolean): string[] {
  const out: string[] = []
  for (const m of prose.matchAll(SLASH_RUN_RE)) {
    const parts = m[0].split('/')
    if (parts.every(shaped)) out.push(...parts)
  }
  return out
}
