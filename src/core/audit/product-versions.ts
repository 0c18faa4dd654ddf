/**
 * Versions a note gives a product in prose ("Next.js 15 (App Router)", "React 19", "Tailwind
 * CSS v4", "Expo SDK 52"): a claim about the version a manifest pins, checked then and now by
 * src/node/audit/dependency-flips.ts (blind set AA lb-t01: `next` 15.1.3 when the note was
 * written, ^16.1.2 now, the stack line still saying Next.js 15). Pure.
 *
 * Decisions:
 * - A product is a capitalised name (one word, or two where the second is a capitalised word
 *   such as "CSS" or "SDK"), then the number, `v` or `(` allowed before it ("Prisma ORM (v7, pg
 *   adapter)"; blind set BN). The manifest names it may go
 *   by are its lower-cased forms (`next.js`, `next`, `nextjs`; `tailwind-css`, `tailwindcss`,
 *   `tailwind`), and its scope's core package (`@docusaurus/core` for "Docusaurus 3.9.2"; blind
 *   set BG): a form no manifest lists says nothing. The name or the number may be bold
 *   (`**TypeScript** 5.9`, `Ruby **3.2.2**`), and a Gemfile's `~>` and `ruby` line count (set BH).
 * - A minimum is a version too: "Node ≥20" against engines' `>=22` (blind set CX ta-t01).
 * - Only as many parts as the note writes are compared: "15" is the major version, "3.12" the
 *   major and minor, and so is "3.12.x" (blind set ET cv-t04: "Docusaurus 3.9.x", now 3.10). Ranges, words and dates after the number are not versions.
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
  /(?<![\w@./-])([A-Z][A-Za-z0-9]*(?:\.js)?)(?:[ \t]+([A-Z][A-Za-z]{1,5}))?(?:\*\*|__)?[ \t]+\(?(?:\*\*|__)?(?:≥|>=)?[ \t]?v?(\d{1,3}(?:\.\d{1,4}){0,2})(?:\.[xX*](?!\w))?(?![\w%/:-]|\.\w|[ \t]*(?:[-–~]|to\b)[ \t]*\d)/g
/** Words that are not products (sentence openers, units, versions of things no manifest has). */
const NOT_PRODUCTS = new Set(
  'Step Phase Part Chapter Section Figure Table Version Level Stage Sprint Week Day Option Rule Task Issue Item Line Page Note Case Test Example Python Node Java Ubuntu Windows macOS iOS Android Debian Chrome Safari Firefox Xcode PostgreSQL Postgres MySQL Redis Docker'.split(
    ' ',
  ),
)

/**
 * ".NET 9.0", ".NET 8": the framework a project targets, its `<TargetFramework>net9.0<…>` (or
 * `<TargetFrameworks>`) in a project file or Directory.Build.props (blind set DP nm-t06: ".NET
 * 9.0" while the projects moved to net10.0). ".NET Framework 4.8" is another product.
 */
const DOTNET_RE = /(?<![\w.])\.NET(?:[ \t]+Core)?[ \t]+v?(\d{1,2}(?:\.\d{1,2})?)(?![\w%/:-]|\.\d)/g
/** The key a project file pins .NET by, found by the manifest search (any case). */
export const DOTNET_KEY = 'TargetFramework'

/**
 * Runtimes a manifest pins by a key of their own, not as a dependency: `requires-python =
 * ">=3.11"` (pyproject), Poetry's `python = "^3.11"`, and package.json's `"node": ">=22"`
 * (engines, Volta), and go.mod's `go 1.25.7` directive. Blind set CM ox-t01: "Python 3.11" while
 * the root pyproject moved to `>=3.13`; CW sd-t01: "Go `1.25.7`" while go.mod moved to 1.26.5.
 */
const RUNTIME_PINS = new Map<string, readonly string[]>([
  ['Python', ['requires-python', 'python']],
  ['Node', ['node']],
  ['Go', ['go']],
  ['.NET', [DOTNET_KEY]],
])

/**
 * Products whose scope's main package is not `core`: "MUI v7" is `@mui/material` (blind set EX
 * vj-t01: ^7.3.6 when the note was written, ^9.2.0 now).
 */
const FLAGSHIPS = new Map<string, readonly string[]>([
  ['mui', ['@mui/material']],
  ['chakra', ['@chakra-ui/react']],
  ['apollo', ['@apollo/client']],
  ['emotion', ['@emotion/react']],
])

