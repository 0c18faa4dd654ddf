/**
 * The files a fenced example's language is written in (issue 12, precision). A name that a note
 * gives only inside a ```tsx example is a TypeScript name: a Python file that held a word of
 * the same spelling when the note was written, and lost it since, says nothing of the note
 * (blind set AM: a React example's prop matched in a Python module, called stale).
 */

/** Fence info words (lower case) and the file names of that language family. */
const FAMILIES: readonly (readonly [RegExp, RegExp])[] = [
  [
    /^(?:ts|tsx|typescript|js|jsx|javascript|mjs|cjs|vue|svelte|astro)$/,
    /\.(?:[cm]?[jt]sx?|vue|svelte|astro|html?)$/i,
  ],
  [/^(?:py|python|python3|py3)$/, /\.(?:pyi?|ipynb)$/i],
  [/^(?:rs|rust)$/, /\.rs$/i],
  [/^(?:go|golang)$/, /\.go$/i],
  [/^(?:java|kotlin|kt|scala)$/, /\.(?:java|kts?|scala)$/i],
  [/^(?:cs|csharp)$/, /\.(?:cs|razor|cshtml)$/i],
  [/^(?:rb|ruby)$/, /\.(?:rb|rake|erb)$/i],
  [/^php$/, /\.php$/i],
  [/^swift$/, /\.swift$/i],
  [/^(?:c|h|cpp|c\+\+|cc|hpp|cxx|objc|objective-c)$/, /\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|ino)$/i],
  [/^dart$/, /\.dart$/i],
  [/^zig$/, /\.zig$/i],
]

/** The files a fence's language is written in; null for no language or one not known here. */
export function languageFiles(lang: string): RegExp | null {
  for (const [info, files] of FAMILIES) if (info.test(lang)) return files
  return null
}

/**
 * Each name of `fenced` (fence language, names in its code) that only fences of one known
 * language give, with that language's files; a name any other fence or the prose gives too is
 * left out (it may be held anywhere).
 */
export function namesByLanguage(
  fenced: readonly { readonly lang: string; readonly names: readonly string[] }[],
  elsewhere: ReadonlySet<string>,
): Map<string, RegExp> {
  const seen = new Map<string, RegExp | null>()
  for (const f of fenced) {
    const files = languageFiles(f.lang)
    for (const name of f.names) {
      const had = seen.get(name)
      seen.set(name, had === undefined || had === files ? files : null)
    }
  }
  const out = new Map<string, RegExp>()
  for (const [name, files] of seen) if (files && !elsewhere.has(name)) out.set(name, files)
  return out
}
