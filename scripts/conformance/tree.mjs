/**
 * A conformance case's tree in a temporary folder T: the files it names, git repositories and a
 * linked worktree, MEMORY.md in the folder the agent would use, approvals, and the environment
 * that keeps both agents inside T (temporary HOME and config folders, no telemetry or updates).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Our own reference of the agent's long-name hash, for placing memory folders (docs/memory-rules.md §1). */
function encodeProjectDir(abs) {
  const enc = abs.replace(/[^A-Za-z0-9]/g, '-')
  if (enc.length <= 200) return enc
  let h = 0n
  for (let i = 0; i < abs.length; i++) h = BigInt.asIntN(32, h * 31n + BigInt(abs.charCodeAt(i)))
  return `${enc.slice(0, 200)}-${(h < 0n ? -h : h).toString(36)}`
}

function git(cwd, ...args) {
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'pipe' },
  )
}

/** Build a case's tree under T; returns the launch dir and the env. */
export function buildTree(T, c) {
  const put = (rel, text) => {
    mkdirSync(dirname(join(T, rel)), { recursive: true })
    writeFileSync(join(T, rel), text)
  }
  mkdirSync(join(T, 'home/.claude'), { recursive: true })
  mkdirSync(join(T, 'home/.codex'), { recursive: true })
  mkdirSync(join(T, 'proj'), { recursive: true })
  for (const [rel, text] of Object.entries(c.tree)) put(rel, text)
  for (const g of c.git ?? ['proj']) git(join(T, g), 'init', '-q')
  let mainRoot = (c.git ?? ['proj']).length > 0 ? join(T, 'proj') : null
  if (c.worktree) {
    git(join(T, 'proj'), 'add', '-A')
    git(join(T, 'proj'), 'commit', '-qm', 'init', '--allow-empty')
    git(join(T, 'proj'), 'worktree', 'add', '-q', '-b', 'feat', join(T, c.worktree.path))
  }
  const cwd = join(T, c.cwd ?? 'proj')
  mkdirSync(cwd, { recursive: true })
  if (c.memory !== undefined) {
    const root = mainRoot ?? cwd
    put(join('home/.claude/projects', encodeProjectDir(root), 'memory', 'MEMORY.md'), c.memory)
    put(join('home/.claude/projects', encodeProjectDir(root), 'memory', 'topic.md'), 'topic\n')
  }
  if (c.approve) {
    put(
      'home/.claude/.claude.json',
      JSON.stringify({
        projects: {
          [join(T, c.approve)]: {
            hasClaudeMdExternalIncludesApproved: true,
            hasClaudeMdExternalIncludesWarningShown: true,
          },
        },
      }),
    )
  }
  const env = {
    PATH: process.env.PATH,
    HOME: join(T, 'home'),
    CLAUDE_CONFIG_DIR: join(T, 'home/.claude'),
    CODEX_HOME: join(T, 'home/.codex'),
    XDG_CONFIG_HOME: join(T, 'home/.config'),
    XDG_CACHE_HOME: join(T, 'home/.cache'),
    TMPDIR: join(T, 'tmp'),
    // No telemetry, updates or error reports (both agents).
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CODEX_DISABLE_UPDATE_CHECK: '1',
    NO_COLOR: '1',
    ...(c.env ?? {}),
    // Values that name a path inside T.
    ...Object.fromEntries(Object.entries(c.envT ?? {}).map(([k, v]) => [k, join(T, v)])),
  }
  mkdirSync(env.TMPDIR, { recursive: true })
  return { cwd, env }
}
