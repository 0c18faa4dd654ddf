/**
 * The identity of a file's content for compare-and-swap edits, and the text encodings an
 * edit is written back in. Pure: the digest itself is computed in src/node (node:crypto).
 */

/** SHA-256 of a file's exact bytes on disk, as 64 lowercase hex digits. */
export type ContentHash = string

const HASH_PATTERN = /^[0-9a-f]{64}$/

/** True when `value` has the shape of a ContentHash. */
export function isContentHash(value: unknown): value is ContentHash {
  return typeof value === 'string' && HASH_PATTERN.test(value)
}

/**
 * How a text file's bytes encode its text. An edit keeps the original's encoding, so
 * saving a UTF-16 or BOM-marked file does not silently convert it (safe-read decodes both).
 */
export type TextEncodingKind = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be'

/** The encoding a file's first bytes announce; plain UTF-8 when there is no BOM. */
export function detectEncoding(bytes: Uint8Array): TextEncodingKind {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return 'utf8-bom'
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le'
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be'
  return 'utf8'
}

/** Encode `text` as bytes in `kind`, with the BOM that kind carries. */
export function encodeText(text: string, kind: TextEncodingKind): Uint8Array {
  if (kind === 'utf8') return new TextEncoder().encode(text)
  if (kind === 'utf8-bom') {
    const body = new TextEncoder().encode(text)
    const out = new Uint8Array(body.length + 3)
    out.set([0xef, 0xbb, 0xbf], 0)
    out.set(body, 3)
    return out
  }
  const out = new Uint8Array(2 + text.length * 2)
  const le = kind === 'utf16le'
  out[0] = le ? 0xff : 0xfe
  out[1] = le ? 0xfe : 0xff
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    out[2 + i * 2] = le ? unit & 0xff : unit >> 8
    out[3 + i * 2] = le ? unit >> 8 : unit & 0xff
  }
  return out
}
