/**
 * Names a note gives that only a manifest can vouch for: bold package names (`**pandas**`), and
 * packages it says are on their way out ("Tailwind CSS is being phased out"); and whether a
 * manifest line lists one as a dependency. Pure: src/node/audit/prose-then.ts greps the
 * manifests at the note's commit and now (src/node/audit/prose-candidates.ts).
 */
import { escapeRe, proseOf } from './prose-names'
import { DOTNET_KEY } from './product-versions'
import { findCodeSpans } from './code-spans'
import { cutFences } from './note-fences'

/**
 * Bold package names of a note's prose (`**pandas** / **numpy** - Data processing`, a stack
 * list): a plain word says nothing on its own, so each counts only through a manifest's
 * dependency line (`dependencyIn`), at the note's commit and now (src/node/audit/prose-then.ts).
 */
export function boldNames(text: string): string[] {
  const out: string[] = []
  for (const m of proseOf(text, false).matchAll(
    /(?<!\*)\*\*([@A-Za-z0-9][\w.@/-]{1,60}(?: [A-Z][\w.-]{1,30})?)\*\*(?!\*)/g,
  )) {
    // Two capitalised words are one package's name in kebab case (`**Framer Motion**`, set BG).
    const name = m[1].toLowerCase().replace(' ', '-')
    if (
      /[a-z]{3,}/.test(name) &&
      !/\.(?:md|json|ya?ml|toml|[cm]?[jt]sx?|py|rb|go|rs|sh)$/.test(name)
    )
      if (!out.includes(name)) out.push(name)
  }
  return out
}

/**
 * Back-ticked plain words (`turbo`, `zod`): a tool or package a note names in code form that no
 * other rule reads (no capital, dot or underscore marks it as a name of the code). Like a bold
 * name, each counts only through a manifest's dependency line then and now (blind set AL: "root
 * `turbo`-orchestrated scripts" after the repository moved from turbo to nx).
 */
export function tickedWords(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const s of findCodeSpans(prose)) {
    const word = prose.slice(s.contentStart, s.contentEnd).trim()
    if (/^[a-z][a-z0-9-]{2,40}$/.test(word) && !out.includes(word)) out.push(word)
  }
  return out
}

/**
 * Back-ticked scoped package names (`@namorix/backend-core`): a workspace package's `name` or an
 * import's module, quoted values the code held (prose-candidates.ts; blind set BH: a backend
 * package a rewrite removed, its name still in the package table).
 */
export function tickedScopes(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const s of findCodeSpans(prose)) {
    const name = prose.slice(s.contentStart, s.contentEnd).trim()
    if (/^@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*$/.test(name) && !out.includes(name)) out.push(name)
  }
  return out
}

/** "Tailwind CSS is being phased out", "Moment.js is deprecated in favour of …". */
const PHASED_OUT_RE =
  /\b([A-Z][\w.+-]*(?:[ \t][A-Z][\w.+-]*)?)[ \t]+(?:is|are)[ \t]+(?:being[ \t]+)?(?:phased[ \t]+out|deprecated|being[ \t]+removed|being[ \t]+replaced|on[ \t]+its[ \t]+way[ \t]+out)\b/g

/**
 * Packages a note says are on their way out ("Tailwind CSS is being phased out in favor of MUI"),
 * as the manifest names they may go by (`tailwindcss`, `tailwind-css`, `tailwind`): checked
 * like bold package names, so a dependency listed when the note was written and in no manifest
 * now says the phase-out is over (src/node/audit/prose-then.ts).
 */
export function phasedOutNames(text: string): string[] {
  const out: string[] = []
  for (const m of proseOf(text, false).matchAll(PHASED_OUT_RE)) {
    const words = m[1].toLowerCase().split(/[ \t]+/)
    const forms = [words.join(''), words.join('-'), words[0].replace(/\.js$/, ''), words[0]]
    for (const f of forms) if (/[a-z]{3,}/.test(f) && !out.includes(f)) out.push(f)
  }
  return out
}

/**
 * What a JSON manifest gives a dependency: a version range, a tag, a protocol (`workspace:*`,
 * `npm:`, `file:`, a git URL) or a `user/repo` shorthand; not a command. A `scripts` entry has
 * the same form (`"start": "mint dev -p 6660"`), and a sentence's first word read as a product
 * ("Start new docs from …") matched it as a dependency the repository dropped (blind set AL).
 */
