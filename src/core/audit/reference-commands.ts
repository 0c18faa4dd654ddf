/**
 * Commands a note names: package-manager scripts, make targets and script files, from shell
 * blocks, code spans and prose; and what a quoted command line names besides (its file arguments
 * and URLs). Whether a script or target exists is decided in check-reference.ts.
 */
import { cdTarget, clonedFolder, dirFlag, toldPath } from './shell-folders'
import { GLUED_PLACEHOLDER_RE, trimUrl, urlRef } from './reference'
import type { CommandRunner, Reference } from './reference'
import {
  globOf,
  globRef,
  hasExtension,
  looksLikeFileName,
  looksLikePathWord,
  notAFile,
  pathRef,
} from './reference-paths'
import { normalizePath } from '../paths'

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

export function isShellBlock(lang: string, code: string): boolean {
  if (SHELL_LANGS.has(lang)) return true
  if (lang !== '') return false
  // An unlabelled block whose every line is a command we know is a shell block.
  const lines = code.split(/\r?\n/).filter((l) => l.trim() !== '' && !/^\s*#/.test(l))
  return (
    lines.length > 0 &&
    lines.every((l) => commandsIn(stripPrompt(l)).length > 0 || isCommandLine(l))
  )
}

export function stripPrompt(line: string): string {
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
/**
 * A line without the wrapper before its `--` (`dotenvx run -- pnpm run cli` → `pnpm run cli`;
 * blind set BT: a deleted script run through `dotenvx` read as nothing checkable). A runner's own
 * `--` (`pnpm dev -- --port 3000`) passes arguments and is kept.
 */
export function unwrapped(line: string): string {
  const m = /^\s*([\w.@/-]+)\s(?:[^|&;]*?\s)?--\s+(?=\S)/.exec(line)
  return m && !PASSES_DASHES.has(m[1]) && !m[0].includes('=') ? line.slice(m[0].length) : line
}

/** Package managers that run a dependency's program by its name (`pnpm tsx x.ts`). */
const RUNS_BINS = new Set(['pnpm', 'yarn', 'bun'])

/** Runners whose `--` passes the rest to the script they run, not a command of its own. */
const PASSES_DASHES = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'pnpx',
  'bunx',
  'make',
  'cargo',
])
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
const SCRIPT_FILE = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|ps1)$/
const INTERPRETERS = new Set([
  'bash',
  'sh',
  'zsh',
  'node',
  'python',
  'python3',
  // Windows' Python launcher (blind set DZ te-t04: `py -m streamlit run apps/app_main.py`).
  'py',
  'ruby',
  'perl',
  'tsx',
  'ts-node',
  'deno',
])

/**
 * Commands in one shell line. `strict` (code) accepts `make` and interpreter
 * forms; prose only accepts package-manager commands. `shell`: the line is a shell block's, where
 * a script's path alone runs it.
 */
export function commandsIn(line: string, strict = true, shell = false): Reference[] {
  const out: Reference[] = []
  let dir: string | undefined
  let cloned: string | null = null
  for (const part of unwrapped(line).split(/\s*(?:&&|\|\||;|\|)\s*/)) {
    const words = part
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '')
    // Skip leading `VAR=value` environment assignments.
    while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) words.shift()
    if (words.length === 0) continue
    const [tool, ...rest] = words
    cloned = clonedFolder(words) ?? cloned
    // `cd apps/cli && pnpm dev`: the scripts and targets after it are that folder's.
    const cd = cdTarget(tool, rest)
    if (cd !== null) {
      // A folder outside the repository (`cd ~/other`) leaves no folder of this one behind; the
      // checkout a `git clone` just made is the repository itself (blind set DA ic-r12).
      dir = cd.startsWith('~') || cd === cloned ? undefined : normalizePath(cd)
      continue
    }
    const told = dirFlag(tool, rest)
    const here = told === null ? dir : normalizePath(told)
    const args = withoutFlags(rest)
    // `pnpm tsx scripts/x.ts`, `yarn exec node x.js`: a package manager running an interpreter
    // runs the script it is given (blind set BT: a deleted script read as a `tsx` script).
    const run = args[0] === 'exec' ? 1 : 0
    if (RUNS_BINS.has(tool) && INTERPRETERS.has(args[run] ?? '') && args.length > run + 1) {
      out.push(...commandsIn(args.slice(run).join(' '), strict, shell))
      continue
    }
    const text = words.join(' ')
    const cmd = (runner: CommandRunner, target: string, shown = text): void => {
      // A script run after `cd rodski-web` is that folder's, if the repository had it there
      // (blind set DB ro-r11: `python src/app.py` read as a root `src/app.py` deleted since).
      if (runner === 'file' && here !== undefined && !/^[/~]/.test(target)) {
        const path = normalizePath(`${here}/${target}`)
        out.push({ kind: 'path', text: shown, path, line: null, dir: false, maybe: true })
        return
      }
      const inDir = here !== undefined && runner !== 'file' ? { dir: here } : {}
      out.push({ kind: 'command', text: shown, runner, target, ...inDir })
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
      cmd('file', normalizePath(tool), tool)
    } else if (strict && (rest.length > 0 || shell) && isScriptPath(tool)) {
      // `scripts/topic-log.py status --json`: a script run by its path (blind set AY); alone on
      // a shell block's line (`scripts/repo/test-impacted.ps1`, blind set BR) too.
      cmd('file', normalizePath(tool), tool)
    } else if (strict && INTERPRETERS.has(tool)) {
      const script = tool === 'deno' && args[0] === 'run' ? args[1] : args[0]
      if (script && (script.includes('/') || hasExtension(script)) && looksLikePathWord(script)) {
        cmd('file', normalizePath(script), `${tool} ${script}`)
      }
    }
  }
  return out
}

