/**
 * Which words name files: known extensions and extension-less file names, product names
 * that only look like files, and the path references made from back-ticked spans, prose
 * words and command arguments.
 */
import { normalizePath } from '../paths'
import type { Reference } from './reference'
import { placeholderPathRef } from './placeholder-paths'

/** Extensions that make a word a file name. */
const FILE_EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx markdown txt rst yml yaml toml ini cfg conf ' +
    'env lock lockb py pyi ipynb rb go mod sum rs java kt kts scala clj swift m mm c h cc cpp cxx hpp hh cs fs ' +
    'php pl pm lua r dart zig zon nim ex exs erl hrl hs ml mli elm vue svelte astro html htm css scss sass less ' +
    'styl sh bash zsh fish ps1 bat cmd sql graphql gql proto tf tfvars hcl nix bzl bazel cmake mk gradle ' +
    'properties xml xsd svg png jpg jpeg gif webp ico pdf wasm csv tsv log patch diff plist dockerfile ' +
    'template tpl hbs ejs pug njk jinja j2 editorconfig gitignore npmrc nvmrc sln slnx csproj fsproj ' +
    'vbproj props targets'
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
  'node.js next.js vue.js nuxt.js express.js three.js d3.js chart.js react.js ember.js backbone.js angular.js deno.js bun.js socket.io p5.js alpine.js solid.js console.log logger.log'.split(
    ' ',
  ),
)

/**
 * Dot-names that are files on their own; any other `.name` alone is a file extension (`.js`
 * files) or a property (`.color`), not a path (issue 12 item 2).
 */
const DOTFILE_RE =
  /^\.(?:env(?:\.[\w.-]+)?|[\w-]*rc|[\w-]*ignore|gitattributes|gitmodules|editorconfig|tool-versions|python-version|node-version|mailmap|htaccess|flake8|dockerfile)$/i

/** `.js`, `.color`: a lone dot-name that is not a known dotfile. */
export function isDotWord(s: string): boolean {
  return /^\.[\w-]+$/.test(s) && !DOTFILE_RE.test(s)
}

/**
 * Placeholders inside a path: `batch-NN/`, `NNN-name.md`, `YYYY-MM-DD.md`, `[algo].html`.
 * Such a path names a pattern, not one file (issue 12 item 2); it is checked only in case it
 * exists as written (`pages/[id].tsx` is a real Next.js file).
 */
export const PATH_PLACEHOLDER_RE =
  /(?:^|[-_./])(?:N{2,}|X{2,}|YYYY|MM|DD)(?=$|[-_./])|\[[A-Za-z][\w-]*\]|…|(?:^|\/)\.{3}(?=\/|$)/

