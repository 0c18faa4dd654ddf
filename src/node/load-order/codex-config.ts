/**
 * Codex's `config.toml`, read for the two keys its instruction chain depends on (docs/memory-rules.md
 * §4): `project_doc_max_bytes` and `project_doc_fallback_filenames`. Not a TOML parser.
 */
import type { Problem } from '../../shared/model'
import { readTextFile } from '../fs/safe-read'

export interface CodexConfig {
  readonly budgetBytes?: number
  readonly fallbackFilenames?: readonly string[]
  readonly problems: readonly Problem[]
}

/** The two `config.toml` keys the Codex chain depends on; a missing file gives defaults. */
export async function readCodexConfig(file: string): Promise<CodexConfig> {
  const r = await readTextFile(file)
  if (!r.ok) {
    if (r.problem === 'missing') return { problems: [] }
    return { problems: [{ path: file, reason: r.reason }] }
  }
  return parseCodexConfig(r.text, file)
}

/**
 * A minimal, line-based reader for exactly two top-level keys of Codex's `config.toml`:
 * `project_doc_max_bytes = <integer>` and `project_doc_fallback_filenames = [<strings>]`
 * (the array may span lines). Keys after the first `[table]` header belong to that table
 * and are ignored; every other key is ignored. Not a TOML parser: a value it can't read is
 * reported as a problem and the default applies.
 */
export function parseCodexConfig(text: string, file: string): CodexConfig {
  const problems: Problem[] = []
  let budgetBytes: number | undefined
  let fallbackFilenames: string[] | undefined
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim()
    if (line.startsWith('[')) break
    const m = /^(project_doc_max_bytes|project_doc_fallback_filenames)\s*=\s*(.*)$/.exec(line)
    if (!m) continue
    const [, key, first] = m
    if (key === 'project_doc_max_bytes') {
      const value = stripComment(first).trim()
      if (/^\+?[0-9](?:_?[0-9])*$/.test(value)) {
        budgetBytes = Number(value.replace(/[_+]/g, ''))
      } else {
        problems.push({
          path: file,
          reason: `line ${i + 1}: project_doc_max_bytes is not a non-negative integer`,
        })
      }
      continue
    }
    let value = first
    const startLine = i + 1
    while (!arrayClosed(value) && i + 1 < lines.length) value += '\n' + lines[++i]
    const parsed = parseStringArray(stripComment(value).trim())
    if (parsed) fallbackFilenames = parsed
    else {
      problems.push({
        path: file,
        reason: `line ${startLine}: project_doc_fallback_filenames is not a list of strings`,
      })
    }
  }
  return {
    ...(budgetBytes !== undefined ? { budgetBytes } : {}),
    ...(fallbackFilenames !== undefined ? { fallbackFilenames } : {}),
    problems,
  }
}

/** Scan TOML-ish text outside strings; `onChar` returns true to stop. */
function scanOutsideStrings(value: string, onChar: (ch: string, i: number) => boolean): void {
  let quote: string | null = null
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]
    if (quote) {
      if (quote === '"' && ch === '\\') i++
      else if (ch === quote) quote = null
      continue
    }
    if (ch === '"' || ch === "'") quote = ch
    else if (onChar(ch, i)) return
  }
}

/** Remove a `#` comment that is outside strings, from each line. */
function stripComment(value: string): string {
  return value
    .split('\n')
    .map((line) => {
      let cut = line.length
      scanOutsideStrings(line, (ch, i) => {
        if (ch === '#') {
          cut = i
          return true
        }
        return false
      })
      return line.slice(0, cut)
    })
    .join('\n')
}

function arrayClosed(value: string): boolean {
  let closed = false
  scanOutsideStrings(stripComment(value), (ch) => {
    if (ch === ']') closed = true
    return closed
  })
  return closed || !value.trimStart().startsWith('[')
}

/** `["a", 'b', ]` → ['a', 'b']; null when it is anything else. */
function parseStringArray(value: string): string[] | null {
  if (!value.startsWith('[') || !value.endsWith(']')) return null
  const out: string[] = []
  const body = value.slice(1, -1)
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(,|$)/y
  let pos = 0
  while (pos < body.length) {
    if (body.slice(pos).trim() === '') break
    re.lastIndex = pos
    const m = re.exec(body)
    if (!m) return null
    out.push(m[1] !== undefined ? unescapeBasic(m[1]) : m[2])
    pos = re.lastIndex
    if (m[3] === '') break
  }
  return body.slice(pos).trim() === '' ? out : null
}

function unescapeBasic(s: string): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, esc: string) => {
    if (esc[0] === 'u' || esc[0] === 'U') {
      const code = parseInt(esc.slice(1), 16)
      return code <= 0x10ffff ? String.fromCodePoint(code) : esc
    }
    const map: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      b: '\b',
      f: '\f',
      '"': '"',
      '\\': '\\',
    }
    return map[esc] ?? esc
  })
}
