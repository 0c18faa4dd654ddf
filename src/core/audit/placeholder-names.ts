/**
 * Metasyntactic names: an example of a pattern names its thing `Foo` (`resourceFooRead`,
 * `c.GetFoo(id)`, `foo`), not one of the code's. A quote that uses such a name is an example of
 * how code is written, never a copy of the code, however many of its other lines the code held
 * (issue 12, cause 1; blind set AP: a provider's read-function template, 74% alike to one
 * resource's function when the note was written, read as that function's lines removed since).
 */

/** `foo`, `Foo`, `baz`, `qux` as a whole name or one camel-case or snake-case part of one. */
const PLACEHOLDER_RE = /(?<![A-Za-z])(?:foo|baz|qux)(?![a-z])|(?:Foo|Baz|Qux)(?![a-z])/

/** The names of `code` (identifiers, without duplicates) that are placeholders. */
export function placeholderNames(code: string): string[] {
  const names = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? [])
  return [...names].filter((n) => PLACEHOLDER_RE.test(n))
}