/** A utility class with a `/` modifier (`bg-white/10`, `w-1/2`, `hover:text-red-500/70`). */
const CLASS_WITH_SLASH_RE =
  /^!?(?:[a-z][\w-]*:)*-?[a-z][a-z0-9-]*-[\w.[\]#-]+\/(?:\d+|\[[^\]\s]+\])$/
/** A utility class with an arbitrary value (`text-[9px]`, `md:h-[4.5rem]`, `bg-[#007AFF]`). */
const CLASS_WITH_VALUE_RE = /^!?(?:[a-z][\w-]*:)*-?[a-z][a-z0-9-]*-\[[^\]\s]+\]$/
/** A utility class without one (`backdrop-blur-xl`, `md:h-[4.5rem]`, `border-b`). */
const CLASS_RE = /^!?(?:[a-z][\w-]*:)*-?[a-z][a-z0-9]*(?:-[\w.[\]%#()]+)*$/

/**
 * Utility classes with no `/` or `[value]` to tell them from other words (`shadow-md
 * -translate-y-px`): two parts or more, each class-shaped, two of them with an inner `-`. Weaker
 * than isClassList: used only for literal text the code must have held (prose-names.ts
 * `classSpans`), never to decide what is a path.
 */
export function isPlainClassList(s: string): boolean {
  const parts = s.trim().split(/\s+/)
  return (
    parts.length >= 2 &&
    parts.every((x) => CLASS_RE.test(x) && !hasExtension(x)) &&
    parts.filter((x) => /^-?[a-z][a-z0-9]*-/.test(x)).length >= 2
  )
}

/**
 * Whether a span is utility classes, at least one with a `/` modifier or an arbitrary `[value]`
 * (the shapes no word, command or path has): one such class, or a
 * space-separated list of classes (a path with a space in it has a segment after a `/` that is
 * no class: `src/my dir/a.ts`).
 */
export function isClassList(s: string): boolean {
  const parts = s.trim().split(/\s+/)
  return (
    parts.some((x) => CLASS_WITH_SLASH_RE.test(x) || CLASS_WITH_VALUE_RE.test(x)) &&
    parts.every((x) => CLASS_WITH_SLASH_RE.test(x) || (CLASS_RE.test(x) && !hasExtension(x)))
  )
}

/** A host name's last label: `github.com/owner/repo` is a web address, not a folder. */
const WEB_HOST_RE =
  /^(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|ai|co|me|sh|so|gg|xyz|cloud|page|pages\.dev)\/\S*$/i

/** Whether a path-shaped text is a web address without its scheme (`github.com/owner/repo`). */
export function isWebAddress(s: string): boolean {
  return WEB_HOST_RE.test(s)
}

const MEMBER_ALTERNATIVES_RE = /^_?[A-Z_][\w$]*\.[A-Za-z_$][\w$]{0,11}(?:\/[A-Za-z_$][\w$]{0,11})+$/

/** A back-ticked span that is a path: has a `/` or a known file extension. */
export function spanPathRef(s: string): Reference | null {
  const raw = s.replace(/^@/, '')
  // `<project>/.claude/commands/`, `$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh`: from the
  // repository's root (blind set CC: a commands folder since removed, read as a pattern).
  const root = ROOT_PLACEHOLDER_RE.exec(raw)
  if (root) {
    const rest = spanPathRef(raw.slice(root[0].length))
    return rest === null ? null : { ...rest, text: s }
  }
  // `.migration_freeze`: a dot-name of two words, a file if the repository had one (set BB).
  const two = isDotWord(raw) && /^\.[a-z]+[_-][a-z][\w-]*$/.test(raw) ? pathRef(raw) : null
  if (two) return { ...two, maybe: true }
  if (isDotWord(raw) || isWebAddress(raw)) return null
  // `Read/Write/Edit`, `Stale/Fresh`: alternatives, not a folder path; `find_op/2`: a
  // function's name and arity (Erlang, Elixir), not a path.
  if (/^[A-Z][a-z]+(?:\/[A-Z][a-z]+)+$/.test(raw) || /^[a-z_][\w]*\/\d+$/.test(raw)) return null
  // `[Fe/H]`, `[Fe/H]=0.25`: a bracketed notation; `_Track.Bes/Fs`: a class's field and the
  // ones beside it, as alternatives (blind set AY: five true notes read as wrong from the start).
  if (/^\[[^[\]/]*\/[^[\]]*\][^/]*$/.test(raw) || MEMBER_ALTERNATIVES_RE.test(raw)) return null
  // `GET/POST /reports`: an HTTP route with its methods, not a path of the repository.
  if (/^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)(?:\/[A-Z]+)*\s+\//.test(raw)) return null
  // `text-violet-500/70`, `w-1/2`, `bg-slate-50/95 backdrop-blur-xl`: utility classes whose `/`
  // is an opacity or a fraction, not a folder (issue 12 item 2).
  if (isClassList(raw)) return null
  const glob = globRef(raw) ?? placeholderPathRef(raw)
  if (glob) return glob
  if (/[*?{}<>|"'`$\\]/.test(raw) || /^\s|\s$/.test(raw)) return null
  const body = raw.replace(/:\d+(?:-\d+)?$/, '')
  // `Product brief v2.docx`: a document's name may hold spaces (blind set DG om-r06).
  if (/^[\w(][\w().,&+-]* [\w ().,&+-]*\.(?:docx?|xlsx?|pptx?|pdf|odt|rtf)$/i.test(body))
    return pathRef(raw)
  // Spaces only inside later segments (`src/my dir/a.ts`), never `cd src/x`.
  if (/\s/.test(body.split('/')[0] ?? '') || /\s-/.test(body)) return null
  const last = body.replace(/\/+$/, '').split('/').pop() ?? ''
  const isFile = hasExtension(last) || SPECIAL_FILES.has(last) || /^\.[\w][\w.-]*$/.test(last)
  if (!body.includes('/') && !isFile) return null
  if (/^[\w$]+(?:\.[\w$]+)+$/.test(body) && !hasExtension(last)) return null // `Class.method`
  if (notAFile(body)) return null
  return pathRef(raw)
}

/** A placeholder or variable for the repository's root, then `/`. */
const ROOT_PLACEHOLDER_RE =
  /^(?:<(?:project|repo|root)(?:[-_ ]?root|[-_ ]?dir)?>|\{(?:project|repo|root)(?:[-_]?root|[-_]?dir)?\}|"?\$\{?(?:CLAUDE_PROJECT_DIR|PROJECT_ROOT|PROJECT_DIR|REPO_ROOT)\}?"?)\/(?=[\w.])/i

/**
 * A glob of files (`targets/profiles/*.json`, `src/**\/*.test.ts`): a pattern, not one path. It is
 * checked as a pattern (src/node/audit/prose-then.ts: the files it matched when the note was
 * written, and now), so only a glob with a folder or a known extension counts.
 */
export function globRef(raw: string): Reference | null {
  if (!/^[\w@.+/-]*\*[\w@.*+/-]*$/.test(raw) || !/[A-Za-z]/.test(raw)) return null
  const last = raw.replace(/\/+$/, '').split('/').pop() ?? ''
  if (!raw.includes('/') && !hasExtension(last)) return null
  const dir = raw.endsWith('/')
  const path = normalizePath(raw)
  if (path === '.' || path.startsWith('/')) return null
  return { kind: 'path', text: raw, path, line: null, dir, pattern: true }
}

/** A word in prose that is a path: a known extension, or a `./` or trailing-`/` folder. */
export function prosePathRef(raw: string): Reference | null {
  // `@notes/x.md`, `@.cursor/commands.md`: an import names the file after its `@`, from the
  // importing file (docs/memory-rules.md §3.4; blind set CQ me-t02). `@scope/pkg` has no
  // extension: a package, read as before.
  const imported = /^@[\p{L}\p{N}_.~]/u.test(raw) ? raw.slice(1).replace(/:\d+(?:-\d+)?$/, '') : ''
  if (imported !== '' && looksLikeFileName(imported.split('/').pop() ?? '')) {
    const ref = prosePathRef(raw.slice(1))
    return ref && { ...ref, text: raw }
  }
  // `@sources/app/`: a path alias (tsconfig `paths`) for the folder after its `@`, counted only
  // if the repository had it (blind set CW hp-r08: read as a folder no commit ever had).
  if (/^@[a-z][\w-]*\/[\w./-]*\/$/.test(raw)) {
    const ref = prosePathRef(raw.slice(1))
    return ref?.kind === 'path' && !ref.pattern ? { ...ref, text: raw, maybe: true } : null
  }
  if (raw.length < 3 || isDotWord(raw) || isWebAddress(raw)) return null
  const noLine = raw.replace(/:\d+(?:-\d+)?$/, '')
  if (notAFile(noLine)) return null
  const last = noLine.replace(/\/+$/, '').split('/').pop() ?? ''
  const ext = looksLikeFileName(last)
  const relative = /^\.{1,2}\//.test(noLine) && noLine.length > 3
  const folder =
    noLine.endsWith('/') &&
    /^[\p{L}\p{N}_.@-]+(\/[\p{L}\p{N}_.@-]+)*\/$/u.test(noLine) &&
    /[a-z]/.test(noLine)
  if (ext || relative || folder) return pathRef(raw)
  // `LEGACY/`: a folder in capitals, counted only if the repository had it (blind set DY jk-t04:
  // a tree the note said to ignore, deleted since); `I/O/` is no such word.
  if (/^[A-Z][A-Z0-9_-]{2,}\/$/.test(noLine)) {
    const ref = pathRef(noLine)
    return ref ? { ...ref, maybe: true } : null
  }
  // `src/ui/hud`: maybe a folder or an extension-less file; the repository decides. A rate
  // (`10,000 steps/day`, `req/min`) is no path (blind set CV zy-r02: `steps` read as a name gone).
  if (!MAYBE_PATH_RE.test(noLine) || RATE_RE.test(noLine)) return null
  const ref = pathRef(noLine)
  return ref && !ref.pattern ? { ...ref, maybe: true } : null
}

/**
 * `tray.py/splitter.py`: file names joined by slashes are alternatives, each a file, not one
 * path (no folder is named `tray.py`; issue 12 item 2, blind set M). Null when it is not such
 * a list.
 */
export function fileAlternatives(raw: string): Extract<Reference, { kind: 'path' }>[] | null {
  const parts = raw.split('/')
  if (parts.length < 2 || !parts.every((x) => /^[\w.-]+$/.test(x) && looksLikeFileName(x)))
    return null
  const refs = parts.flatMap((x) => pathRef(x) ?? [])
  return refs.length === parts.length ? refs : null
}

/** A quantity per unit of time: `steps/day`, `tokens/sec`, `push-ups/week`. */
const RATE_RE =
  /^[a-z][\w-]*\/(?:day|night|hour|hr|h|min|minute|sec|second|s|ms|week|wk|month|year|yr)$/
/** Lower-case first, two segments or more, no trailing `/`: `src/standalone`, `apps/web/src`. */
const MAYBE_PATH_RE = /^[a-z][\p{Ll}\p{N}_.-]*(?:\/[\p{L}\p{N}_.-]+)+$/u

export function pathRef(raw: string): Extract<Reference, { kind: 'path' }> | null {
  const m = /^(.*?)(?::(\d+)(?:-\d+)?)?$/s.exec(raw)
  if (!m) return null
  const written = m[1]
  if (written === '' || /^[a-z][\w+.-]*:/i.test(written)) return null
  const dir = written.endsWith('/')
  const path = normalizePath(written)
  // `/` alone (a site's root route, "a crash on `/`") names no file or folder (blind set CH
  // sg-r10: read as a folder outside the repository, the note "wrong from the start").
  if (path === '.' || path === '/') return null
  const line = m[2] ? Number(m[2]) : null
  return PATH_PLACEHOLDER_RE.test(path)
    ? { kind: 'path', text: raw, path, line, dir, pattern: true }
    : { kind: 'path', text: raw, path, line, dir }
}

/** A file name with a known extension and a letter before it, or a known extension-less one. */
export function looksLikeFileName(name: string): boolean {
  return (
    (hasExtension(name) && /[A-Za-z]/.test(name.split('.')[0] ?? '')) || SPECIAL_FILES.has(name)
  )
}

/**
 * A product name, or a logging call, that only looks like a file (`node.js`; `console.log`, read
 * as a log file the repository ignores: blind set DU cq-t05).
 */
export function notAFile(word: string): boolean {
  return NOT_FILES.has(word.toLowerCase())
}

export function hasExtension(name: string): boolean {
  const dot = name.lastIndexOf('.')
  if (dot <= 0 && !name.startsWith('.')) return false
  return FILE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())
}

export function looksLikePathWord(s: string): boolean {
  return /^[\w@.+/-]+$/.test(s)
}

/**
 * `/deploy`, `/skill nueva-migracion`, `/agente componentes --prompt "…"`, a plugin's
 * `/adam:pin-actions-to-sha`: a slash command.
 */
const SLASH_COMMAND_RE = /^\/(?:([a-z][\w-]*):)?([a-z][\w-]*)(?:\s+([a-z][\w-]*))?(?:\s.*)?$/s

/**
 * A slash command names no path of the machine: what it rests on is the file in the repository
 * that defines it, a custom command (`.claude/commands/<name>.md`) or a skill
 * (`.claude/skills/<name>/SKILL.md`, or a loose `.claude/skills/<name>.md`), or the same in a
 * plugin the repository holds (`commands/`, `skills/`, a loose `skills/<name>.md` too (blind set
 * BM), at its root or under `plugins/<plugin>/`;
 * `/<plugin>:<name>` names the plugin). Its first argument is tried too (`/skill
 * nueva-migracion` runs the skill `nueva-migracion`). Each candidate is a `maybe` path: it
 * counts only if the repository had it when the note was written (judge-notes.ts), so a
 * built-in command (`/clear`) or a web route (`/welcome`) says nothing. Blind set O: a skill a
 * plugin retired, named as `/adam:pin-actions-to-sha`. Null when the span is no slash command.
 */
export function slashCommandRefs(s: string): Reference[] | null {
  const m = SLASH_COMMAND_RE.exec(s)
  if (!m || hasExtension(m[2])) return null
  const plugin = m[1]
  const names = [m[2], ...(m[3] !== undefined && !hasExtension(m[3]) ? [m[3]] : [])]
  const roots = ['', ...(plugin === undefined ? [] : [`plugins/${plugin}/`])]
  // A skill folder named with its prefix (`.claude/skills/meow:memory/`): `/meow:memory` is that
  // folder's name, not plugin `meow`'s `memory` (maybe-paths.ts `withHeldAlternatives`).
  const literal = plugin === undefined ? [] : namedItems(`${plugin}:${m[2]}`, s)
  return literal.concat(
    names.flatMap((n) =>
      maybePaths(
        [
          `.claude/commands/${n}.md`,
          `.claude/skills/${n}/SKILL.md`,
          `.claude/skills/${n}.md`,
          `.agents/skills/${n}/SKILL.md`,
          ...roots.flatMap((r) => [
            `${r}commands/${n}.md`,
            `${r}skills/${n}/SKILL.md`,
            `${r}skills/${n}.md`,
          ]),
        ],
        s,
      ),
    ),
  )
}

/**
 * What an example span (`e.g. \`/adam:pin-actions-to-sha\``, "such as `apps/web-pc/`") still names
 * of the repository: a slash command's files, or a path with a folder, each a `maybe` path counted
 * only if the repository had it when the note was written (blind set O: a plugin's retired
 * command; CE: an app folder renamed since). An example the repository never had says nothing.
 */
export function exampleRefs(s: string): Reference[] {
  const slash = slashCommandRefs(s)
  if (slash) return slash
  const p = spanPathRef(s)
  return p?.kind === 'path' && p.path.includes('/') && !p.pattern ? [{ ...p, maybe: true }] : []
}

/** The files of a skill, subagent or command a prefixed name (`meow:plan-creator`) names as written. */
function namedItems(name: string, text: string): Reference[] {
  return maybePaths(
    [`.claude/skills/${name}/SKILL.md`, `.claude/agents/${name}.md`, `.claude/commands/${name}.md`],
    text,
  )
}

/** Files a span may name, each a `maybe` path: counted only if the repository had it then. */
function maybePaths(paths: readonly string[], text: string): Reference[] {
  return paths.map((path) => ({ kind: 'path', text, path, line: null, dir: false, maybe: true }))
}

/** `meow:plan-creator`: a skill's name with the prefix its folder carries. */
const PREFIXED_NAME_RE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*:[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

/** `systematic-debugging`, `pipeline-choice`: a bare name of two or more lower-case words. */
const KEBAB_NAME_RE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/

/**
 * A bare back-ticked kebab name may be one of the agent's own items the repository keeps: a skill
 * (`.claude/skills/<name>/SKILL.md` or a loose `<name>.md`), a rule (`.claude/rules/<name>.md`), a
 * subagent, a custom command, or the same at a plugin's root. Each candidate is a `maybe` path, as
 * a slash command's are: it counts only if the repository had it when the note was written
 * (judge-notes.ts), so a package, a CSS class or a flag's name says nothing. Blind set BE: an
 * AGENTS.md listing skills and rules by name, seven of which a consolidation deleted.
 */
export function agentItemRefs(s: string): Reference[] | null {
  // A prefixed name (blind set CC: `meow:plan-creator`, a folder since renamed `plan-creator`).
  if (PREFIXED_NAME_RE.test(s)) return namedItems(s, s)
  if (!KEBAB_NAME_RE.test(s)) return null
  return maybePaths(
    [
      `.claude/skills/${s}/SKILL.md`,
      `.claude/skills/${s}.md`,
      // The skills folder other agents read (Codex): a skill kept there alone is still the skill
      // (blind set DX da-r04: `.claude/skills/` dropped, its skills kept in `.agents/skills/`).
      `.agents/skills/${s}/SKILL.md`,
      `.claude/rules/${s}.md`,
      `.claude/agents/${s}.md`,
      `.claude/commands/${s}.md`,
      `skills/${s}/SKILL.md`,
      `agents/${s}.md`,
      `commands/${s}.md`,
    ],
    s,
  )
}

/** A path's placeholders (`[algo]`, `NN`, `<id>`, `{x}`) as `*`; null when it has none. */
export function globOf(path: string): string | null {
  if (!/[*?]/.test(path) && !PATH_PLACEHOLDER_RE.test(path) && !/[<{][A-Za-z]/.test(path))
    return null
  return path
    .replace(/\[[A-Za-z][\w-]*\]|<[A-Za-z][\w -]*>|\{[A-Za-z][\w-]*\}/g, '*')
    .replace(/(^|[-_./])(?:N{2,}|X{2,}|YYYY|MM|DD)(?=$|[-_./])/g, '$1*')
}

/** Folders in the home that many tools share: no one program's own. */
export const SHARED_HOME_DIRS = new Set(
  '.config .cache .local .ssh .npm .nvm .aws .kube .docker .vscode .cursor .gnupg .cargo .rustup .pyenv .gradle .bun .deno .yarn .pnpm .git .claude .codex .gemini .env .bashrc .zshrc .profile'.split(
    ' ',
  ),
)
