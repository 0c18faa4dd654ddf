/**
 * Security (issue 11, item 1): a scanned repository is hostile input. Its `.git/config`,
 * `.git/info/attributes` and hooks name a program for every knob of git-config(1) that can
 * run one — each program writes its own canary, so a failure names the knob. Then the back end
 * does everything the window can make it do (scan, audit, note diffs, provenance and every API
 * method) and no canary may exist. A second repository includes a config file; a third is
 * owned by another user (git's safe.directory check); a fourth has a `.git` file leading into
 * another repository whose config is as hostile.
 */
import { execFileSync, spawn } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AuditResult, ScanResult } from '../../../../src/shared/model'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { clearRepoCache } from '../../../../src/node/git/repo'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { changedFiles } from '../../../../src/node/git/work-tree-delta'
import {
  cleanGitEnv,
  driverOverrides,
  gitProcessesStarted,
  runGit,
} from '../../../../src/node/git/run'
import { foreignGitFile } from '../../../../src/node/git/dot-git'
import { API_METHOD_NAMES } from '../../../../src/shared/channels'
import { dispatch } from '../../../../src/shared/dispatch'
import { createAuditFixture, type AuditFixture } from '../../../helpers/audit-fixture'
import { backendConfigFor } from '../../../helpers/backend-config'

const HOOKS = [
  'post-index-change',
  'reference-transaction',
  'post-checkout',
  'post-merge',
  'pre-auto-gc',
  'pre-commit',
  'post-commit',
  'post-rewrite',
  'fsmonitor-watchman',
  'push-to-checkout',
  'pre-push',
]

/** Our own fixture's git (trusted); the app under test never runs git this way. */
function fixtureGit(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  })
}

interface Hostile {
  readonly f: AuditFixture
  readonly canaries: string
  fired(): string[]
}

/**
 * A program per knob: `touch canaries/<knob>`, then what its kind of caller needs to go on
 * (a filter passes stdin through, textconv prints its file argument).
 */
function plantPrograms(root: string): {
  canaries: string
  program: (knob: string, kind?: 'exec' | 'filter' | 'textconv') => string
} {
  const canaries = join(root, 'canaries')
  const bin = join(root, 'bin')
  mkdirSync(canaries, { recursive: true })
  mkdirSync(bin, { recursive: true })
  const program = (knob: string, kind: 'exec' | 'filter' | 'textconv' = 'exec'): string => {
    const path = join(bin, knob.replace(/[^A-Za-z0-9.-]/g, '_'))
    const tail =
      kind === 'filter' ? 'exec cat\n' : kind === 'textconv' ? 'exec cat "$1"\n' : 'exit 0\n'
    writeFileSync(path, `#!/bin/sh\ntouch '${join(canaries, knob)}'\n${tail}`)
    chmodSync(path, 0o755)
    return path
  }
  return { canaries, program }
}

