/**
 * What one reference is: the kinds of thing a note can rest on, the key that says two are
 * the same, and the small constructors every extractor shares (references.ts runs them).
 */

export type CommandRunner = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'make' | 'file'

export type Reference =
  | {
      readonly kind: 'path'
      readonly text: string
      /** The path as written, without `:line`, leading `./` or a trailing `/`. */
      readonly path: string
      /** The `:line` anchor, when given. */
      readonly line: number | null
      /** Written with a trailing `/` (a folder). */
      readonly dir: boolean
      /** Holds placeholders (`batch-NN/`, `[algo].html`): a pattern unless it exists as written. */
      readonly pattern?: true
      /**
       * Written in prose with neither an extension nor a trailing `/` (`src/ui/hud`): a path only
       * if the repository had it when the note was written (judge-notes.ts drops it otherwise),
       * since `and/or` or `parts/doors/LOD` read the same.
       */
      readonly maybe?: true
      /**
       * A bare file name written in plain prose, not back-ticked (`llama.cpp`): one the
       * repository never had names another project, not a wrong path (check-path.ts).
       */
      readonly prose?: true
      /**
       * Drawn in a folder tree under this top folder (`rodski-web/`): the entry is in that folder
       * when the repository has one of that name, else the top is the repository's own name
       * (check-path.ts).
       */
      readonly under?: string
      /**
       * A Python module a quoted import names (`from src.config.ssot_config import config`, as
       * `src/config/ssot_config.py`): a file or a package folder, checked only under a top folder
       * the repository has or had (fence-imports.ts, check-path.ts).
       */
      readonly module?: true
    }
  | {
      readonly kind: 'symbol'
      readonly text: string
      /** The symbol without `()`. */
      readonly name: string
      /** Identifiers that must all occur as words in the code (`Class.method` → both parts). */
      readonly terms: readonly string[]
    }
  | {
      readonly kind: 'command'
      readonly text: string
      readonly runner: CommandRunner
      /** Script name (npm, pnpm, yarn, bun), make target, or script file path (`file`). */
      readonly target: string
      /** The folder a `cd` before it on its line went to (`cd apps/cli && pnpm dev`). */
      readonly dir?: string
    }
  | {
      readonly kind: 'snippet'
      /** The code, or its first line and a line count when long. */
      readonly text: string
      /** The full quoted code. */
      readonly code: string
      /** From a fenced block (true) or an inline code span (false). */
      readonly fenced: boolean
    }
  | { readonly kind: 'url'; readonly text: string; readonly url: string }
  | { readonly kind: 'branch'; readonly text: string; readonly name: string }

/** Long snippets are shown by their first line. */
const SNIPPET_TEXT_MAX = 200

/**
 * A placeholder glued to a word (`feature/<topic>`, `acme-<name>`, `src/{module}`) or an
 * ellipsis: the text names a pattern, not one path or branch.
 */
export const GLUED_PLACEHOLDER_RE =
  /[/.@_=-]<[A-Za-z][\w -]*>|(?<![\w$])<[A-Za-z][\w -]*>(?=[/.@_-])|[/.@_-]\{[A-Za-z][\w-]*\}|…|(?:^|\/)\.\.\.(?:\/|$)/

/** A stable key saying which references are the same thing. */
export function referenceKey(ref: Reference): string {
  switch (ref.kind) {
    case 'path':
      return `path:${ref.path}`
    case 'symbol':
      return `symbol:${ref.name}`
    case 'command':
      return `command:${ref.runner === 'file' ? 'file' : ref.runner}:${ref.target}${ref.dir ? `@${ref.dir}` : ''}`
    case 'snippet':
      return `snippet:${ref.code}`
    case 'url':
      return `url:${ref.url}`
    case 'branch':
      return `branch:${ref.name}`
  }
}

export function snippetRef(code: string, fenced: boolean): Extract<Reference, { kind: 'snippet' }> {
  const lines = code.split(/\r?\n/)
  const text =
    code.length <= SNIPPET_TEXT_MAX && lines.length <= 5
      ? code
      : `${lines[0].slice(0, SNIPPET_TEXT_MAX)} … (${lines.length} lines)`
  return { kind: 'snippet', text, code, fenced }
}

export function urlRef(url: string): Reference {
  return { kind: 'url', text: url, url }
}

export function trimUrl(u: string): string {
  return u.replace(/[.,;:!?'"*_]+$/, '')
}

/** References without repeats (by `referenceKey`), first mention first. */
export function dedupeReferences(refs: readonly Reference[]): Reference[] {
  const seen = new Set<string>()
  return refs.filter((r) => {
    const k = referenceKey(r)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}
