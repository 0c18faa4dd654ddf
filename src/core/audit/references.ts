/**
 * What a note rests on: the paths, symbols, commands, quoted code, URLs and branch
 * names it names (memory-facts §6: "a checkable note names what it rests on").
 * Pure text analysis; whether each still holds is decided in verdict.ts.
 *
 * The extractor errs towards silence: a prose-only note yields nothing, and plain
 * English words are never symbols, so that a note is only called stale for
 * something it really names.
 */

import { findCodeSpans } from './code-spans'
import { closesFence, openFence, type Fence as MdFence } from '../markdown/strip'

export type CommandRunner = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'make' | 'file'

export type Reference =
  | {
      readonly kind: 'path'
      readonly text: string
      /** The path as written, without `:line`, leading `./` or a trailing `/`. */
      readonly path: string
      /** The `:line` anchor, when given. */
      readonly line: number | null
      /** Written with a trailing `/` (a folder). */
      readonly dir: boolean
    }
  | {
      readonly kind: 'symbol'
      readonly text: string
      /** The symbol without `()`. */
      readonly name: string
      /** Identifiers that must all occur as words in the code (`Class.method` → both parts). */
      readonly terms: readonly string[]
    }
  | {
      readonly kind: 'command'
      readonly text: string
      readonly runner: CommandRunner
      /** Script name (npm, pnpm, yarn, bun), make target, or script file path (`file`). */
      readonly target: string
    }
  | {
      readonly kind: 'snippet'
      /** The code, or its first line and a line count when long. */
      readonly text: string
      /** The full quoted code. */
      readonly code: string
      /** From a fenced block (true) or an inline code span (false). */
      readonly fenced: boolean
    }
  | { readonly kind: 'url'; readonly text: string; readonly url: string }
  | { readonly kind: 'branch'; readonly text: string; readonly name: string }

/** Extensions that make a word a file name. */
const FILE_EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx markdown txt rst yml yaml toml ini cfg conf ' +
    'env lock lockb py pyi ipynb rb go mod sum rs java kt kts scala clj swift m mm c h cc cpp cxx hpp hh cs fs ' +
    'php pl pm lua r dart zig nim ex exs erl hrl hs ml mli elm vue svelte astro html htm css scss sass less ' +
    'styl sh bash zsh fish ps1 bat cmd sql graphql gql proto tf tfvars hcl nix bzl bazel cmake mk gradle ' +
    'properties xml xsd svg png jpg jpeg gif webp ico pdf wasm csv tsv log patch diff plist dockerfile ' +
    'template tpl hbs ejs pug njk jinja j2 editorconfig gitignore npmrc nvmrc'
  ).split(' '),
)

/** Extension-less file names that are still clearly files. */
const SPECIAL_FILES = new Set([
  'Dockerfile',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'Gemfile',
  'Rakefile',
  'Procfile',
  'Justfile',
  'justfile',
  'Vagrantfile',
  'Brewfile',
  'Containerfile',
  'LICENSE',
  'CODEOWNERS',
])

/** Product names that end in `.js` but are not files. */
const NOT_FILES = new Set(
  'node.js next.js vue.js nuxt.js express.js three.js d3.js chart.js react.js ember.js backbone.js angular.js deno.js bun.js socket.io p5.js alpine.js solid.js'.split(
    ' ',
  ),
)

const SHELL_LANGS = new Set([
  'sh',
  'bash',
  'shell',
  'zsh',
  'fish',
  'console',
  'shell-session',
  'powershell',
  'ps1',
  'cmd',
  'bat',
])

/** Long snippets are shown by their first line. */
const SNIPPET_TEXT_MAX = 200