/** Every program-running knob of `git config`, set in `gitDir/config`; hooks in both hook folders. */
function armRepository(
  repo: string,
  gitDir: string,
  program: ReturnType<typeof plantPrograms>['program'],
  tag = '',
): void {
  const set = (key: string, value: string): void => {
    fixtureGit(repo, ['config', '--file', join(gitDir, 'config'), key, value])
  }
  const hooksDir = join(gitDir, 'evil-hooks')
  mkdirSync(hooksDir, { recursive: true })
  mkdirSync(join(gitDir, 'hooks'), { recursive: true })
  for (const h of HOOKS) {
    // Programs are copied in, since hooks are found by name.
    writeFileSync(join(hooksDir, h), readFileSync(program(`${tag}core.hooksPath-${h}`)))
    writeFileSync(join(gitDir, 'hooks', h), readFileSync(program(`${tag}.git-hooks-${h}`)))
    chmodSync(join(hooksDir, h), 0o755)
    chmodSync(join(gitDir, 'hooks', h), 0o755)
  }
  set('core.hooksPath', hooksDir)
  for (const key of [
    'core.fsmonitor',
    'core.pager',
    'pager.log',
    'pager.show',
    'pager.blame',
    'pager.grep',
    'pager.diff',
    'core.editor',
    'sequence.editor',
    'core.askPass',
    'credential.helper',
    'core.sshCommand',
    'core.gitProxy',
    'core.alternateRefsCommand',
    'diff.external',
    'diff.evil.command',
    'merge.evil.driver',
    'gpg.program',
    'gpg.openpgp.program',
    'gpg.x509.program',
    'gpg.ssh.program',
    'gpg.ssh.defaultKeyCommand',
    'remote.origin.uploadpack',
    'remote.origin.receivepack',
  ]) {
    set(key, program(tag + key))
  }
  set('diff.evil.textconv', program(`${tag}diff.evil.textconv`, 'textconv'))
  set('filter.evil.clean', program(`${tag}filter.evil.clean`, 'filter'))
  set('filter.evil.smudge', program(`${tag}filter.evil.smudge`, 'filter'))
  set('filter.evil.required', 'true')
  set('filter.evil proc=x.process', program(`${tag}filter.evilproc.process`))
  set('log.showSignature', 'true')
  set('status.showUntrackedFiles', 'all')
  // Not a program, a file read from anywhere: a missing one makes git fail, so reading it shows.
  set('diff.orderFile', join(gitDir, 'no-such-order-file'))
  // A partial clone whose promisor remote is an `ext::` command: a missing object triggers a fetch.
  set('core.repositoryformatversion', '1')
  set('extensions.partialClone', 'origin')
  set('remote.origin.promisor', 'true')
  set('remote.origin.url', `ext::${program(`${tag}protocol.ext`)}`)
  set('protocol.allow', 'always')
  set('protocol.ext.allow', 'always')
  set('protocol.file.allow', 'always')
  mkdirSync(join(gitDir, 'info'), { recursive: true })
  writeFileSync(
    join(gitDir, 'info', 'attributes'),
    '* diff=evil merge=evil filter=evil\n*.json filter="evil proc=x"\n',
  )
}

/** A commit signed (in form) with OpenPGP on top of HEAD, same tree, so `log.showSignature` has work. */
function addSignedCommit(repo: string): void {
  const head = fixtureGit(repo, ['rev-parse', 'HEAD']).trim()
  const tree = fixtureGit(repo, ['rev-parse', 'HEAD^{tree}']).trim()
  const who = 'Fixture <fixture@example.com> 1775000000 +0000'
  const sig = [
    '-----BEGIN PGP SIGNATURE-----',
    '',
    'iQEzBAABCAAdFiEE',
    '=abcd',
    '-----END PGP SIGNATURE-----',
  ]
  const body = `tree ${tree}\nparent ${head}\nauthor ${who}\ncommitter ${who}\ngpgsig ${sig.join('\n ')}\n\nsigned\n`
  const sha = fixtureGit(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], body).trim()
  fixtureGit(repo, ['update-ref', 'refs/heads/main', sha])
}

/** Drop the loose objects of blobs only old commits hold, so reading them needs a lazy fetch. */
function dropOldBlobs(repo: string): number {
  const now = new Set(
    fixtureGit(repo, ['ls-tree', '-r', '--format=%(objectname)', 'HEAD']).split('\n'),
  )
  const all = fixtureGit(repo, ['rev-list', '--objects', '--all'])
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((s) => s !== '')
  let dropped = 0
  for (const sha of all) {
    if (now.has(sha)) continue
    if (fixtureGit(repo, ['cat-file', '-t', sha]).trim() !== 'blob') continue
    rmSync(join(repo, '.git', 'objects', sha.slice(0, 2), sha.slice(2)))
    dropped++
  }
  return dropped
}

function hostileRepo(): Hostile {
  const f = createAuditFixture()
  const { canaries, program } = plantPrograms(f.root)
  addSignedCommit(f.repo)
  expect(dropOldBlobs(f.repo)).toBeGreaterThan(0)
  // Stat data no longer matches the index: git must hash each file (through the clean filter).
  const future = new Date('2030-01-01T00:00:00Z')
  for (const rel of fixtureGit(f.repo, ['ls-files', '-z']).split('\0').filter(Boolean)) {
    utimesSync(join(f.repo, rel), future, future)
  }
  // Last: from here on, even the fixture's own git would run these programs.
  armRepository(f.repo, join(f.repo, '.git'), program)
  return { f, canaries, fired: () => readdirSync(canaries).sort() }
}

async function backendFor(f: AuditFixture): Promise<Backend> {
  clearRepoCache()
  clearHistoryCache()
  return createBackend(backendConfigFor(f))
}

const HASH = '0'.repeat(64)

