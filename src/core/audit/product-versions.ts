/**
 * Versions a note gives a product in prose ("Next.js 15 (App Router)", "React 19", "Tailwind
 * CSS v4", "Expo SDK 52"): a claim about the version a manifest pins, checked then and now by
 * src/node/audit/dependency-flips.ts (blind set AA lb-t01: `next` 15.1.3 when the note was
 * written, ^16.1.2 now, the stack line still saying Next.js 15). Pure.
 *
 * Decisions:
 * - A product is a capitalised name (one word, or two where the second is a capitalised word
 *   such as "CSS" or "SDK"), then the number, `v` allowed before it. The manifest names it may go
 *   by are its lower-cased forms (`next.js`, `next`, `nextjs`; `tailwind-css`, `tailwindcss`,
 *   `tailwind`): a form no manifest lists says nothing.
 * - Only as many parts as the note writes are compared: "15" is the major version, "3.12" the
 *   major and minor. Ranges, words and dates after the number are not versions.
 */
import { proseOf } from './prose-names'

export interface ProductVersion {
  /** As written: "Next.js 15". */
  readonly written: string
  /** Manifest names the product may go by, most likely first. */
  readonly names: readonly string[]
  /** The version's parts the note gives: [15], [3, 12]. */
  readonly parts: readonly number[]
}

const PRODUCT_VERSION_RE =
  /(?<![\w@./-])([A-Z][A-Za-z0-9]*(?:\.js)?)(?:[ \t]+([A-Z][A-Za-z]{1,5}))?[ \t]+v?(\d{1,3}(?:\.\d{1,4}){0,2})(?![\w%/:-]|\.\w|[ \t]*(?:[-–~]|to\b)[ \t]*\d)/g
/** Words that are not products (sentence openers, units, versions of things no manifest has). */
const NOT_PRODUCTS = new Set(
  'Step Phase Part Chapter Section Figure Table Version Level Stage Sprint Week Day Option Rule Task Issue Item Line Page Note Case Test Example Python Node Java Ubuntu Windows macOS iOS Android Debian Chrome Safari Firefox Xcode PostgreSQL Postgres MySQL Redis Docker'.split(
    ' ',
  ),
)

/** The product versions of a note's prose. */
export function productVersions(text: string): ProductVersion[] {
  const prose = proseOf(text, false)
  const out: ProductVersion[] = []
  for (const m of prose.matchAll(PRODUCT_VERSION_RE)) {
    const [first, second, version] = [m[1], m[2], m[3]]
    if (NOT_PRODUCTS.has(first) || first.length < 3) continue
    const base = first.toLowerCase()
    const bare = base.replace(/\.js$/, '')
    const forms = second
      ? [`${bare}-${second.toLowerCase()}`, `${bare}${second.toLowerCase()}`, bare]
      : [base, bare, `${bare}js`]
    const parts = version.split('.').map(Number)
    const written = m[0].trim()
    if (!out.some((v) => v.written === written))
      out.push({ written, names: [...new Set(forms)], parts })
  }
  return out
}

/**
 * The version a manifest's dependency line gives (`"next": "^16.1.2",`, `fastapi>=0.110`,
 * `react = "19.0"`) as numbers; null when the line pins none (`"workspace:*"`, a git URL).
 */
export function manifestVersion(line: string, name: string): number[] | null {
  const at = line.toLowerCase().indexOf(name.toLowerCase())
  if (at < 0) return null
  const rest = line.slice(at + name.length)
  const m = /^["']?\s*[:=]?\s*["']?\s*(?:[\^~>=<!]=?\s*)?v?(\d+(?:\.\d+)*)/.exec(rest)
  return m ? m[1].split('.').map(Number) : null
}

/** Whether a manifest's version agrees with the parts a note gives. */
export function versionAgrees(given: readonly number[], listed: readonly number[]): boolean {
  return given.every((p, i) => listed[i] === p)
}
