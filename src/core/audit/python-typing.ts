/**
 * Python's type hints as spelled since 3.9 and 3.10, so a file moved to them keeps its lines:
 * `List[Dict[str, str]]` is `list[dict[str, str]]` and `Optional[X]` is `X | None` (blind set
 * CG: a client's methods moved into a package and modernised, read as changed). Pure.
 */

/** `typing.List[`, `Dict[`, …: the generics PEP 585 gave built-in spellings. */
const GENERIC_RE = /\b(?:typing\.)?(List|Dict|Set|FrozenSet|Tuple|Type)\[/g
const OPTIONAL = /\b(?:typing\.)?Optional\[/

/** The line with its hints in today's spelling; other text is left as it is. */
export function modernTyping(s: string): string {
  let out = s.replace(GENERIC_RE, (_, g: string) => `${g.toLowerCase()}[`)
  for (let m = OPTIONAL.exec(out); m !== null; m = OPTIONAL.exec(out)) {
    const open = m.index + m[0].length
    let depth = 1
    let i = open
    for (; i < out.length && depth > 0; i++) {
      if (out[i] === '[') depth++
      else if (out[i] === ']') depth--
    }
    if (depth > 0) break
    out = `${out.slice(0, m.index)}${out.slice(open, i - 1)} | None${out.slice(i)}`
  }
  return out
}