/** The product versions of a note's prose. */
export function productVersions(text: string): ProductVersion[] {
  // A version in code form is still prose's version: "Go `1.25.7`" (blind set CW sd-t01).
  const prose = proseOf(text.replace(/`(v?\d{1,3}(?:\.\d{1,4}){0,2})`/g, '$1'), false)
  const out: ProductVersion[] = []
  const add = (
    written: string,
    first: string,
    second: string | undefined,
    version: string,
  ): void => {
    const base = first.toLowerCase()
    const bare = base.replace(/\.js$/, '')
    const forms =
      (second === undefined ? RUNTIME_PINS.get(first) : undefined) ??
      (second
        ? [`${bare}-${second.toLowerCase()}`, `${bare}${second.toLowerCase()}`, bare]
        : [base, bare, `${bare}js`, `@${bare}/core`, ...(FLAGSHIPS.get(bare) ?? [])])
    const parts = version.split('.').map(Number)
    if (!out.some((v) => v.written === written))
      out.push({ written, names: [...new Set(forms)], parts })
  }
  for (const m of prose.matchAll(PRODUCT_VERSION_RE)) {
    const runtime = RUNTIME_PINS.has(m[1]) && m[2] === undefined
    if ((NOT_PRODUCTS.has(m[1]) && !runtime) || (m[1].length < 3 && !runtime)) continue
    add(m[0].trim().replace(/\(\s*/, ''), m[1], m[2], m[3])
  }
  for (const m of prose.matchAll(DOTNET_RE)) add(m[0].trim(), '.NET', undefined, m[1])
  for (const row of [...tableVersions(text), ...listVersions(text)])
    add(row.written, row.name, undefined, row.version)
  return out
}

/** A table cell that is a version a manifest may pin: `^38.7.2`, `~0.71`, `>=2.3`, `v4`, `19`. */
const VERSION_CELL_RE = /^(?:\^|~|>=\s*|v)?(\d{1,3}(?:\.\d{1,4}){0,2})(?:\.x)?$/
/** A package's name in a cell: `Electron`, `@anthropic-ai/sdk`, `next.js`. */
const PACKAGE_CELL_RE = /^@?[A-Za-z][\w.-]*(?:\/[\w.-]+)?$/
const NOT_PRODUCTS_LOWER = new Set([...NOT_PRODUCTS].map((w) => w.toLowerCase()))

/**
 * A table row's package and the version in the cell after it (`| Framework | Electron | ^38.7.2 |`,
 * `| AI SDK | @anthropic-ai/sdk | ^0.71.2 |`): the stack table an agent keeps, checked as prose's
 * "Electron 38" is (blind set BE: three pinned versions a later upgrade moved).
 */
function tableVersions(text: string): { written: string; name: string; version: string }[] {
  const out: { written: string; name: string; version: string }[] = []
  for (const line of text.split('\n')) {
    if (!/^\s*\|.*\|\s*$/.test(line)) continue
    const cells = line
      .trim()
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim().replace(/^(\*\*|`)(.*)\1$/, '$2'))
    for (let i = 1; i < cells.length; i++) {
      const version = VERSION_CELL_RE.exec(cells[i])
      const name = cells[i - 1]
      if (!version || !PACKAGE_CELL_RE.test(name) || NOT_PRODUCTS_LOWER.has(name.toLowerCase()))
        continue
      out.push({ written: `${name} ${cells[i]}`, name, version: version[1] })
    }
  }
  return out
}

/** A list item that is a package and its pinned version (`- vite: ^5.0.0`, `- zod@^3.22`). */
const LIST_VERSION_RE =
  /^\s*[-*+]\s+`?(@?[a-z][\w.-]*(?:\/[\w.-]+)?)`?\s*(?::|@)\s*`?((?:\^|~|>=\s*)?v?(\d{1,3}(?:\.\d{1,4}){0,2}))`?\s*$/

/**
 * The packages a list pins (`- vite: ^5.0.0`, `- @vitejs/plugin-react: ^4.2.0`), a manifest's
 * dependencies copied into the note, checked as a stack table's are (blind set BM: both moved a
 * major version in one upgrade).
 */
function listVersions(text: string): { written: string; name: string; version: string }[] {
  const out: { written: string; name: string; version: string }[] = []
  for (const line of text.split('\n')) {
    const m = LIST_VERSION_RE.exec(line)
    if (!m || NOT_PRODUCTS_LOWER.has(m[1])) continue
    // A range holds what it allows: `^5.0.0` any 5.x (the manifest's `^5.0.8` too), `~5.2.0` 5.2.
    const parts = m[3].split('.')
    const kept = m[2].startsWith('^') && parts[0] !== '0' ? 1 : m[2].startsWith('~') ? 2 : 3
    out.push({ written: `${m[1]} ${m[2]}`, name: m[1], version: parts.slice(0, kept).join('.') })
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
  // `<TargetFrameworks>net8.0;net9.0</…>`: the newest it targets (`net10.0-windows` is 10.0).
  if (name === DOTNET_KEY) {
    const all = [...rest.matchAll(/(?<![\w.])net(?:coreapp)?(\d+(?:\.\d+)?)/g)].map((m) =>
      m[1].split('.').map(Number),
    )
    return all.sort((a, b) => b[0] - a[0] || (b[1] ?? 0) - (a[1] ?? 0))[0] ?? null
  }
  // `gem "rails", "~> 7.1.3"` and `ruby "3.2.2"` in a Gemfile (blind set BH) too.
  const m = /^["']?\s*[:=,]?\s*["']?\s*(?:~>|[\^~>=<!]=?)?\s*v?(\d+(?:\.\d+)*)/.exec(rest)
  return m ? m[1].split('.').map(Number) : null
}

/** Whether a manifest's version agrees with the parts a note gives. */
export function versionAgrees(given: readonly number[], listed: readonly number[]): boolean {
  return given.every((p, i) => listed[i] === p)
}
