/**
 * Signs that a quote is an example of how code is written, never a copy of the code, however
 * many of its lines the code held (issue 12, cause 1: examples in a style rule):
 * - metasyntactic names: the example names its thing `Foo` or `YourThing` (`resourceFooRead`, `c.GetFoo(id)`)
 *   (blind set AP: a provider's read-function template, 74% alike to one resource's function when
 *   the note was written, read as that function's lines removed since);
 * - a good/bad marker (`// ❌ Bad - only metadata`, `# ✅ Good`, `// Don't`) (blind set AU: a
 *   logging rule's two examples, one of whose lines a later commit removed from the code).
 */

/**
 * `foo`, `Foo`, `baz`, `qux` as a whole name or one camel-case or snake-case part of one; `your`
 * or `Your` opening one (`your_tool`, `YourService`: blind set CX ct-t02, a checklist's
 * `pub mod your_tool;` read as code removed since).
 */
const PLACEHOLDER_RE =
  /(?<![A-Za-z])(?:foo|baz|qux)(?![a-z])|(?:Foo|Baz|Qux)(?![a-z])|(?<![A-Za-z])(?:your|Your)(?=[A-Z0-9_]|$)/

/** The names of `code` (identifiers, without duplicates) that are placeholders. */
export function placeholderNames(code: string): string[] {
  const names = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? [])
  return [...names].filter((n) => PLACEHOLDER_RE.test(n))
}

/** `❌`, `✅`, `// Bad`, `# Don't`: a line marking its block as a good or bad example. */
const MARKER_RE =
  /[❌✅✗✘]|^\s*(?:\/\/|#|\/\*|--)\s*(?:bad|good|wrong|don'?t|avoid|incorrect|correct)\b\s*(?:[-:—–(]|$)/im

/** Why `code` is an example, in words for a reason; null when nothing says it is. */
export function exampleSign(code: string): string | null {
  const names = placeholderNames(code)
  if (names.length > 0)
    return `it names ${names
      .slice(0, 2)
      .map((n) => `\`${n}\``)
      .join(', ')}, a placeholder`
  const mark = MARKER_RE.exec(code)
  return mark ? `it is marked as an example (\`${mark[0].trim()}\`)` : null
}
