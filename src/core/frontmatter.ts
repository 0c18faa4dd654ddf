/**
 * YAML frontmatter of memory topic files and rules. Parsed with `yaml` under size
 * and alias limits (never an engine that evaluates code — stack-notes.md).
 */
import { parse } from 'yaml'
import { FRONTMATTER_MAX_ALIASES, FRONTMATTER_MAX_CHARS } from './limits'

export type Frontmatter =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'ok'
      /** Parsed mapping (empty object when the block is empty or not a mapping). */
      readonly data: Readonly<Record<string, unknown>>
      /** Number of lines the block occupies, fences included. */
      readonly lineCount: number
      /** Length in UTF-16 units of the block, fences and the line break after the closing fence included. */
      readonly length: number
    }
  | {
      readonly kind: 'error'
      readonly reason: string
      readonly lineCount: number
      readonly length: number
    }
  | { readonly kind: 'unclosed'; readonly reason: string }

const OPEN = /^---[ \t]*\r?\n/
const CLOSE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m

/** Find and parse a frontmatter block at the very start of `text`. */
export function parseFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text)
  if (!open) return { kind: 'none' }
  const rest = text.slice(open[0].length)
  const close = CLOSE.exec(rest)
  if (!close) return { kind: 'unclosed', reason: 'frontmatter opens with --- but never closes' }
  const body = rest.slice(0, close.index)
  const length = open[0].length + close.index + close[0].length
  const block = text.slice(0, length)
  const lineCount = block.split(/\r?\n/).length - (block.endsWith('\n') ? 1 : 0)
  if (body.length > FRONTMATTER_MAX_CHARS) {
    return { kind: 'error', reason: `frontmatter larger than ${FRONTMATTER_MAX_CHARS} characters`, lineCount, length }
  }
  try {
    const value: unknown = parse(body, { maxAliasCount: FRONTMATTER_MAX_ALIASES, prettyErrors: false })
    const data = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
    return { kind: 'ok', data, lineCount, length }
  } catch (err) {
    return { kind: 'error', reason: `frontmatter is not valid YAML: ${(err as Error).message.split('\n')[0]}`, lineCount, length }
  }
}

/** A string field of parsed frontmatter, or null. */
export function frontmatterString(fm: Frontmatter, key: string): string | null {
  if (fm.kind !== 'ok') return null
  const v = fm.data[key]
  return typeof v === 'string' ? v : null
}
