/**
 * Fixed strings for `git grep -E -f -`: every search for a set of names goes through here.
 *
 * Decisions (measured with git 2.39 on a 5,000-line, 187 KB file):
 * - Not `-F` with one pattern per line: git then tries each pattern over the file on its own,
 *   so the time grows with names × lines (10 names 0.8 s, 200 names 19 s: an audit's test repo
 *   timed out at 60 s), where one alternation of the same 200 names takes 0.01 s and prints the
 *   same lines and matches.
 * - Not one alternation of everything: 20,000 names took 9 s and 6 GB to compile. Names go
 *   ALTERNATIVES_PER_LINE to a line (each line one pattern). Lines cost in turn: each pattern is run again over every matching line, so 5,000 names over 5,000 matching lines took 8.8 s at 256 to a line and 2.0 s at 1,024 (96 MB).
 * - Each name is escaped for POSIX extended expressions, so it matches as written.
 */

const ALTERNATIVES_PER_LINE = 1024

/** `s` as an extended regular expression matching exactly itself. */
export function escapeEre(s: string): string {
  return s.replace(/[\\.[\]()*+?{}|^$]/g, '\\$&')
}

/** The `-f -` input of `git grep -E` that matches any of `strings` literally (none empty, none with a newline). */
export function fixedStringsInput(strings: readonly string[]): string {
  const lines: string[] = []
  for (let i = 0; i < strings.length; i += ALTERNATIVES_PER_LINE)
    lines.push(
      strings
        .slice(i, i + ALTERNATIVES_PER_LINE)
        .map(escapeEre)
        .join('|'),
    )
  return `${lines.join('\n')}\n`
}
