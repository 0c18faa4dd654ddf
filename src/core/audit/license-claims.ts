/**
 * Licenses a note gives the repository, checked as the value a manifest's license line holds
 * (stated-values.ts keyLine). Pure.
 */

/** "License: MIT", "**License**: AGPL-3.0-only", "**License: MIT**": a label, then the license. */
const LICENSE_LABEL_RE =
  /\blicen[cs]e\b(?:\*\*|__)?[ \t]*:[ \t]*(?:\*\*|__)?[ \t]*`?([A-Za-z][\w.+-]*[\w+])(?![\w.+-])/gi

/**
 * The license a note gives the repository ("**License**: AGPL-3.0-only"), as the quoted value a
 * manifest's license line holds (`"AGPL-3.0-only"`; src/node/audit/prose-candidates.ts): set
 * then and by no such line now, the project was relicensed (blind set EJ mg-r04: Cargo.toml's
 * `license = "MIT"` became a `license-file`). A license no manifest ever set says nothing.
 */
export function stateLicenses(
  text: string,
): { readonly written: string; readonly version: string; readonly license: true }[] {
  const out: { written: string; version: string; license: true }[] = []
  for (const m of text.matchAll(LICENSE_LABEL_RE))
    if (!out.some((x) => x.version === `"${m[1]}"`))
      out.push({ written: m[0].trim(), version: `"${m[1]}"`, license: true })
  return out
}