const VERSION_SPEC_RE =
  /^(?:$|[\^~<>=*\d]|v\d|x\b|(?:latest|next|beta|alpha|canary|rc|stable|dev)$|(?:workspace|catalog|file|link|portal|patch|npm|jsr|github|gitlab|bitbucket|https?):|git(?:\+|:\/\/|@)|[\w.-]+\/[\w.-]+(?:#\S*)?$)/i

/** A file a package builds or ships (`dist/cli.mjs`, `lib/index.js`), as `bin` and `exports` give it. */
const BUILT_FILE_RE = /^(?:dist|lib|bin|build|out|esm|cjs|src)\/|\.(?:[cm]?js|ts|json)$/i

/** A manifest line giving the package's own field, not a dependency. */
const OWN_FIELD_RE =
  /^\s*(?:["']?(?:name|description|version|title|summary|author|license|homepage|repository|readme|keywords)["']?\s*[:=]|\.(?:executable|library|target|executableTarget|testTarget|plugin|macro)\s*\(\s*name:)/i

/**
 * Whether a manifest line lists `name` as a dependency: a key (`"astro": "^5"`, `pandas = "2"`,
 * `pandas>=2.3` in requirements), or a quoted list entry that is the whole string, with at most
 * an extra and a version spec (`"pandas>=2.3.3",` in pyproject.toml, `gem "rails"`,
 * `"uvicorn[standard] >= 0.30"`). A JSON manifest (`package.json`, `composer.json`) lists its
 * dependencies as keys only, in their own (lower) case: its `keywords` and `files` entries and
 * its `description` are not dependencies (blind set U: `"Project utility scripts …"` made a
 * table cell's "Project" one). Python's names are compared in any case, as pip does.
 */
export function dependencyIn(line: string, name: string, path = ''): boolean {
  const n = escapeRe(name)
  // The manifest's own name, description or version, or a Swift package's own product or target
  // (`.executable(name: "Clawdis", …)`): `name: "Clawdis",` in Package.swift, `name =
  // "app"` in pyproject.toml (blind set Z2: the app's own name read as a dependency it dropped).
  if (OWN_FIELD_RE.test(line)) return false
  // A Gemfile's `ruby "3.2.2"` names the runtime it pins (blind set BH: Ruby 3.2.2, 3.3.6 since).
  if (/(?:^|\/)Gemfile$/.test(path) && name === 'ruby') return /^\s*ruby\s+["']/.test(line)
  // A project file's `<TargetFramework>net9.0</TargetFramework>` pins .NET (blind set DP nm-t06).
  if (name === DOTNET_KEY)
    return /\.(?:csproj|fsproj|vbproj|props)$/i.test(path) && /<TargetFrameworks?>/i.test(line)
  // go.mod's `go 1.25.7` directive pins the Go toolchain (blind set CW sd-t01).
  if (name === 'go') return /(?:^|\/)go\.mod$/.test(path) && /^\s*go\s+\d/.test(line)
  if (/\.json$/i.test(path)) {
    const value = new RegExp(String.raw`^\s*"${n}"\s*:\s*"([^"]*)"`).exec(line)?.[1]
    // `"aai": "dist/cli.mjs"`: a `bin` or `exports` entry's file, not a GitHub `owner/repo`
    // (blind set EY ak-t06: a command's name read as a dependency the package dropped).
    return value !== undefined && VERSION_SPEC_RE.test(value) && !BUILT_FILE_RE.test(value)
  }
  // A TOML key whose string is no version (`path = "src/pkg/__about__.py"` of a build tool's
  // table): a setting, not a dependency; a dependency's key gives a version (`pandas = "2"`) or
  // a table (blind set BO: `path` read as a package a vendored pyproject.toml dropped).
  if (/\.toml$/i.test(path)) {
    const value = new RegExp(String.raw`^\s*${n}\s*=\s*["']([^"']*)["']`, 'i').exec(line)?.[1]
    if (value !== undefined && !VERSION_SPEC_RE.test(value)) return false
    // A bare name in a list under a key that names no dependencies (`include_dir = ["cmd",
    // "internal"]` of a reloader's .air.toml) is a setting (blind set BS: "Internal auth" read as
    // a package the repository dropped); `dev = ["ruff>=0.14"]` gives a version: a dependency.
    const key = /^\s*([\w.-]+)\s*=\s*\[/.exec(line)?.[1]
    const bare = new RegExp(String.raw`["']${n}["']`, 'i').test(line)
    if (key !== undefined && bare && !/depend|require|packages|extras|group/i.test(key))
      return false
  }
  const extra = String.raw`(?:\[[^\]]*\])?`
  // `base = "frontend"` in netlify.toml, `testpaths = "tests"`: a setting's one value, not a
  // dependency (blind set AB: a deploy folder read as a package the repository dropped). A
  // manifest lists a dependency as the key (`pandas = "2"`) or in a list (`["pandas>=2"]`).
  if (
    new RegExp(String.raw`^\s*[\w.-]+\s*=\s*["']${n}${extra}["']\s*,?\s*(?:#.*)?$`, 'i').test(line)
  )
    return false
  return (
    new RegExp(String.raw`^\s*["']?${n}${extra}["']?\s*(?:[:=<>~!^;@]|$)`, 'i').test(line) ||
    new RegExp(String.raw`["']${n}${extra}\s*(?:[<>=!~^;@][^"'\n]*)?["']`, 'i').test(line)
  )
}

/** Runtimes a `.js` name may stand for, no package of a manifest (`Node.js`, an engine key). */
const RUNTIMES = new Set(['node', 'deno', 'bun'])

/**
 * The package whose program a path into `node_modules/.bin/` runs (`./node_modules/.bin/eslint`):
 * named by its program, a dependency the manifests list then and now (blind set DZ sc-r07: eslint
 * dropped for biome, the path read as ignored build output).
 */
export function binPackages(path: string): string[] {
  const bin = /(?:^|\/)node_modules\/\.bin\/([a-z][\w.-]*)$/.exec(path)
  return bin ? [bin[1]] : []
}

/**
 * The package names a file-like word of prose may be (`sql.js`, `Chart.js`, `socket.io`): itself,
 * and without `.js` (`Vue.js` is `vue`). Like a bold name, each counts only through a
 * manifest's dependency line then and now (src/node/audit/prose-then.ts); a file of that name
 * is checked as a path all the same (blind set AB: three notes on `sql.js`, a dependency the
 * code dropped for another, read as a file no tree ever had).
 */
export function packageNamesOf(path: string): string[] {
  if (path.includes('/') || !/^[A-Za-z][\w-]*\.[A-Za-z]{2,}$/.test(path)) return []
  const name = path.toLowerCase()
  const bare = name.replace(/\.js$/, '')
  return bare === name || RUNTIMES.has(bare) ? [name] : [name, bare]
}
