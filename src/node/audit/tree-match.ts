/**
 * The small matchers both passes of the prose check use (prose-then.ts: the tree now, and the
 * tree when the note was written), and the glob counts (glob-counts.ts).
 */
import picomatch from 'picomatch/posix.js'

/**
 * A glob without a folder (`*.test.ts`) matches a file's name anywhere, as a note means it; a
 * path passes `same` too when given (placeholder-paths.ts: a placeholder written twice).
 */
export function matcher(glob: string, same: RegExp | null = null): (f: string) => boolean {
  const is = picomatch(glob, { dot: true, basename: !glob.includes('/') })
  return same === null ? is : (f) => is(f) && same.test(f)
}

export function matchesNow(paths: Iterable<string>, glob: string, same: RegExp | null): boolean {
  const is = matcher(glob, same)
  for (const f of paths) if (is(f)) return true
  return false
}

/** File names without their extension (`HeroSection` for `src/home/HeroSection.astro`). */
export function fileStems(tracked: Iterable<string>): Set<string> {
  const out = new Set<string>()
  for (const f of tracked) out.add(f.slice(f.lastIndexOf('/') + 1).replace(/\.[^.]*$/, ''))
  return out
}

/** Whether a tree holds a path as written, or ending with it (a partial path), file or folder. */
export function inTree(paths: readonly string[], written: string): boolean {
  const w = written.replace(/\/+$/, '')
  return paths.some(
    (f) => f === w || f.startsWith(`${w}/`) || f.endsWith(`/${w}`) || f.includes(`/${w}/`),
  )
}