const IDENT = '[A-Za-z_$][\\w$]*'
const SYMBOL_RE = new RegExp(`^(${IDENT}(?:(?:\\.|::|#)${IDENT})*)(\\(\\))?$`)
const PROSE_CALL_RE = new RegExp(`(?<![\\w$./\\\\-])(${IDENT}(?:(?:\\.|::)${IDENT})*)\\(\\)`, 'g')
/** A call whose arguments are all bare names: `name(a, b)`, `Cart.add(item)`. */
const CALL_SHAPE_RE = new RegExp(
  `^(${IDENT}(?:(?:\\.|::)${IDENT})*)\\(\\s*${IDENT}(?:\\s*,\\s*${IDENT})*\\s*\\)$`,
)
const URL_RE = /\bhttps?:\/\/[^\s<>"'`\][)(]+(?:\([^\s<>"'`()]*\)[^\s<>"'`\][)(]*)*/g
/** A label stops at `[` and a target at `(`, so `[[[[…` and `[a](b[a](b…` take linear time (issue 8). */
const MD_LINK_RE = /!?\[([^[\]\n]*)\]\(\s*<?([^()\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g
const PROSE_PATH_RE =
  /(?<![\p{L}\p{N}_@$/.:\\-])(?:\.{1,2}\/|\.(?=[\p{L}\p{N}_][\p{L}\p{N}_.-]*\/))?[\p{L}\p{N}_@+-][\p{L}\p{N}_@.+-]*(?:\/[\p{L}\p{N}_@.+-]+)*\/?(?::\d+(?:-\d+)?)?/gu
/**
 * A placeholder glued to a word (`feature/<topic>`, `acme-<name>`, `src/{module}`) or an
 * ellipsis: the text names a pattern, not one path or branch.
 */
const GLUED_PLACEHOLDER_RE =
  /[/.@_=-]<[A-Za-z][\w -]*>|(?<![\w$])<[A-Za-z][\w -]*>(?=[/.@_-])|[/.@_-]\{[A-Za-z][\w-]*\}|…|(?:^|\/)\.\.\.(?:\/|$)/
/** Characters that, right after a path or branch name, show it continues as a pattern. */
const PATTERN_NEXT_RE = /^(?:<[A-Za-z]|\{[A-Za-z]|\[|\*|…|\.\.\.|\$\{?[A-Za-z])/
/** Longest text PATTERN_NEXT_RE can match: test a window, not the rest of the note (linear time). */
const PATTERN_NEXT_MAX = 3
const continuesAsPattern = (text: string, at: number): boolean =>
  PATTERN_NEXT_RE.test(text.slice(at, at + PATTERN_NEXT_MAX))
/** Words that introduce an example rather than a thing the note rests on. */
const EXAMPLE_BEFORE_RE = /(?:\be\.\s?g\.?|\bfor (?:example|instance)|\bsuch as)[\s,:]*\(?\s*$/i
/** What may stand between two examples in a list: `e.g. \`a\`, \`b\` or \`c\``. */
const EXAMPLE_LIST_GAP_RE = /^\s*(?:,|\/)?\s*(?:(?:or|and)\s+)?$/
const BRANCH_BEFORE_RE = /\bbranch\s+(?:named\s+|called\s+)?(`?)([\w][\w./-]*)\1/gi
const BRANCH_AFTER_RE = /`([\w][\w./-]*)`\s+branch\b/gi
const KNOWN_BRANCHES = new Set([
  'main',
  'master',
  'develop',
  'dev',
  'trunk',
  'staging',
  'production',
  'release',
  'gh-pages',
])

interface Found {
  readonly pos: number
  readonly ref: Reference
}

/** All references a note's markdown text names, in text order, without duplicates. */
export function extractReferences(text: string): Reference[] {
  const found: Found[] = []
  const { prose, fences } = cutFences(text)
  for (const f of fences) {
    if (f.code.trim() === '') continue
    if (isShellBlock(f.lang, f.code)) {
      for (const line of f.code.split(/\r?\n/)) {
        const cmds = commandsIn(stripPrompt(line))
        const refs = cmds.length > 0 ? cmds : isCommandLine(line) ? commandLineRefs(line) : []
        for (const ref of refs) found.push({ pos: f.pos, ref })
      }
    } else if (!GLUED_PLACEHOLDER_RE.test(f.code)) {
      // A block with placeholders (`src/<module>/index.ts`, `…`) is a template, not a quote.
      found.push({ pos: f.pos, ref: snippetRef(f.code.replace(/\r?\n$/, ''), true) })
    }
  }

  // Branch names first: their back-ticked names must not count as paths too.
  // Each pass reads its own snapshot of `masked`; blanking is collected and applied once
  // per pass (`flush`), so 100,000 links cost one rebuild, not 100,000 (issue 8, bad input).
  let masked = prose
  let pending: [number, number][] = []
  const mask = (start: number, end: number): void => {
    if (end > start) pending.push([start, end])
  }
  const flush = (): void => {
    if (pending.length === 0) return
    pending.sort((a, b) => a[0] - b[0])
    let out = ''
    let at = 0
    for (const [start, end] of pending) {
      const from = Math.max(start, at)
      if (end <= from) continue
      out += masked.slice(at, from) + ' '.repeat(end - from)
      at = end
    }
    masked = out + masked.slice(at)
    pending = []
  }
  for (const re of [BRANCH_BEFORE_RE, BRANCH_AFTER_RE]) {
    for (const m of prose.matchAll(re)) {
      const ticked = re === BRANCH_AFTER_RE || m[1] === '`'
      const name = (re === BRANCH_AFTER_RE ? m[1] : m[2]).replace(/[.]+$/, '')
      if (!ticked && !looksLikeBranch(name)) continue
      // `branch feature/<topic>` names a naming pattern, not a branch.
      if (continuesAsPattern(prose, m.index + m[0].length)) continue
      found.push({ pos: m.index, ref: { kind: 'branch', text: name, name } })
      mask(m.index, m.index + m[0].length)
    }
  }

  // Code spans. One introduced by "e.g." (or in a list right after one) is an example
  // of a kind of thing, not something the note rests on.
  flush()
  const spanSource = masked
  let exampleEnd = -1
  for (const span of findCodeSpans(spanSource)) {
    const content = spanSource.slice(span.contentStart, span.contentEnd).replace(/^ (.*) $/s, '$1')
    const before = spanSource.slice(Math.max(0, span.start - 40), span.start)
    const example =
      EXAMPLE_BEFORE_RE.test(before) ||
      // A list gap is a few characters; testing a long one would let `\s*\s*` backtrack.
      (exampleEnd >= 0 &&
        span.start - exampleEnd <= 40 &&
        EXAMPLE_LIST_GAP_RE.test(spanSource.slice(exampleEnd, span.start)))
    exampleEnd = example ? span.end : -1
    if (!example) for (const ref of classifySpan(content)) found.push({ pos: span.start, ref })
    mask(span.start, span.end)
  }

  // Markdown links: the target is a URL or a path; the label stays prose.
  flush()
  const linkSource = masked
  for (const m of linkSource.matchAll(MD_LINK_RE)) {
    const target = m[2]
    const start = m.index
    if (/^https?:\/\//i.test(target)) {
      found.push({ pos: start, ref: urlRef(target) })
    } else if (!/^(?:#|mailto:|[a-z][\w+.-]*:)/i.test(target)) {
      const p = pathRef(target.replace(/#.*$/, ''))
      if (p) found.push({ pos: start, ref: p })
    }
    // Keep the label in place, blank out the brackets and target.
    const labelStart = start + m[0].indexOf('[') + 1
    mask(start, labelStart)
    mask(labelStart + m[1].length, start + m[0].length)
  }

  // Bare URLs.
  flush()
  const urlSource = masked
  for (const m of urlSource.matchAll(URL_RE)) {
    const url = trimUrl(m[0])
    found.push({ pos: m.index, ref: urlRef(url) })
    mask(m.index, m.index + m[0].length)
  }

  // Commands in prose (never `make`: "make sure" is English).
  flush()
  const cmdSource = masked
  for (const m of cmdSource.matchAll(
    /\b(?:npm|pnpm|yarn|bun)(?:[ \t]+(?!(?:npm|pnpm|yarn|bun)\b)[\w:@./-]+){1,3}/g,
  )) {
    const refs = commandsIn(m[0].split(/[.:,;](?=\s|$)/)[0], false)
    for (const ref of refs) found.push({ pos: m.index, ref })
    if (refs.length > 0) mask(m.index, m.index + m[0].length)
  }
  flush()
  const scriptSource = masked
  for (const m of scriptSource.matchAll(
    /(?<![\w/.])\.{1,2}\/[\w@.+/-]*\.(?:sh|bash|zsh|py|js|mjs|ts|rb|pl)\b/g,
  )) {
    found.push({
      pos: m.index,
      ref: { kind: 'command', text: m[0], runner: 'file', target: normalisePath(m[0]) },
    })
    mask(m.index, m.index + m[0].length)
  }

  // Calls in prose: `computeTotal()`.
  flush()
  const callSource = masked
  for (const m of callSource.matchAll(PROSE_CALL_RE)) {
    const ref = symbolRef(m[0], true)
    if (ref) {
      found.push({ pos: m.index, ref })
      mask(m.index, m.index + m[0].length)
    }
  }

  // Paths in prose; `feature/<topic>` or `src/…` is a pattern, not a path.
  flush()
  for (const m of masked.matchAll(PROSE_PATH_RE)) {
    if (continuesAsPattern(masked, m.index + m[0].length) || /\/\.\.\.?$/.test(m[0])) continue
    const raw = m[0].replace(/[.,;:!?]+$/, '')
    const p = prosePathRef(raw)
    if (p) found.push({ pos: m.index, ref: p })
  }

  found.sort((a, b) => a.pos - b.pos)
  return dedupe(found.map((f) => f.ref))
}

/** A stable key saying which references are the same thing. */
export function referenceKey(ref: Reference): string {
  switch (ref.kind) {
    case 'path':
      return `path:${ref.path}`
    case 'symbol':
      return `symbol:${ref.name}`
    case 'command':
      return `command:${ref.runner === 'file' ? 'file' : ref.runner}:${ref.target}`
    case 'snippet':
      return `snippet:${ref.code}`
    case 'url':
      return `url:${ref.url}`
    case 'branch':
      return `branch:${ref.name}`
  }
}

function dedupe(refs: readonly Reference[]): Reference[] {
  const seen = new Set<string>()
  const out: Reference[] = []
  for (const r of refs) {
    const k = referenceKey(r)
    if (seen.has(k)) continue
    seen.add(k)
    out.push(r)
  }
  return out
}

interface Fence {
  readonly pos: number
  readonly lang: string
  readonly code: string
}

const LIST_ITEM_PREFIX = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?/

/** Take fenced code blocks out of the text (replaced by blank space, offsets kept). */
function cutFences(text: string): { prose: string; fences: Fence[] } {
  const fences: Fence[] = []
  const lines = text.split(/(?<=\n)/)
  let out = ''
  let pos = 0
  let open: { fence: MdFence; lang: string; start: number; body: string } | null = null
  for (const line of lines) {
    const bare = line.replace(/\r?\n$/, '')
    if (!open) {
      // A fence may open inside a list item; the fence rule itself lives in markdown-strip.
      const rest = bare.slice(LIST_ITEM_PREFIX.exec(bare)![0].length)
      const fence = openFence(rest)
      if (fence) {
        const info = rest.trimStart().slice(fence.length)
        const lang = /^\s*([\w+-]*)/.exec(info)![1]
        open = { fence, lang: lang.toLowerCase(), start: pos, body: '' }
        out += blank(line)
      } else out += line
    } else {
      // One closing rule for every parser (markdown-strip). Never a RegExp built from
      // the marker: a fence of 100,000 backticks made V8's regexp compiler run out of memory.
      if (closesFence(bare, open.fence)) {
        fences.push({ pos: open.start, lang: open.lang, code: dedent(open.body) })
        open = null
      } else open.body += line
      out += blank(line)
    }
    pos += line.length
  }
  // An unclosed fence runs to the end (CommonMark).
  if (open) fences.push({ pos: open.start, lang: open.lang, code: dedent(open.body) })
  return { prose: out, fences }
}

function blank(line: string): string {
  return line.replace(/[^\n]/g, ' ')
}

function dedent(code: string): string {
  const lines = code.split('\n')
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length)
  const min = indents.length > 0 ? Math.min(...indents) : 0
  return min > 0
    ? lines.map((l) => l.slice(Math.min(min, /^[ \t]*/.exec(l)![0].length))).join('\n')
    : code
}

function isShellBlock(lang: string, code: string): boolean {
  if (SHELL_LANGS.has(lang)) return true
  if (lang !== '') return false
  // An unlabelled block whose every line is a command we know is a shell block.
  const lines = code.split(/\r?\n/).filter((l) => l.trim() !== '' && !/^\s*#/.test(l))
  return (
    lines.length > 0 &&
    lines.every((l) => commandsIn(stripPrompt(l)).length > 0 || isCommandLine(l))
  )
}

function stripPrompt(line: string): string {
  return line.replace(/^\s*[$>]\s+/, '').replace(/\s+#.*$/, '')
}

const NPM_SCRIPT_ALIASES: Readonly<Record<string, string>> = {
  test: 'test',
  t: 'test',
  tst: 'test',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
}
const PNPM_BUILTINS = new Set(
  'install i add remove rm uninstall un update up upgrade exec dlx create init publish link ln unlink import rebuild rb prune store list ls ll la outdated why audit env setup config c patch patch-commit deploy fetch pack root bin licenses server doctor help dedupe self-update approve-builds ignored-builds cat-file cat-index find-hash'.split(
    ' ',
  ),
)
const YARN_BUILTINS = new Set(
  'install add remove upgrade up dlx init why info workspace workspaces config cache set plugin node exec pack publish link unlink npm constraints dedupe explain patch patch-commit rebuild search stage unplug version help bin global outdated audit autoclean check generate-lock-entry import licenses list login logout owner policies tag team upgrade-interactive'.split(
    ' ',
  ),
)
/** In prose, `pnpm x` / `yarn x` only count for script names nobody uses as English. */
const COMMON_SCRIPTS = new Set(
  'test build lint dev start typecheck format check e2e preview serve watch clean release deploy bench coverage storybook'.split(
    ' ',
  ),
)
const VALUE_FLAGS = new Set([
  '--prefix',
  '-C',
  '--dir',
  '--cwd',
  '-w',
  '--workspace',
  '--filter',
  '-F',
  '-f',
  '--file',
  '--makefile',
])
/** A `./name` that is run rather than read: no extension, or a script's. */
const SCRIPT_FILE = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl)$/
const INTERPRETERS = new Set([
  'bash',
  'sh',
  'zsh',
  'node',
  'python',
  'python3',
  'ruby',
  'perl',
  'tsx',
  'ts-node',
  'deno',
])

/**
 * Commands in one shell line. `strict` (code) accepts `make` and interpreter
 * forms; prose only accepts package-manager commands.
 */
function commandsIn(line: string, strict = true): Reference[] {
  const out: Reference[] = []
  for (const part of line.split(/\s*(?:&&|\|\||;|\|)\s*/)) {
    const words = part
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '')
    // Skip leading `VAR=value` environment assignments.
    while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) words.shift()
    if (words.length === 0) continue
    const [tool, ...rest] = words
    const args = withoutFlags(rest)
    const text = words.join(' ')
    const cmd = (runner: CommandRunner, target: string, shown = text): void => {
      out.push({ kind: 'command', text: shown, runner, target })
    }
    const validScript = (s: string | undefined): s is string =>
      !!s && /^[\w:@./-]+$/.test(s) && !/^[.]+$/.test(s)
    if (tool === 'npm') {
      if (
        (args[0] === 'run' || args[0] === 'run-script' || args[0] === 'rr') &&
        validScript(args[1])
      ) {
        cmd('npm', args[1], `npm run ${args[1]}`)
      } else if (args[0] && NPM_SCRIPT_ALIASES[args[0]])
        cmd('npm', NPM_SCRIPT_ALIASES[args[0]], `npm ${args[0]}`)
    } else if (tool === 'pnpm' || tool === 'yarn') {
      const builtins = tool === 'pnpm' ? PNPM_BUILTINS : YARN_BUILTINS
      if (args[0] === 'run' && validScript(args[1])) cmd(tool, args[1], `${tool} run ${args[1]}`)
      else if (
        args[0] &&
        args[0] !== 'run' &&
        !builtins.has(args[0]) &&
        validScript(args[0]) &&
        /^[a-z]/.test(args[0]) &&
        (strict || COMMON_SCRIPTS.has(args[0]) || args[0].includes(':'))
      ) {
        cmd(tool, args[0], `${tool} ${args[0]}`)
      }
    } else if (tool === 'bun') {
      if (args[0] === 'run' && validScript(args[1]) && !hasExtension(args[1]))
        cmd('bun', args[1], `bun run ${args[1]}`)
    } else if (strict && tool === 'make') {
      for (const t of args.filter((a) => !a.includes('='))) {
        if (/^[\w./-]+$/.test(t)) cmd('make', t, `make ${t}`)
      }
    } else if (
      strict &&
      /^\.{1,2}\/./.test(tool) &&
      (!hasExtension(tool.split('/').pop() ?? '') || SCRIPT_FILE.test(tool))
    ) {
      cmd('file', normalisePath(tool), tool)
    } else if (strict && INTERPRETERS.has(tool)) {
      const script = tool === 'deno' && args[0] === 'run' ? args[1] : args[0]
      if (script && (script.includes('/') || hasExtension(script)) && looksLikePathWord(script)) {
        cmd('file', normalisePath(script), `${tool} ${script}`)
      }
    }
  }
  return out
}

function withoutFlags(words: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    if (w.startsWith('-')) {
      if (VALUE_FLAGS.has(w)) i++
      continue
    }
    out.push(w)
  }
  return out
}

/** What one inline code span names. */
function classifySpan(raw: string): Reference[] {
  const s = raw.trim()
  if (s === '') return []
  if (/^https?:\/\/\S+$/i.test(s)) return [urlRef(s)]
  const cmds = commandsIn(stripPrompt(s))
  if (cmds.length > 0) return cmds
  // A command line is not code the repository must contain: only its file arguments count.
  if (isCommandLine(s)) return commandLineRefs(s)
  if (/^@[\w.-]+\/[\w.-]+$/.test(s)) return [] // a scoped npm package, not a path
  const p = spanPathRef(s)
  if (p) return [p]
  const sym = symbolRef(s, false)
  if (sym) return [sym]
  const env = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=\S*$/.exec(s)
  if (env) return [{ kind: 'symbol', text: s, name: env[1], terms: [env[1]] }]
  // `applyCoupon(subtotal, coupon)` describes a call by its parameter names: the
  // function is what the note rests on, not that exact text.
  const call = CALL_SHAPE_RE.exec(s)
  const named = call ? symbolRef(`${call[1]}()`, false) : null
  if (named) return [{ ...named, text: s }]
  if (looksLikeCode(s) && !GLUED_PLACEHOLDER_RE.test(s)) return [snippetRef(s, false)]
  return []
}

/**
 * Programs whose command lines a note quotes. Such a line is an instruction to run
 * something, not code to find in the repository.
 */
const KNOWN_CLIS = new Set(
  (
    'git gh npm npx pnpm pnpx yarn bun bunx make node deno tsx ts-node python python3 pip pip3 uv ' +
    'poetry pipx ruby bundle gem go cargo rustup java mvn gradle dotnet docker docker-compose ' +
    'podman kubectl helm terraform aws gcloud az curl wget ssh scp rsync cd ls cat cp mv rm mkdir ' +
    'rmdir touch chmod chown ln echo export source sudo brew apt apt-get dnf yum pacman psql mysql ' +
    'sqlite3 redis-cli vitest jest mocha playwright eslint prettier tsc biome claude codex grep rg ' +
    'find sed awk tar unzip zip env watch code open xargs kill lsof'
  ).split(' '),
)

/** A span that is a shell command line (`git worktree add …`, `npx vitest run x`). */
function isCommandLine(s: string): boolean {
  const words = stripPrompt(s).trim().split(/\s+/)
  while (words.length > 1 && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) words.shift()
  return KNOWN_CLIS.has(words[0])
}

/**
 * What a command line names that the repository must hold: file arguments with a
 * known extension (`tests/cart.test.ts`), and URLs. Placeholders, flags, options and
 * paths outside the repository (`~/`, `/`, `../`) are not references.
 */
function commandLineRefs(line: string): Reference[] {
  const out: Reference[] = []
  for (const part of stripPrompt(line).split(/\s*(?:&&|\|\||;|\|)\s*/)) {
    const words = part.trim().split(/\s+/).slice(1)
    for (const raw of words) {
      const w = raw.replace(/^(['"])(.*)\1$/, '$2')
      if (/^https?:\/\/\S+$/i.test(w)) {
        out.push(urlRef(trimUrl(w)))
        continue
      }
      if (w.startsWith('-') || w.includes('=') || /^[~/]|^\.\.\//.test(w)) continue
      if (GLUED_PLACEHOLDER_RE.test(w) || !/^[\w@.+/-]+$/.test(w)) continue
      const last = w.replace(/\/+$/, '').split('/').pop() ?? ''
      if (
        !(hasExtension(last) && /[A-Za-z]/.test(last.split('.')[0] ?? '')) &&
        !SPECIAL_FILES.has(last)
      )
        continue
      if (NOT_FILES.has(w.toLowerCase())) continue
      const p = pathRef(w)
      if (p) out.push(p)
    }
  }
  return out
}

/** A back-ticked span that is a path: has a `/` or a known file extension. */
function spanPathRef(s: string): Reference | null {
  const raw = s.replace(/^@/, '')
  if (/[*?{}<>|"'`$\\]/.test(raw) || /^\s|\s$/.test(raw)) return null
  const body = raw.replace(/:\d+(?:-\d+)?$/, '')
  // Spaces only inside later segments (`src/my dir/a.ts`), never `cd src/x`.
  if (/\s/.test(body.split('/')[0] ?? '') || /\s-/.test(body)) return null
  const last = body.replace(/\/+$/, '').split('/').pop() ?? ''
  const isFile = hasExtension(last) || SPECIAL_FILES.has(last) || /^\.[\w][\w.-]*$/.test(last)
  if (!body.includes('/') && !isFile) return null
  if (/^[\w$]+(?:\.[\w$]+)+$/.test(body) && !hasExtension(last)) return null // `Class.method`
  if (NOT_FILES.has(body.toLowerCase())) return null
  return pathRef(raw)
}

/** A word in prose that is a path: a known extension, or a `./` or trailing-`/` folder. */
function prosePathRef(raw: string): Reference | null {
  if (raw.length < 3) return null
  const noLine = raw.replace(/:\d+(?:-\d+)?$/, '')
  if (NOT_FILES.has(noLine.toLowerCase())) return null
  const last = noLine.replace(/\/+$/, '').split('/').pop() ?? ''
  const ext =
    (hasExtension(last) && /[A-Za-z]/.test(last.split('.')[0] ?? '')) || SPECIAL_FILES.has(last)
  const relative = /^\.{1,2}\//.test(noLine) && noLine.length > 3
  const folder =
    noLine.endsWith('/') &&
    /^[\p{L}\p{N}_.@-]+(\/[\p{L}\p{N}_.@-]+)*\/$/u.test(noLine) &&
    /[a-z]/.test(noLine)
  if (!ext && !relative && !folder) return null
  return pathRef(raw)
}

function pathRef(raw: string): Extract<Reference, { kind: 'path' }> | null {
  const m = /^(.*?)(?::(\d+)(?:-\d+)?)?$/s.exec(raw)
  if (!m) return null
  const written = m[1]
  if (written === '' || /^[a-z][\w+.-]*:/i.test(written)) return null
  const dir = written.endsWith('/')
  const path = normalisePath(written)
  if (path === '' || path === '.') return null
  return { kind: 'path', text: raw, path, line: m[2] ? Number(m[2]) : null, dir }
}

/** Drop a leading `./` and trailing slashes. */
export function normalisePath(p: string): string {
  return p.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '')
}

function hasExtension(name: string): boolean {
  const dot = name.lastIndexOf('.')
  if (dot <= 0 && !name.startsWith('.')) return false
  return FILE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())
}

function looksLikePathWord(s: string): boolean {
  return /^[\w@.+/-]+$/.test(s)
}

/** An identifier that reads as code rather than English (memory-facts §6). */
function symbolRef(s: string, prose: boolean): Extract<Reference, { kind: 'symbol' }> | null {
  const m = SYMBOL_RE.exec(s)
  if (!m) return null
  const name = m[1]
  const call = m[2] !== undefined
  const terms = name.split(/\.|::|#/)
  const compound = terms.length > 1
  const camel = /[a-z0-9][A-Z]/.test(name)
  const snake = /[A-Za-z0-9]_[A-Za-z0-9]/.test(name) || /^_[A-Za-z]/.test(name)
  if (!(call || compound || camel || snake)) return null
  if (prose && !call) return null
  // `e.g()` or one-letter calls read as prose, not code.
  if (terms.some((t) => t.length === 0) || (call && !compound && name.length < 2)) return null
  return {
    kind: 'symbol',
    text: s,
    name,
    terms: terms.filter((t) => t.length > 1 || terms.length === 1),
  }
}

/** Inline code that reads as a statement or expression rather than a name. */
function looksLikeCode(s: string): boolean {
  if (s.length < 5 || /^-/.test(s)) return false
  if (/^[~.\w@-]*\/\S*$/.test(s) && !/[=(;]/.test(s)) return false // a path with placeholders
  if (!/[A-Za-z_]/.test(s)) return false
  return /[=;{}]|=>|->|\w\([^)]+\)|<\/?[A-Za-z][\w-]*[\s>/]/.test(s)
}

function snippetRef(code: string, fenced: boolean): Extract<Reference, { kind: 'snippet' }> {
  const lines = code.split(/\r?\n/)
  const text =
    code.length <= SNIPPET_TEXT_MAX && lines.length <= 5
      ? code
      : `${lines[0].slice(0, SNIPPET_TEXT_MAX)} … (${lines.length} lines)`
  return { kind: 'snippet', text, code, fenced }
}

function urlRef(url: string): Reference {
  return { kind: 'url', text: url, url }
}

function trimUrl(u: string): string {
  return u.replace(/[.,;:!?'"*_]+$/, '')
}

function looksLikeBranch(name: string): boolean {
  return /[/_\d-]/.test(name) || KNOWN_BRANCHES.has(name)
}