/**
 * Everything the window can ask about this project: every API method once with real
 * arguments, and audit, note diffs and verification for every note. Returns the audit.
 */
async function exerciseEverything(backend: Backend, f: AuditFixture): Promise<Attacked> {
  const mem = f.index
  const called = new Set<string>()
  const call = async (method: string, args: unknown[]): Promise<unknown> => {
    called.add(method)
    try {
      return await dispatch(backend, method, args)
    } catch (err) {
      return err
    }
  }
  await call('getContext', [])
  const scanned = (await call('scan', [])) as ScanResult
  const audit = (await call('audit', [f.memoryDir, f.repo])) as AuditResult
  await call('audit', [f.memoryDir, null])
  await call('provenance', [f.memoryDir])
  await call('loadOrder', [f.repo])
  await call('installedAgents', [])
  await call('checkWithAgent', ['claude', f.repo])
  await call('cutoff', [mem])
  await call('readFile', [mem])
  // A repository git refuses is no project's repository (access follows purpose): the audit is
  // refused too, and the diff and verify calls still go out, on the index's first line.
  for (const note of audit.notes ?? [{ file: mem, line: 1 }]) {
    await call('noteDiffs', [f.memoryDir, f.repo, note.file, note.line])
    await call('noteDiffs', [f.memoryDir, f.repo, note.file, note.line, 'main'])
    await call('verifyNote', [f.memoryDir, f.repo, note.file, note.line])
    await call('noteOrigin', [f.memoryDir, note.file, note.line])
  }
  await call('noteEvidence', [f.memoryDir])
  await call('listStamps', [f.memoryDir, f.repo])
  await call('auditToken', [f.memoryDir, f.repo])
  const job = (await call('startAudit', [f.memoryDir, f.repo])) as { jobId?: string }
  const jobId = job.jobId ?? '00000000-0000-4000-8000-000000000000'
  // Wait for the job (it runs git like the audit does) before the canaries are checked.
  for (let i = 0; i < 600; i++) {
    const s = (await call('auditJob', [jobId])) as { state?: string }
    if (s.state !== 'running') break
    await new Promise((r) => setTimeout(r, 50))
  }
  await call('cancelAudit', [jobId])
  await call('markReviewed', [mem, HASH])
  await call('reviewDiff', [f.memoryDir, mem])
  await call('restoreLostLine', [f.memoryDir, mem, '- restored', HASH])
  await call('planEdit', [{ kind: 'move-entry-above-cutoff', file: mem, line: 3 }])
  await call('fitPlan', [mem, null])
  await call('previewRestore', [f.memoryDir, mem, '- restored', 'above-cutoff'])
  await call('applyPlan', [
    [{ path: mem, expectedHash: HASH, after: 'stale hash, refused\n' }],
    'test',
  ])
  await call('listOperations', [])
  await call('undo', [null])
  await call('writeFile', [mem, HASH, 'stale hash, refused\n', 'test'])
  await call('deleteFile', [mem, HASH, 'test'])
  await call('hooksStatus', [f.repo])
  await call('planHookInstall', ['project', 'install', f.repo])
  await call('applyHookInstall', ['project', 'install', f.repo, HASH, HASH])
  await call('memoryNotices', [0])
  await call('getSettings', [])
  await call('setSettings', [{ theme: 'dark' }])
  await call('searchMemory', ['computeTotal verdict:stale'])
  await call('scan', [])
  expect([...API_METHOD_NAMES].filter((m) => !called.has(m))).toEqual([])
  // What the window shows about this repository: the audit's problems, or, where git refuses the
  // repository, the scanned project's (its audit is then refused as no project's repository).
  const project = scanned.projects?.find((p) => p.memoryDir === f.memoryDir)
  const reasons = [...(audit.problems ?? []), ...(project?.problems ?? [])].map((p) => p.reason)
  return { audit, reasons }
}

/** A fresh back end on `f` does everything once; then no canary may exist. Returns the audit. */
interface Attacked {
  readonly audit: AuditResult
  /** Every problem reason the window would show for this project. */
  readonly reasons: readonly string[]
}

async function attackThroughApi(f: AuditFixture, canaries: string): Promise<Attacked> {
  const backend = await backendFor(f)
  let audit: Attacked
  try {
    audit = await exerciseEverything(backend, f)
  } finally {
    await backend.dispose()
  }
  expectNoCanary(canaries)
  return audit
}

