/**
 * A count of things a named piece of code holds, in words: "`create_app()` — registers all 11
 * blueprints" (blind set AI g6-t01: 13 since). The thing counted is a noun, not a file or a
 * use (count-claims.ts reads those): its lines in the file that holds the code are what it
 * counts. Pure: src/node/audit/usage-counts.ts counts them then and now.
 *
 * Decisions:
 * - One back-ticked name in the sentence (an identifier, optionally called: `create_app()`;
 *   a path or route beside it is no name),
 *   and a number followed by a plural noun of four letters or more; a unit (`24 cols`, `6h`)
 *   or a noun the code would not write ("11 times") is not counted here.
 * - What it counts is read, not guessed: the code lines of the name's file holding the noun's
 *   singular in any case (`register_blueprint(…)` for "blueprints"). Only a file whose count
 *   equalled the note's when it was written is compared; one that never did says nothing.
 */
import { findCodeSpans } from './code-spans'
import { sentencesOf } from './count-claims'
import { cutFences } from './note-fences'

export interface NounCountClaim {
  readonly count: number
  /** As written ("11 blueprints"). */
  readonly written: string
  /** The back-ticked name whose file holds them (`create_app`). */
  readonly name: string
  /** The noun's singular, lower case (`blueprint`). */
  readonly noun: string
}

const NAME_RE = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?$/
const NOUN_COUNT_RE = /(?<![\w.$#/:@~§¶-])(\d{1,3})[ \t]+([a-z]{3,}(?:ies|s))\b(?![ \t]*[/(:=])/g
/** Plural words that name no thing a line of code holds, or a measure. */
export const NOT_COUNTED = new Set([
  'times',
  'seconds',
  'minutes',
  'hours',
  'days',
  'weeks',
  'months',
  'years',
  'bytes',
  'lines',
  'files',
  'characters',
  'chars',
  'words',
  'items',
  'steps',
  'tests',
  'things',
  'others',
  'places',
  'uses',
  'usages',
  'calls',
  'callers',
  'occurrences',
  'imports',
  'commits',
  'notes',
  'points',
  'percents',
  'levels',
  'retries',
  'attempts',
])

export function nounCountClaims(text: string): NounCountClaim[] {
  const out: NounCountClaim[] = []
  for (const sentence of sentencesOf(cutFences(text).prose)) {
    const names = findCodeSpans(sentence).flatMap(
      (s) => NAME_RE.exec(sentence.slice(s.contentStart, s.contentEnd).trim())?.[1] ?? [],
    )
    const name = names.length === 1 ? names[0] : undefined
    if (name === undefined || name.length < 4) continue
    const bare = sentence.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length))
    for (const m of bare.matchAll(NOUN_COUNT_RE)) {
      const count = Number(m[1])
      const plural = m[2]
      if (count < 2 || NOT_COUNTED.has(plural)) continue
      const noun = plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.slice(0, -1)
      if (noun.length < 4 || out.some((c) => c.noun === noun && c.name === name)) continue
      out.push({ count, written: `${m[1]} ${plural}`, name, noun })
    }
  }
  return out
}