/** `scripts/x.py`: a relative path with a folder, ending in a script's extension. */
function isScriptPath(word: string): boolean {
  return /^[\w.-]+\/[\w./-]*$/.test(word) && SCRIPT_FILE.test(word) && looksLikePathWord(word)
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

/**
 * Programs whose command lines a note quotes. Such a line is an instruction to run
 * something, not code to find in the repository.
 */
const KNOWN_CLIS = new Set(
  (
    'git gh npm npx pnpm pnpx yarn bun bunx make node deno tsx ts-node python python3 py pip pip3 uv ' +
    'poetry pipx ruby bundle gem go cargo rustup java mvn gradle dotnet docker docker-compose ' +
    'podman kubectl helm terraform aws gcloud az curl wget ssh scp rsync cd pushd ls cat cp mv rm mkdir ' +
    'rmdir touch chmod chown ln echo export source sudo brew apt apt-get dnf yum pacman psql mysql ' +
    'sqlite3 redis-cli vitest jest mocha playwright eslint prettier tsc biome claude codex grep rg ' +
    'find sed awk tar unzip zip env watch code open xargs kill lsof ' +
    'vim vi nvim nano emacs less head tail ' +
    'pytest mypy black isort flake8 ruff pylint bandit coverage tox nox uvicorn gunicorn alembic'
  ).split(' '),
)

/** A span that is a shell command line (`git worktree add …`, `npx vitest run x`). */
export function isCommandLine(s: string): boolean {
  const words = unwrapped(stripPrompt(s)).trim().split(/\s+/)
  while (words.length > 1 && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) words.shift()
  return KNOWN_CLIS.has(words[0])
}

/** The folders a shell line's `cd`s go to (or a tool is told to run in), as folder references (`cd apps/cli && pnpm dev`). */
export function cdFolders(line: string): Reference[] {
  return stripPrompt(line)
    .split(/\s*(?:&&|\|\||;|\|)\s*/)
    .flatMap((part) => {
      const [tool, ...words] = part.trim().split(/\s+/)
      const cd = cdTarget(tool, words) ?? dirFlag(tool, words)
      const p = cd === null ? null : pathRef(`${cd}/`)
      return p ? [p] : []
    })
}

/**
 * The manifest a tool reads in the folder it runs in (`uv run` → `pyproject.toml`); several are
 * alternatives. Undefined: the tool reads none, or not for this subcommand.
 */
function manifestsOf(tool: string, args: readonly string[]): readonly string[] | undefined {
  const sub = args[0] ?? ''
  if (tool === 'uv')
    return /^(?:run|sync|add|remove|lock|tree|build)$/.test(sub) ? PYPROJECT : undefined
  if (tool === 'poetry') return /^(?:new|init|self|config)$/.test(sub) ? undefined : PYPROJECT
  if (tool === 'cargo') return /^(?:install|new|init)$/.test(sub) ? undefined : ['Cargo.toml']
  if (tool === 'go')
    return /^(?:build|test|run|vet|generate|mod)$/.test(sub) && args[1] !== 'init'
      ? ['go.mod']
      : undefined
  if (/^(?:npm|pnpm|yarn|bun)$/.test(tool))
    return /^(?:init|create|dlx|x|global)$/.test(sub) ? undefined : ['package.json']
  if (tool === 'make') return ['Makefile']
  if (tool === 'mvn') return ['pom.xml']
  if (tool === 'flutter' || tool === 'dart') return ['pubspec.yaml']
  if (tool === 'bundle') return ['Gemfile']
  if (tool === 'composer') return ['composer.json']
  if (tool === 'docker' && sub === 'compose') return COMPOSE_FILES
  if (tool === 'docker-compose') return COMPOSE_FILES
  return undefined
}
const PYPROJECT = ['pyproject.toml']
/** A flag that tells a tool which manifest or folder to read. */
const TOLD_FILE_RE =
  /^(?:-f|--file|--manifest-path|-C|--dir|--cwd|--prefix|--project|--directory)(?:=|$)/
const COMPOSE_FILES = ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml']

/**
 * `cd executor && uv run pytest` rests on `executor/pyproject.toml` (blind set BX: a Python
 * service rewritten in Rust under its test command). Each manifest is a `maybe` path with the
 * line as its text: it counts only if the folder had it when the note was written, and one that
 * holds stands for the others (maybe-paths.ts). A tool told which file to read (`-f`,
 * `--manifest-path`) is left alone.
 */
export function cdManifests(line: string): Reference[] {
  const out: Reference[] = []
  let dir: string | undefined
  for (const part of unwrapped(stripPrompt(line)).split(/\s*(?:&&|\|\||;|\|)\s*/)) {
    const [tool = '', ...words] = part.trim().split(/\s+/)
    const cd = cdTarget(tool, words)
    if (cd !== null) {
      dir = cd.startsWith('~') ? undefined : normalizePath(cd)
      continue
    }
    if (dir === undefined || words.some((w) => TOLD_FILE_RE.test(w))) continue
    const names = manifestsOf(tool, withoutFlags(words))
    const text = `cd ${dir} && ${part.trim()}`
    for (const n of names ?? [])
      out.push({ kind: 'path', text, path: `${dir}/${n}`, line: null, dir: false, maybe: true })
  }
  return out
}

/** What one line of a shell block names: its commands (and the folders it `cd`s to), else a known program's file arguments. */
export function shellLineRefs(line: string): Reference[] {
  const cmds = commandsIn(stripPrompt(line), true, true)
  if (cmds.length > 0) return [...cdFolders(line), ...cmds, ...cdManifests(line)]
  return isCommandLine(line) ? commandLineRefs(line) : []
}

/**
 * What a command line names that the repository must hold: file arguments with a
 * known extension (`tests/cart.test.ts`), folder arguments ending in `/`, and URLs. Placeholders, flags, options and
 * paths outside the repository (`~/`, `/`, `../`) are not references.
 */
export function commandLineRefs(line: string): Reference[] {
  const out: Reference[] = []
  for (const part of unwrapped(stripPrompt(line)).split(/\s*(?:&&|\|\||;|\|)\s*/)) {
    const [tool, ...words] = part.trim().split(/\s+/)
    // `cd mobile && dart pub get`: the one argument of `cd` is a folder (blind set AT); in a home,
    // it may be a checkout of this repository (`cd ~/app/mobile`, repo-paths.ts; blind set BA).
    const cd = cdTarget(tool, words)
    if (cd !== null) {
      const p = pathRef(`${cd}/`)
      if (p) out.push(p)
      continue
    }
    words.forEach((raw, i) => {
      const told = toldPath(words[i - 1] ?? '', raw)
      if (told) out.push(told)
    })
    for (const raw of words) {
      // `tests/x.py::test_one`: a pytest node is its file.
      const w = raw.replace(/^(['"])(.*)\1$/, '$2').replace(/(\.py)::[\w<>[\]-]+$/, '$1')
      if (/^https?:\/\/\S+$/i.test(w)) {
        out.push(urlRef(trimUrl(w)))
        continue
      }
      if (w.startsWith('-') || w.includes('=') || /^[~/]|^\.\.\//.test(w)) continue
      // A Go package (`./internal/...`, `./examples/website/`) is its folder (blind set EB gf-t04).
      const pkg = /^\.\/([\w@+-][\w@.+-]*(?:\/[\w@.+-]+)*?)\/(?:\.\.\.)?$/.exec(w)
      const told = pkg && /[A-Za-z]/.test(pkg[1]) ? pathRef(`${pkg[1]}/`) : null
      if (told) out.push(told)
      if (pkg) continue
      // `agent-container/test_<name>.py`: the files it stands for, as a glob (blind set BT).
      const starred = globOf(w) ?? w
      const glob =
        GLUED_PLACEHOLDER_RE.test(w) && hasExtension(starred.split('/').pop() ?? '')
          ? globRef(starred)
          : null
      if (glob) out.push({ ...glob, text: w })
      if (GLUED_PLACEHOLDER_RE.test(w) || !/^[\w@.+/-]+$/.test(w)) continue
      const last = w.replace(/\/+$/, '').split('/').pop() ?? ''
      // A folder argument written as one (`pytest tests/api/`, `mypy src/ tests/`): blind set
      // AP, a test suite deleted under its commands.
      const folder = /^[\w@+-][\w@.+-]*(?:\/[\w@.+-]+)*\/$/.test(w) && /[A-Za-z]/.test(w)
      // `./helm/app`: a path from the current folder however it ends (blind set CG: a chart).
      const here = /^\.\/[\w@+-][\w@.+-]*\/[\w@.+/-]*[\w@+-]$/.test(w)
      if (!folder && !here && (!looksLikeFileName(last) || notAFile(w))) continue
      const p = pathRef(w)
      if (p) out.push(p)
    }
  }
  return [...out, ...cdManifests(line)]
}