function expectNoCanary(canaries: string): void {
  const fired = readdirSync(canaries).sort().join(', ')
  expect(fired, `these knobs ran their program: ${fired}`).toBe('')
}

const cleanups: (() => void)[] = []
afterAll(() => {
  for (const c of cleanups) c()
})

describe('git never runs a program a repository names', () => {
  it('no knob of .git/config, attributes or hooks fires through any API method', async () => {
    const h = hostileRepo()
    cleanups.push(h.f.cleanup)
    const { audit } = await attackThroughApi(h.f, h.canaries)
    // Not vacuous: git did run there and answered (rename followed through history), every query.
    expect(audit.repo).toBe(h.f.repo)
    expect(audit.problems ?? []).toEqual([])
    const renamed = audit.notes.find((n) => n.title === h.f.notes.renamed)
    expect(renamed?.verdict).toBe('stale')
    expect(renamed?.references.find((r) => r.kind === 'path')?.status).toBe('moved')
    // Touched-but-identical files are not uncommitted changes (diff-files + hash-object).
    const fresh = audit.notes.find((n) => n.title === h.f.notes.fresh)
    expect(fresh?.verdict).toBe('fresh')
  })

  it('refuses a repository whose config includes another file, and says why', async () => {
    const f = createAuditFixture()
    cleanups.push(f.cleanup)
    const { canaries, program } = plantPrograms(f.root)
    const included = join(f.root, 'elsewhere.gitconfig')
    writeFileSync(
      included,
      `[filter "inc"]\n\tclean = ${program('include.filter.clean', 'filter')}\n\trequired = true\n` +
        `[core]\n\tfsmonitor = ${program('include.core.fsmonitor')}\n`,
    )
    fixtureGit(f.repo, ['config', 'include.path', included])
    fixtureGit(f.repo, ['config', 'includeIf.gitdir:/.path', included])
    writeFileSync(join(f.repo, '.git', 'info', 'attributes'), '* filter=inc\n')
    const future = new Date('2030-01-01T00:00:00Z')
    utimesSync(join(f.repo, 'src/stable.ts'), future, future)
    const { reasons } = await attackThroughApi(f, canaries)
    expect(reasons.some((r) => /includes another file/.test(r))).toBe(true)
  })

  it('a .git file leading into another repository runs nothing of that repository', async () => {
    const f = createAuditFixture()
    cleanups.push(f.cleanup)
    const { canaries, program } = plantPrograms(f.root)
    // The real repository moves away; the project keeps only a `.git` file pointing at it.
    const elsewhere = join(f.root, 'elsewhere.git')
    execFileSync('cp', ['-a', join(f.repo, '.git'), elsewhere])
    rmSync(join(f.repo, '.git'), { recursive: true })
    writeFileSync(join(f.repo, '.git'), `gitdir: ${elsewhere}\n`)
    armRepository(f.repo, elsewhere, program, 'gitfile.')
    const { reasons } = await attackThroughApi(f, canaries)
    expect(reasons.some((r) => r.includes('leads outside this repository'))).toBe(true)
  })

  it.runIf(process.getuid?.() === 0)(
    'a repository owned by another user is reported, not run, and nothing crashes',
    async () => {
      const f = createAuditFixture()
      cleanups.push(f.cleanup)
      const { canaries, program } = plantPrograms(f.root)
      armRepository(f.repo, join(f.repo, '.git'), program, 'owner.')
      execFileSync('chown', ['-R', '65534:65534', join(f.repo, '.git')])
      chownSync(f.repo, 65534, 65534)
      const { reasons } = await attackThroughApi(f, canaries)
      const r = await runGit(['rev-parse', '--show-toplevel'], { cwd: f.repo })
      expect(r.code).not.toBe(0)
      expect(r.stderr).toMatch(/dubious ownership/)
      // The audit says why the project's repository was not read.
      expect(reasons).toContainEqual(
        expect.stringMatching(/dubious ownership.*git will not run there/),
      )
    },
  )
})

const CLI = resolve('out/cli/index.js')

