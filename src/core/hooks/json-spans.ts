/**
 * A JSON parser that keeps where each value starts and ends in the text, so a settings file can
 * be edited surgically: the bytes around an edit stay exactly as they were (issue 18 item 2).
 * Strict JSON (RFC 8259), as Claude Code's settings files are; anything else is refused with
 * the offset and a reason. Everything read is hostile input: nesting is capped.
 */

export type JsonNode =
  | {
      readonly kind: 'object'
      readonly start: number
      readonly end: number
      readonly members: readonly JsonMember[]
    }
  | {
      readonly kind: 'array'
      readonly start: number
      readonly end: number
      readonly items: readonly JsonNode[]
    }
  | {
      readonly kind: 'string'
      readonly start: number
      readonly end: number
      readonly value: string
    }
  | { readonly kind: 'scalar'; readonly start: number; readonly end: number }

export interface JsonMember {
  readonly key: string
  /** Offset of the key's opening quote. */
  readonly start: number
  /** Offset just past the member's value. */
  readonly end: number
  readonly value: JsonNode
}

/** Deepest nesting accepted (a settings file needs a handful of levels). */
export const JSON_MAX_DEPTH = 256

export class JsonSpanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(`${message} at offset ${offset}`)
    this.name = 'JsonSpanError'
  }
}

const WS = new Set([' ', '\t', '\n', '\r'])

/** Parse `text` as one JSON value (whitespace around allowed); throws JsonSpanError. */
export function parseJsonSpans(text: string): JsonNode {
  let i = 0
  const skip = (): void => {
    while (i < text.length && WS.has(text[i]!)) i++
  }
  const fail = (message: string): never => {
    throw new JsonSpanError(i, message)
  }
  const str = (): JsonNode & { kind: 'string' } => {
    const start = i
    i++ // opening quote
    const from = i
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i)
      if (c < 0x20) fail('control character in a string')
      i += text[i] === '\\' ? 2 : 1
    }
    if (i >= text.length) fail('unterminated string')
    i++
    let value: string
    try {
      value = JSON.parse(text.slice(start, i)) as string
    } catch {
      return fail(`bad escape in string starting at ${from - 1}`)
    }
    return { kind: 'string', start, end: i, value }
  }
  const value = (depth: number): JsonNode => {
    if (depth > JSON_MAX_DEPTH) fail(`nested deeper than ${JSON_MAX_DEPTH} levels`)
    skip()
    const start = i
    const c = text[i]
    if (c === '{') {
      i++
      const members: JsonMember[] = []
      skip()
      if (text[i] === '}') return { kind: 'object', start, end: ++i, members }
      for (;;) {
        skip()
        if (text[i] !== '"') fail('expected a key')
        const key = str()
        skip()
        if (text[i] !== ':') fail('expected ":"')
        i++
        const v = value(depth + 1)
        members.push({ key: key.value, start: key.start, end: v.end, value: v })
        skip()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') return { kind: 'object', start, end: ++i, members }
        fail('expected "," or "}"')
      }
    }
    if (c === '[') {
      i++
      const items: JsonNode[] = []
      skip()
      if (text[i] === ']') return { kind: 'array', start, end: ++i, items }
      for (;;) {
        items.push(value(depth + 1))
        skip()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') return { kind: 'array', start, end: ++i, items }
        fail('expected "," or "]"')
      }
    }
    if (c === '"') return str()
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(i, i + 400),
    )
    if (!m) return fail('unexpected character')
    i += m[0].length
    return { kind: 'scalar', start, end: i }
  }
  const root = value(0)
  skip()
  if (i < text.length) fail('text after the JSON value')
  return root
}

/** The member `key` of an object node (the last one, as JSON.parse keeps), or null. */
export function memberOf(node: JsonNode, key: string): JsonMember | null {
  if (node.kind !== 'object') return null
  let found: JsonMember | null = null
  for (const m of node.members) if (m.key === key) found = m
  return found
}
