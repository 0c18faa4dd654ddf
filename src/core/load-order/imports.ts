/**
 * `@path` imports in Claude Code instruction files (docs/memory-rules.md §3.4 "Imports"). The POSIX
 * path helpers they resolve with live in src/core/paths.ts.
 */
import { Lexer } from 'marked'
import type { Token } from 'marked'
import { dirnameOf, joinPath, normalizePath } from '../paths'

/** One `@path` import as written in a file. */
export interface FoundImport {
  /** The text after `@` as written, fragment included (e.g. `docs/a.md#setup`). */
  readonly raw: string
  /** The path to resolve: fragment dropped, escaped spaces unescaped. */
  readonly path: string
  /** 1-based line of the text given to `findImports`. */
  readonly line: number
}

// `@` then a run of non-space characters, where `\ ` is an escaped space (docs/memory-rules.md §3.4).
const IMPORT_RE = /@((?:[^\s\\]|\\ |\\(?=\S))+)/g

/** Deepest indentation (columns) and blockquote nesting handed to the markdown lexer. */
const MAX_INDENT = 64
const MAX_QUOTES = 16
const TOO_DEEP = new RegExp(
  `^(?:(?:[ \\t]*>)*[ \\t]{${MAX_INDENT + 1}}|(?:[ \\t]*>){${MAX_QUOTES + 1}})`,
  'm',
)

/**
 * `marked` lexes nested lists and blockquotes by recursion over ever-shorter copies of the
 * text: a 2 MB CLAUDE.md of 1,500 nested list levels took 35 s and 1.4 GB, and deeper ones ran
 * out of heap. Lines nested deeper than MAX_INDENT columns or MAX_QUOTES `>` are clamped to
 * that depth before lexing (only leading characters go, so line numbers hold); such files are
 * hostile or broken, and what they import is still found on the same lines.
 */
export function boundNesting(markdown: string): string {
  if (!TOO_DEEP.test(markdown)) return markdown
  return markdown.replace(/^((?:[ \t]*>)*)([ \t]*)/gm, (lead, quotes: string, indent: string) => {
    const depth = quotes.split('>').length - 1
    const q = depth > MAX_QUOTES ? '>'.repeat(MAX_QUOTES) : quotes
    return q + (indent.length > MAX_INDENT ? ' '.repeat(MAX_INDENT) : indent)
  })
}

/**
 * Find the `@path` imports of a markdown text: only in plain text tokens (never code spans,
 * fenced or indented code, or HTML), and only where `@` starts a line or follows whitespace.
 */
export function findImports(text: string): FoundImport[] {
  const markdown = boundNesting(text)
  let tokens: Token[]
  try {
    tokens = new Lexer({ gfm: false }).lex(markdown)
  } catch {
    // marked does not throw on any input we know of; if it ever does, the file imports nothing.
    return []
  }
  const out: FoundImport[] = []
  const lineStarts = lineStartOffsets(markdown)
  // Offsets only move forward: tokens come in document order.
  let cursor = 0

  const visitText = (text: string, start: number, exact: boolean): void => {
    IMPORT_RE.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = IMPORT_RE.exec(text)) !== null) {
      const raw = m[1]
      // `@` must start a line or follow whitespace; at the token's start, look at the file.
      const boundary =
        m.index > 0 ? /\s/.test(text[m.index - 1]) : !exact || followsBoundary(markdown, start)
      if (!boundary) continue
      const path = cleanPath(raw)
      if (path === null) continue
      let at = exact ? start + m.index : markdown.indexOf('@' + raw, Math.max(cursor, start))
      if (at < 0) at = Math.max(cursor, start)
      cursor = at
      out.push({ raw, path, line: lineOf(lineStarts, at) })
    }
  }

  const walk = (list: readonly Token[], start: number): void => {
    let local = start
    for (const token of list) {
      const found = token.raw ? markdown.indexOf(token.raw, local) : -1
      const tokenStart = found >= 0 ? found : local
      if (found >= 0) local = found + token.raw.length
      switch (token.type) {
        case 'code':
        case 'codespan':
        case 'html':
          continue
        case 'text':
          if ('tokens' in token && token.tokens && token.tokens.length > 0) {
            walk(token.tokens, tokenStart)
          } else visitText(token.raw, tokenStart, found >= 0)
          continue
        default:
          break
      }
      if ('tokens' in token && Array.isArray(token.tokens)) walk(token.tokens, tokenStart)
      if (token.type === 'list') walk(token.items as Token[], tokenStart)
    }
  }
  walk(tokens, 0)
  return out
}

/** `@` at the start of a line or after whitespace (so `a@b.com` is not an import). */
function followsBoundary(text: string, at: number): boolean {
  if (at === 0) return true
  return /\s/.test(text[at - 1])
}

/**
 * Drop the `#fragment`, unescape `\ `, and keep only the path shapes Claude accepts:
 * `./x`, `../x`, `~/x`, `/abs` (not `/` alone) or a bare relative name (docs/memory-rules.md §3.4).
 */
function cleanPath(raw: string): string | null {
  const hash = raw.indexOf('#')
  let path = hash >= 0 ? raw.slice(0, hash) : raw
  path = path.replace(/\\ /g, ' ')
  if (path === '') return null
  if (path.startsWith('./') || path.startsWith('../') || path.startsWith('~/')) return path
  if (path.startsWith('/')) return path === '/' ? null : path
  if (/^[A-Za-z0-9._-]/.test(path)) return path
  return null
}

function lineStartOffsets(text: string): number[] {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1)
  return starts
}

function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= offset) lo = mid
    else hi = mid - 1
  }
  return lo + 1
}

/**
 * Resolve an import's path to an absolute path: `~/` from `homeDir`, `/abs` as is, anything
 * else from the importing file's directory (docs/memory-rules.md §3.4). POSIX paths.
 */
export function resolveImport(fromFile: string, path: string, homeDir: string): string {
  if (path === '~' || path.startsWith('~/')) return normalizePath(joinPath(homeDir, path.slice(1)))
  if (path.startsWith('/')) return normalizePath(path)
  return normalizePath(joinPath(dirnameOf(fromFile), path))
}
