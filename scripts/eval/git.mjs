// Hardened git for the audit evaluation (docs/eval-audit.md): mirrors are hostile input.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

// ---- git, hardened -----------------------------------------------------------------------------

const GIT_HARDENING = [
  '-c',
  'core.fsmonitor=',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'protocol.file.allow=always',
]
let gitEnv = null

/** Set up the git environment once per run (a temp folder for its empty config). */
export function initGitEnv(tmp) {
  gitEnv = makeGitEnv(tmp)
  return gitEnv
}

/** The empty global config every git run (and the audited CLI's git) uses. */
export const gitConfigGlobal = () => gitEnv.GIT_CONFIG_GLOBAL

/** The environment every git run gets: no system or global config, nothing prompts. */
function makeGitEnv(tmp) {
  const globalConfig = join(tmp, 'empty-gitconfig')
  writeFileSync(globalConfig, '')
  const env = {}
  for (const k of ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ'])
    if (process.env[k] !== undefined) env[k] = process.env[k]
  return {
    ...env,
    HOME: join(tmp, 'git-home'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_LFS_SKIP_SMUDGE: '1',
    GIT_LITERAL_PATHSPECS: '1',
  }
}

export function git(args, { cwd, gitDir, input, env, allowFail = false, encoding = 'utf8' } = {}) {
  const full = [...GIT_HARDENING, ...(gitDir ? [`--git-dir=${gitDir}`] : []), ...args]
  const r = spawnSync('git', full, {
    cwd,
    input,
    env: { ...gitEnv, ...env },
    encoding,
    maxBuffer: 512 * 1024 * 1024,
  })
  if (r.error) throw r.error
  if (r.status !== 0 && !allowFail) {
    const err = typeof r.stderr === 'string' ? r.stderr : r.stderr.toString('utf8')
    throw new Error(`git ${args.slice(0, 3).join(' ')}: ${err.trim().split('\n').pop()}`)
  }
  return r
}

/** The git directory of `owner/name` under `dir`, or null. */
export function findMirror(dir, repo) {
  const key = repo.replace('/', '+')
  const candidates = [
    join(dir, key, 'repo'),
    join(dir, `${key}.git`),
    join(dir, key, '.git'),
    join(dir, key),
  ]
  try {
    // The fetch tool's layout: <owner>+<name>/<something>/ holding the git directory.
    for (const e of readdirSync(join(dir, key), { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== 'repo' && e.name !== '.git')
        candidates.push(join(dir, key, e.name))
    }
  } catch {
    // no such folder
  }
  for (const c of candidates) {
    if (!existsSync(c) || !statSync(c).isDirectory()) continue
    const looksBare = existsSync(join(c, 'objects')) && existsSync(join(c, 'HEAD'))
    if (!looksBare) continue
    const r = git(['rev-parse', '--git-dir'], { gitDir: c, allowFail: true })
    if (r.status === 0) return resolve(c)
  }
  return null
}