/** The built command line in its own process, the code the app ships. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    // A hang limit only (60 s), never a speed check.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, stdout })
    })
  })
}

describe.skipIf(!existsSync(CLI))(
  'the same through the built CLI (skipped when out/cli is not built: run `npm run build`)',
  () => {
    it('scan, load-order, audit and provenance run no program of the hostile repository', async () => {
      const h = hostileRepo()
      cleanups.push(h.f.cleanup)
      const env = { PATH: process.env.PATH ?? '', HOME: join(h.f.root, 'home') }
      const homes = [
        '--claude-home',
        h.f.claudeHome,
        '--codex-home',
        h.f.codexHome,
        '--managed-dir',
        h.f.managedDir,
      ]
      const runs = [
        ['scan', '--json', ...homes],
        ['load-order', '--json', '--cwd', h.f.repo, ...homes],
        ['audit', '--json', '--memory-dir', h.f.memoryDir, '--repo', h.f.repo, ...homes],
        ['provenance', '--json', '--memory-dir', h.f.memoryDir, ...homes],
      ]
      const codes: (number | null)[] = []
      let auditOut = ''
      for (const args of runs) {
        const r = await runCli(args, env)
        codes.push(r.code)
        if (args[0] === 'audit') auditOut = r.stdout
      }
      expectNoCanary(h.canaries)
      expect(codes).toEqual([0, 0, 0, 0])
      expect(
        JSON.parse(auditOut).notes.find((n: { title: string }) => n.title === h.f.notes.renamed)
          .verdict,
      ).toBe('stale')
    })
  },
)

describe('changed files without git status', () => {
  it('lists what `git status --untracked-files=no` lists: staged, edited, deleted, mode changes; not touched-but-identical', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mc-git-changed-')))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    fixtureGit(dir, ['init', '-q', '-b', 'main'])
    for (const n of ['staged', 'edited', 'deleted', 'mode', 'touched', 'same', 'both'])
      writeFileSync(join(dir, `${n}.txt`), `${n}\n`)
    fixtureGit(dir, ['add', '-A'])
    fixtureGit(dir, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'all'])
    writeFileSync(join(dir, 'staged.txt'), 'staged 2\n')
    writeFileSync(join(dir, 'both.txt'), 'both 2\n')
    fixtureGit(dir, ['add', 'staged.txt', 'both.txt'])
    writeFileSync(join(dir, 'both.txt'), 'both 3\n')
    writeFileSync(join(dir, 'edited.txt'), 'edited 2\n')
    rmSync(join(dir, 'deleted.txt'))
    chmodSync(join(dir, 'mode.txt'), 0o755)
    const future = new Date('2030-01-01T00:00:00Z')
    utimesSync(join(dir, 'touched.txt'), future, future)
    writeFileSync(join(dir, 'untracked.txt'), 'new\n')
    const reference = fixtureGit(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=no'])
      .split('\0')
      .filter(Boolean)
      .map((l) => l.slice(3))
      .sort()
    expect(reference).toEqual(['both.txt', 'deleted.txt', 'edited.txt', 'mode.txt', 'staged.txt'])
    expect((await changedFiles(dir)).sort()).toEqual(reference)
  })
})

describe('the runner', () => {
  it('disables every filter, diff and merge driver a config names, and refuses includes and config hooks', () => {
    const r = driverOverrides([
      'core.bare',
      'filter.lfs.clean',
      'filter.a b=c.process',
      'diff.x.textconv',
      'merge.m.driver',
      'filter.lfs.smudge',
    ])
    expect(r).toEqual({
      ok: true,
      config: [
        ['filter.lfs.clean', ''],
        ['filter.lfs.smudge', ''],
        ['filter.lfs.process', ''],
        ['filter.lfs.required', 'false'],
        ['filter.a b=c.clean', ''],
        ['filter.a b=c.smudge', ''],
        ['filter.a b=c.process', ''],
        ['filter.a b=c.required', 'false'],
        ['diff.x.command', ''],
        ['diff.x.textconv', ''],
        ['merge.m.driver', ''],
      ],
    })
    expect(driverOverrides(['include.path']).ok).toBe(false)
    expect(driverOverrides(['includeif.gitdir:/x/.path']).ok).toBe(false)
    expect(driverOverrides(['hook.lint.command']).ok).toBe(false)
  })

  it('lets git into linked worktrees and submodules, not through any other .git file', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'mc-git-file-')))
    cleanups.push(() => rmSync(root, { recursive: true, force: true }))
    const repo = join(root, 'repo')
    mkdirSync(repo)
    fixtureGit(repo, ['init', '-q', '-b', 'main'])
    writeFileSync(join(repo, 'a.txt'), 'a\n')
    fixtureGit(repo, ['add', 'a.txt'])
    fixtureGit(repo, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a'])
    fixtureGit(repo, ['worktree', 'add', '-q', join(root, 'wt'), '-b', 'wt'])
    expect(await foreignGitFile(join(root, 'wt'))).toBeNull()
    expect((await runGit(['rev-parse', '--show-toplevel'], { cwd: join(root, 'wt') })).stdout).toBe(
      `${join(root, 'wt')}\n`,
    )
    // The same with relative links (`git worktree add` under `worktree.useRelativePaths`).
    writeFileSync(join(root, 'wt', '.git'), 'gitdir: ../repo/.git/worktrees/wt\n')
    writeFileSync(join(repo, '.git', 'worktrees', 'wt', 'gitdir'), '../../../../wt/.git\n')
    expect(await foreignGitFile(join(root, 'wt'))).toBeNull()
    // A submodule's layout: `<super>/.git/modules/<name>`.
    mkdirSync(join(repo, '.git', 'modules'))
    execFileSync('cp', ['-a', join(repo, '.git'), join(root, 'lib.git')])
    execFileSync('mv', [join(root, 'lib.git'), join(repo, '.git', 'modules', 'lib')])
    mkdirSync(join(repo, 'lib'))
    writeFileSync(join(repo, 'lib', '.git'), 'gitdir: ../.git/modules/lib\n')
    expect(await foreignGitFile(join(repo, 'lib'))).toBeNull()
    // Another project whose `.git` file borrows this repository, or the worktree's git folder.
    for (const target of [join(repo, '.git'), join(repo, '.git', 'worktrees', 'wt')]) {
      const intruder = mkdtempSync(join(root, 'intruder-'))
      mkdirSync(join(intruder, 'deep'))
      writeFileSync(join(intruder, '.git'), `gitdir: ${target}\n`)
      expect(await foreignGitFile(join(intruder, 'deep'))).toMatch(/leads outside this repository/)
      const r = await runGit(['rev-parse', '--show-toplevel'], { cwd: join(intruder, 'deep') })
      expect(r).toMatchObject({ code: -1, stdout: '' })
    }
  })

  it(
    'keeps a config listing only while the config reads the same: a changed config, even the same size, is listed before the next run',
    { timeout: 20_000 },
    async () => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'mc-git-listing-')))
      cleanups.push(() => rmSync(root, { recursive: true, force: true }))
      const repo = join(root, 'repo')
      mkdirSync(repo)
      fixtureGit(repo, ['init', '-q', '-b', 'main'])
      const config = join(repo, '.git', 'config')
      const harmless = `${readFileSync(config, 'utf8')}[zzzzzzz]\n\tpath = other\n`
      const hostile = harmless.replace('[zzzzzzz]', '[include]')
      expect(hostile.length).toBe(harmless.length)
      writeFileSync(config, harmless)
      const started = (): number => gitProcessesStarted()
      /** Past the runner's racy window (2 s after the last change, run.ts). */
      const aged = (): Promise<void> => new Promise((ok) => setTimeout(ok, 2_100))
      const runs = async (): Promise<number> => {
        const before = started()
        expect((await runGit(['rev-parse', '--git-dir'], { cwd: repo })).code).toBe(0)
        return started() - before
      }
      // Just written: listed at every run (it could change again within the clock's tick).
      expect(await runs()).toBe(2)
      expect(await runs()).toBe(2)
      // Older than the racy window (its change time too): listed once, then kept.
      await aged()
      expect(await runs()).toBe(2)
      expect(await runs()).toBe(1)
      // The same size, same inode, an include now: the next run lists it and refuses.
      writeFileSync(config, hostile)
      const r = await runGit(['rev-parse', '--git-dir'], { cwd: repo })
      expect(r.code).toBe(-1)
      expect(r.stderr).toMatch(/includes another file/)
      // Even with the old times put back: the change time moved.
      const old = new Date(Date.now() - 60_000)
      utimesSync(config, old, old)
      expect((await runGit(['rev-parse', '--git-dir'], { cwd: repo })).stderr).toMatch(
        /includes another file/,
      )
      // A config.worktree appearing is a change too; a commondir means every run lists.
      writeFileSync(config, harmless)
      await aged()
      // Two runs that start together share one listing (openRepo's two `rev-parse`).
      const before = started()
      const both = [0, 1].map(() => runGit(['rev-parse', '--git-dir'], { cwd: repo }))
      expect((await Promise.all(both)).map((x) => x.code)).toEqual([0, 0])
      expect(started() - before).toBe(3)
      expect(await runs()).toBe(1)
      writeFileSync(join(repo, '.git', 'config.worktree'), '[core]\n\tbare = false\n')
      expect(await runs()).toBe(2)
      rmSync(join(repo, '.git', 'config.worktree'))
      writeFileSync(join(repo, '.git', 'commondir'), '.\n')
      expect(await runs()).toBe(2)
      expect(await runs()).toBe(2)
    },
  )

  it('runs only known subcommands (an alias could be `!sh`)', async () => {
    const r = await runGit(['evil-alias'], { cwd: process.cwd() })
    expect(r.code).toBe(-1)
    expect(r.stderr).toMatch(/not run by this app/)
  })

  it('passes no inherited GIT_*, editor, pager or ssh variable to git', async () => {
    const env = cleanGitEnv(undefined, {
      PATH: '/usr/bin',
      HOME: '/home/u',
      GIT_DIR: '/elsewhere/.git',
      GIT_SSH_COMMAND: 'touch /tmp/x',
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='touch /tmp/x'",
      GIT_EXEC_PATH: '/tmp/evil-libexec',
      EDITOR: 'touch /tmp/x',
      VISUAL: 'touch /tmp/x',
      PAGER: 'touch /tmp/x',
      SSH_ASKPASS: 'touch /tmp/x',
      LD_PRELOAD: '/tmp/evil.so',
    })
    for (const k of [
      'GIT_DIR',
      'GIT_SSH_COMMAND',
      'GIT_CONFIG_PARAMETERS',
      'GIT_EXEC_PATH',
      'VISUAL',
      'SSH_ASKPASS',
      'LD_PRELOAD',
      'EDITOR',
    ])
      expect(env[k], k).toBeUndefined()
    expect(env).toMatchObject({
      PATH: '/usr/bin',
      HOME: '/home/u',
      PAGER: 'cat',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
    })
    // And git under it works, whatever this process's own environment says.
    const saved = process.env.GIT_DIR
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mc-git-env-')))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    fixtureGit(dir, ['init', '-q'])
    process.env.GIT_DIR = '/nonexistent-git-dir'
    try {
      const r = await runGit(['rev-parse', '--show-toplevel'], { cwd: dir })
      expect(r).toMatchObject({ code: 0, stdout: `${dir}\n` })
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR
      else process.env.GIT_DIR = saved
    }
  })

  it('every git spawn in src/ is the runner, and the only other processes are our job script and the installed agent on a click (lint enforces it; this catches require and dynamic import too)', () => {
    const offenders: string[] = []
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (
          /\.(ts|tsx|js|mjs|cjs)$/.test(e.name) &&
          p !== join('src', 'node', 'git', 'run.ts')
        ) {
          const text = readFileSync(p, 'utf8')
          // isolated.ts forks our own job script with Node, and nothing else (issue 11 item 8).
          if (p === join('src', 'node', 'jobs', 'isolated.ts')) {
            const imports = [
              ...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:child_process'/g),
            ].flatMap((m) => m[1]!.split(',').map((x) => x.trim()))
            if (
              imports.some((x) => !/^(fork|type ChildProcess)$/.test(x)) ||
              /\b(spawn|exec|execFile)\w*\(/.test(text)
            )
              offenders.push(p)
          } else if (p === join('src', 'node', 'agents', 'agent-process.ts')) {
            // The person's installed agent, on a click (issue 13 item 4): one spawn of the binary
            // findOnPath found, nothing else.
            const imports = [
              ...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:child_process'/g),
            ].flatMap((m) => m[1]!.split(',').map((x) => x.trim()))
            const calls = [...text.matchAll(/\b(spawn|exec|execFile|fork)\w*\(/g)].map((m) => m[0])
            if (
              imports.join() !== 'spawn' ||
              calls.join() !== 'spawn(' ||
              !/spawn\(bin, /.test(text)
            )
              offenders.push(p)
          } else if (/child_process|process\.binding|spawn_sync/.test(text)) offenders.push(p)
        }
      }
    }
    walk('src')
    expect(offenders).toEqual([])
    expect(existsSync(join('src', 'node', 'git', 'run.ts'))).toBe(true)
  })
})
