/**
 * The one way tests run git to build fixtures: a fixed identity, no signing, `main` as the first
 * branch, file-protocol submodules allowed, and nothing from this machine — no system or global
 * config, no global ignore file, no inherited GIT_* variables (a test run inside a git hook would
 * otherwise write to the wrong repository). Returns stdout without its trailing newline; throws
 * with git's stderr when git fails.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const CONFIG = [
  'user.name=Fixture',
  'user.email=fixture@example.com',
  'commit.gpgsign=false',
  'tag.gpgsign=false',
  'init.defaultBranch=main',
  'protocol.file.allow=always',
]

function gitEnv(date: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: process.platform === 'win32' ? 'NUL' : '/dev/null',
    // The default global ignore file is $XDG_CONFIG_HOME/git/ignore: point it at nothing.
    XDG_CONFIG_HOME: join(tmpdir(), 'memory-curator-tests-no-xdg'),
  })
  if (date !== undefined) Object.assign(env, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date })
  return env
}

/** `git args…` in `cwd`; author and committer dates are the clock's. */
export function git(cwd: string, ...args: string[]): string {
  return run(cwd, args, undefined)
}

/** `git args…` in `cwd` with author and committer dates fixed to `date` (ISO 8601). */
export function gitAt(date: string, cwd: string, ...args: string[]): string {
  return run(cwd, args, date)
}

function run(cwd: string, args: readonly string[], date: string | undefined): string {
  const config = CONFIG.flatMap((c) => ['-c', c])
  const out = execFileSync('git', [...config, ...args], {
    cwd,
    env: gitEnv(date),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  })
  return out.trimEnd()
}

/** Write `files` (relative path → text) under `dir`, then commit everything as `message` (at `date`). */
export function commitFiles(
  dir: string,
  message: string,
  files: Record<string, string>,
  date?: string,
): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true })
    writeFileSync(join(dir, rel), text)
  }
  git(dir, 'add', '-A')
  run(dir, ['commit', '-q', '-m', message], date)
}

/** A new repository at `dir` whose first commit, "initial", holds `files` and what `dir` holds. */
export function initialCommit(dir: string, files: Record<string, string>, date?: string): void {
  mkdirSync(dir, { recursive: true })
  git(dir, 'init', '-q')
  commitFiles(dir, 'initial', files, date)
}
