#!/usr/bin/env node
// Evaluation of `audit` on real agent-written notes (issue 12; docs/eval-audit.md).
//
//   node scripts/eval/audit-eval.mjs --mirrors DIR [--set tests/fixtures/eval-audit]
//        [--cli out/cli/index.js] [--json] [--only ID[,ID…]] [--keep]
//
// Each label file (tests/fixtures/eval-audit/<owner>+<name>.json) names notes by repository,
// commit, path and line range only; this script rebuilds every note from the repository's git
// mirror, audits it with the built CLI against a later commit, and compares the verdict with the
// label written by hand before the tool ran. Mirrors are hostile input: every git run here goes
// through `git -c core.fsmonitor= -c core.hooksPath=/dev/null` with GIT_CONFIG_NOSYSTEM=1 and an
// empty global config, work trees are made in a temp folder, and the audit runs with a temp
// HOME / Claude home / Codex home (never the real ~/.claude).
//
// Exit 0 when the evaluation ran (the figures are a measurement, not a pass/fail), 2 when no note
// could run or the arguments are wrong.
import { spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'

const USAGE = `usage: node scripts/eval/audit-eval.mjs --mirrors DIR [--set DIR] [--cli FILE] [--json] [--only ID,…] [--keep]
  --mirrors DIR  folder of git mirrors: DIR/<owner>+<name>/repo (the fetch layout), DIR/<owner>+<name>.git,
                 or DIR/<owner>+<name> (a bare repository or a plain clone)
  --set DIR      label files, one <owner>+<name>.json per repository (default tests/fixtures/eval-audit)
  --cli FILE     the built CLI (default out/cli/index.js; run npm run build first)
  --json         print the result as one JSON document
  --only IDS     evaluate only these note ids (comma-separated)
  --keep         keep the temp folder (its path goes to stderr)
`

// ---- arguments ---------------------------------------------------------------------------------

function parseArgs(argv) {
  const o = {
    mirrors: null,
    set: 'tests/fixtures/eval-audit',
    cli: 'out/cli/index.js',
    json: false,
    only: null,
    keep: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) fail(`${a} needs a value`)
      return v
    }
    if (a === '--mirrors') o.mirrors = value()
    else if (a === '--set') o.set = value()
    else if (a === '--cli') o.cli = value()
    else if (a === '--json') o.json = true
    else if (a === '--keep') o.keep = true
    else if (a === '--only')
      o.only = new Set(
        value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
    else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE)
      process.exit(0)
    } else fail(`unknown argument ${a}`)
  }
  if (!o.mirrors) fail('--mirrors DIR is required')
  return o
}

function fail(message) {
  process.stderr.write(`audit-eval: ${message}\n${USAGE}`)
  process.exit(2)
}

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

function git(args, { cwd, gitDir, input, env, allowFail = false, encoding = 'utf8' } = {}) {
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
function findMirror(dir, repo) {
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

// ---- notes and trees ---------------------------------------------------------------------------

/** Notes files a repository commits about itself: hidden from the audited tree. */
function isNotesFile(path, noteFolders) {
  const name = path.slice(path.lastIndexOf('/') + 1)
  if (
    [
      'CLAUDE.md',
      'CLAUDE.local.md',
      'AGENTS.md',
      'AGENTS.override.md',
      'GEMINI.md',
      'MEMORY.md',
      '.cursorrules',
    ].includes(name)
  )
    return true
  if (/(^|\/)\.claude\//.test(path)) return true
  if (/(^|\/)\.cursor\/rules\//.test(path)) return true
  if (path === '.github/copilot-instructions.md') return true
  return noteFolders.some((f) => path.startsWith(`${f}/`))
}

/** The note's text: lines [start, end] of path at commit, line endings as committed. */
function noteText(gitDir, note) {
  const r = git(['show', `${note.source.commit}:${note.source.path}`], {
    gitDir,
    encoding: 'buffer',
  })
  const text = r.stdout.toString('utf8')
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? []
  const [start, end] = note.source.lines
  if (start < 1 || end < start || end > lines.length) {
    throw new Error(
      `lines ${start}-${end} are outside ${note.source.path} at ${note.source.commit.slice(0, 10)} (${lines.length} lines)`,
    )
  }
  let out = lines.slice(start - 1, end).join('')
  if (!out.endsWith('\n')) out += '\n'
  return out
}

function committerDate(gitDir, commit) {
  const r = git(['show', '-s', '--format=%cI', `${commit}^{commit}`], { gitDir })
  return r.stdout.trim()
}

/**
 * A work tree of the repository at `auditAt`, in which the repository's own notes files are
 * removed in one extra commit (dated like auditAt), so the audit never sees a later copy of a
 * note. A snapshot may lack its largest blobs (the fetch tool leaves out files of 4 MiB and
 * more): such a file is checked out empty, in the same extra commit, so that every git run of
 * the audit finds all the objects it asks for.
 */
function buildTree(gitDir, auditAt, noteFolders, dest) {
  git(['clone', '-q', '--shared', '--no-checkout', gitDir, dest])
  const inTree = { cwd: dest }
  for (const [k, v] of [
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', ''],
    ['user.name', 'audit-eval'],
    ['user.email', 'audit-eval@invalid'],
    ['commit.gpgSign', 'false'],
    ['core.autocrlf', 'false'],
  ]) {
    git(['config', k, v], inTree)
  }
  const sha = git(['rev-parse', '--verify', `${auditAt}^{commit}`], inTree).stdout.trim()
  git(['update-ref', '--no-deref', 'HEAD', sha], inTree)
  git(['read-tree', sha], inTree)
  // Blobs the snapshot lacks.
  const entries = git(['ls-tree', '-r', '-z', '--full-tree', sha], inTree)
    .stdout.split('\0')
    .filter(Boolean)
    .map((e) => {
      const tab = e.indexOf('\t')
      const [mode, type, oid] = e.slice(0, tab).split(' ')
      return { mode, type, oid, path: e.slice(tab + 1) }
    })
    .filter((e) => e.type === 'blob')
  const oids = [...new Set(entries.map((e) => e.oid))]
  const check = git(['cat-file', '--batch-check'], {
    ...inTree,
    input: `${oids.join('\n')}\n`,
  }).stdout
  const missing = new Set(
    check
      .split('\n')
      .filter((l) => l.endsWith(' missing'))
      .map((l) => l.split(' ')[0]),
  )
  const absent = entries.filter((e) => missing.has(e.oid)).map((e) => e.path)
  if (absent.length > 0) {
    const empty = git(['hash-object', '-w', '--stdin'], { ...inTree, input: '' }).stdout.trim()
    const info = absent.map((p) => `100644 ${empty}\t${p}`).join('\n')
    git(['update-index', '--index-info'], { ...inTree, input: `${info}\n` })
  }
  git(['checkout-index', '-a', '-f', '-q'], inTree)
  const tracked = git(['ls-files', '-z'], inTree).stdout.split('\0').filter(Boolean)
  const hidden = tracked.filter((p) => isNotesFile(p, noteFolders))
  if (hidden.length > 0) {
    git(['rm', '-q', '--cached', '--pathspec-from-file=-', '--pathspec-file-nul', '--'], {
      ...inTree,
      input: `${hidden.join('\0')}\0`,
    })
    for (const p of hidden) rmSync(join(dest, ...p.split('/')), { force: true })
    // Folders the removal left empty go too (a `.claude/` with nothing in it is still a trace).
    const dirs = [
      ...new Set(
        hidden.flatMap((p) =>
          p
            .split('/')
            .slice(0, -1)
            .map((_, i, a) => a.slice(0, i + 1).join('/')),
        ),
      ),
    ]
    for (const d of dirs.sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(join(dest, ...d.split('/')))
      } catch {
        // not empty
      }
    }
  }
  if (hidden.length > 0 || absent.length > 0) {
    const date = committerDate(gitDir, sha)
    const what = [
      hidden.length > 0 ? `hide the repository's own notes files (${hidden.length})` : '',
      absent.length > 0 ? `empty ${absent.length} files the snapshot lacks` : '',
    ]
      .filter(Boolean)
      .join('; ')
    git(['commit', '-q', '--no-verify', '-m', `audit-eval: ${what}`], {
      ...inTree,
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    })
  }
  return { hidden: hidden.length, absent: absent.length }
}

/** Claude Code's project folder name for a path (memory-facts §1). */
function encodeProject(path) {
  const enc = path.replace(/[^A-Za-z0-9]/g, '-')
  if (enc.length <= 200) return enc
  let h = 0
  for (let i = 0; i < path.length; i++) h = (Math.imul(h, 31) + path.charCodeAt(i)) | 0
  return `${enc.slice(0, 200)}-${Math.abs(h).toString(36)}`
}

/**
 * A temp Claude home whose project (for `tree`) has a memory folder holding the note as the
 * kind suits: a topic file (memory topics; CLAUDE.md / AGENTS.md bullets, since the CLI's audit
 * reads memory folders only) or MEMORY.md lines (index entries). The file's mtime is the note
 * commit's committer date: with no transcript and no date in frontmatter, that is where the
 * audit's `writtenAt` comes from (src/node/audit.ts writtenAtOf).
 */
function buildHome(root, tree, note, text, writtenAt) {
  const home = join(root, 'home')
  const claudeHome = join(home, '.claude')
  const codexHome = join(home, '.codex')
  const memoryDir = join(claudeHome, 'projects', encodeProject(tree), 'memory')
  mkdirSync(memoryDir, { recursive: true })
  mkdirSync(codexHome, { recursive: true })
  mkdirSync(join(root, 'state'), { recursive: true })
  let file
  if (note.kind === 'memory-index-entry') file = join(memoryDir, 'MEMORY.md')
  else if (note.kind === 'memory-topic') {
    const name = basename(note.source.path)
    file = join(
      memoryDir,
      name === 'MEMORY.md' ? 'MEMORY.md' : name.endsWith('.md') ? name : `${name}.md`,
    )
  } else file = join(memoryDir, `${note.kind}-${note.id}.md`)
  writeFileSync(file, text)
  const t = new Date(writtenAt)
  utimesSync(file, t, t)
  return { home, claudeHome, codexHome, memoryDir, file }
}

const RANK = { stale: 3, suspect: 2, fresh: 1, unverifiable: 0 }

function runAudit(cli, h, tree, stateDir) {
  const env = {
    PATH: process.env.PATH,
    LANG: process.env.LANG ?? 'C.UTF-8',
    HOME: h.home,
    CLAUDE_CONFIG_DIR: h.claudeHome,
    CODEX_HOME: h.codexHome,
    XDG_STATE_HOME: stateDir,
    XDG_CONFIG_HOME: join(h.home, '.config'),
    XDG_CACHE_HOME: join(h.home, '.cache'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitEnv.GIT_CONFIG_GLOBAL,
    TZ: 'UTC',
  }
  const args = [
    cli,
    'audit',
    '--json',
    '--claude-home',
    h.claudeHome,
    '--codex-home',
    h.codexHome,
    '--memory-dir',
    h.memoryDir,
    '--repo',
    tree,
  ]
  const started = Date.now()
  const r = spawnSync(process.execPath, args, {
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 10 * 60 * 1000,
  })
  const ms = Date.now() - started
  if (r.error) throw r.error
  if (r.status !== 0)
    throw new Error(`audit exited ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-1)[0]}`)
  return { result: JSON.parse(r.stdout), ms }
}

/** One verdict for the note: the worst over the notes the audit made of it. */
function verdictOf(result) {
  const notes = result.notes ?? []
  if (notes.length === 0)
    return {
      verdict: 'unverifiable',
      reason: 'the audit found no note',
      writtenAt: null,
      source: null,
      count: 0,
    }
  let pick = notes[0]
  for (const n of notes) if (RANK[n.verdict] > RANK[pick.verdict]) pick = n
  // Left out: the dangling-topic reason an index entry gets here (its topic file is not
  // part of the note, so the runner did not write it).
  const reasons = (pick.reasons ?? []).filter(
    (r) => !/^the topic file `.*` does not exist$/.test(r),
  )
  // The first reason that bears on the verdict: a reference that resolved, or one left
  // unchecked because git ignores it, explains nothing about a stale or suspect call.
  const informational = (r) =>
    /^written-at /.test(r) || / resolved to `/.test(r) || /is ignored by git; not checked$/.test(r)
  const reason =
    reasons.find((r) => !informational(r)) ??
    reasons.find((r) => !/^written-at /.test(r)) ??
    reasons[0] ??
    ''
  return {
    verdict: pick.verdict,
    reason,
    reasons,
    refs: (pick.references ?? [])
      .filter((r) => r.status !== 'ok')
      .map((r) => `${r.kind}:${r.status}:${r.text}`),
    writtenAt: pick.writtenAt,
    source: pick.writtenAtSource ?? null,
    count: notes.length,
  }
}

// ---- report ------------------------------------------------------------------------------------

const LABELS = ['stale', 'fresh', 'uncheckable']
const VERDICTS = ['stale', 'suspect', 'fresh', 'unverifiable', 'error']
const AGREE = { stale: 'stale', fresh: 'fresh', uncheckable: 'unverifiable' }

function pct(num, den) {
  return den === 0 ? 'n/a' : `${Math.round((100 * num) / den)}%`
}

function summarise(rows) {
  const matrix = Object.fromEntries(
    LABELS.map((l) => [l, Object.fromEntries(VERDICTS.map((v) => [v, 0]))]),
  )
  for (const r of rows) matrix[r.label][r.verdict]++
  const ran = rows.filter((r) => r.verdict !== 'error')
  const labelStale = ran.filter((r) => r.label === 'stale')
  const verdictStale = ran.filter((r) => r.verdict === 'stale')
  const labelFresh = ran.filter((r) => r.label === 'fresh')
  const recallHits = labelStale.filter(
    (r) => r.verdict === 'stale' || r.verdict === 'suspect',
  ).length
  const precisionHits = verdictStale.filter((r) => r.label === 'stale').length
  const freshSuspect = labelFresh.filter((r) => r.verdict === 'suspect').length
  const figures = {
    staleRecall: labelStale.length ? recallHits / labelStale.length : null,
    stalePrecision: verdictStale.length ? precisionHits / verdictStale.length : null,
    freshCalledSuspect: labelFresh.length ? freshSuspect / labelFresh.length : null,
    notes: ran.length,
  }
  const line = `stale recall ${pct(recallHits, labelStale.length)}, stale precision ${pct(precisionHits, verdictStale.length)}, fresh called suspect ${pct(freshSuspect, labelFresh.length)} over ${ran.length} notes`
  const disagreements = rows.filter((r) => AGREE[r.label] !== r.verdict)
  return { matrix, figures, line, disagreements }
}

function textReport(s, rows, skipped, warnings) {
  const out = []
  for (const m of skipped) out.push(`skipped: ${m}`)
  for (const w of warnings) out.push(`warning: ${w}`)
  const byRepo = new Map()
  for (const r of rows) byRepo.set(r.repo, (byRepo.get(r.repo) ?? 0) + 1)
  out.push(
    `notes: ${rows.length} from ${byRepo.size} repositories (${[...byRepo].map(([k, v]) => `${k} ${v}`).join(', ')})`,
  )
  out.push('')
  out.push('confusion matrix (rows: label, columns: verdict)')
  const w = 13
  out.push(
    [
      'label \\ verdict'.padEnd(16),
      ...VERDICTS.map((v) => v.padStart(w)),
      'total'.padStart(8),
    ].join(''),
  )
  for (const l of LABELS) {
    const row = s.matrix[l]
    const total = VERDICTS.reduce((a, v) => a + row[v], 0)
    out.push(
      [
        l.padEnd(16),
        ...VERDICTS.map((v) => String(row[v]).padStart(w)),
        String(total).padStart(8),
      ].join(''),
    )
  }
  out.push('')
  out.push(
    `disagreements (${s.disagreements.length}): id | label | verdict | tool's first reason | label's reason`,
  )
  for (const r of s.disagreements)
    out.push(
      `${r.id} | ${r.label} | ${r.verdict} | ${oneLine(r.toolReason)} | ${oneLine(r.reason)}`,
    )
  out.push('')
  out.push(s.line)
  return out.join('\n')
}

const oneLine = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim()

// ---- main --------------------------------------------------------------------------------------

function main() {
  const o = parseArgs(process.argv.slice(2))
  const cli = resolve(o.cli)
  if (!existsSync(cli)) fail(`${cli}: no built CLI (run npm run build first)`)
  const setDir = resolve(o.set)
  let files
  try {
    files = readdirSync(setDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  } catch {
    fail(`${setDir}: no such folder of label files`)
  }
  const tmp = mkdtempSync(join(tmpdir(), 'audit-eval-'))
  gitEnv = makeGitEnv(tmp)
  const rows = []
  const skipped = []
  const warnings = []
  const progress = (m) => {
    if (!o.json) process.stderr.write(`${m}\n`)
  }
  try {
    for (const f of files) {
      let set
      try {
        set = JSON.parse(readFileSync(join(setDir, f), 'utf8'))
      } catch (err) {
        skipped.push(`${f}: not a readable label file (${err.message})`)
        continue
      }
      const notes = (set.notes ?? []).filter((n) => !o.only || o.only.has(n.id))
      if (notes.length === 0) continue
      const gitDir = findMirror(resolve(o.mirrors), set.repo)
      if (!gitDir) {
        skipped.push(`${set.repo}: no mirror under ${o.mirrors} (${notes.length} notes not run)`)
        continue
      }
      // One tree per audited commit; every folder a memory note came from is hidden in it.
      const byAuditAt = new Map()
      for (const n of notes) {
        if (!byAuditAt.has(n.auditAt)) byAuditAt.set(n.auditAt, [])
        byAuditAt.get(n.auditAt).push(n)
      }
      const noteFolders = [
        ...new Set(
          set.notes
            .filter((n) => n.kind.startsWith('memory-'))
            .map((n) => dirname(n.source.path))
            .filter((d) => d !== '.'),
        ),
      ]
      for (const [auditAt, group] of byAuditAt) {
        const treeRoot = mkdtempSync(join(tmp, 'tree-'))
        const tree = join(treeRoot, set.repo.split('/')[1])
        try {
          buildTree(gitDir, auditAt, noteFolders, tree)
        } catch (err) {
          for (const n of group)
            rows.push(
              errorRow(
                set.repo,
                n,
                `cannot build the tree at ${auditAt.slice(0, 10)}: ${err.message}`,
              ),
            )
          continue
        }
        for (const n of group) {
          progress(`audit-eval: ${set.repo} ${n.id}`)
          try {
            const text = noteText(gitDir, n)
            const writtenAt = committerDate(gitDir, n.source.commit)
            const noteRoot = mkdtempSync(join(tmp, 'note-'))
            const h = buildHome(noteRoot, tree, n, text, writtenAt)
            const { result, ms } = runAudit(cli, h, tree, join(noteRoot, 'state'))
            const v = verdictOf(result)
            if (
              v.writtenAt === null ||
              Math.abs(Date.parse(v.writtenAt) - Date.parse(writtenAt)) > 2000
            ) {
              warnings.push(
                `${n.id}: the audit took writtenAt ${v.writtenAt} (${v.source}) instead of the note commit's ${writtenAt}`,
              )
            }
            rows.push({
              repo: set.repo,
              id: n.id,
              kind: n.kind,
              label: n.label,
              verdict: v.verdict,
              toolReason: v.reason,
              toolReasons: v.reasons,
              failingRefs: v.refs,
              reason: n.reason,
              writtenAt: v.writtenAt,
              writtenAtSource: v.source,
              auditNotes: v.count,
              ms,
            })
            if (!o.keep) rmSync(noteRoot, { recursive: true, force: true })
          } catch (err) {
            rows.push(errorRow(set.repo, n, err.message))
          }
        }
        if (!o.keep) rmSync(treeRoot, { recursive: true, force: true })
      }
    }
  } finally {
    if (o.keep) process.stderr.write(`audit-eval: kept ${tmp}\n`)
    else rmSync(tmp, { recursive: true, force: true })
  }
  for (const r of rows)
    if (!LABELS.includes(r.label)) warnings.push(`${r.id}: unknown label ${r.label}`)
  const good = rows.filter((r) => LABELS.includes(r.label))
  const s = summarise(good)
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ skipped, warnings, matrix: s.matrix, figures: s.figures, disagreements: s.disagreements, notes: good, line: s.line }, null, 2)}\n`,
    )
  } else process.stdout.write(`${textReport(s, good, skipped, warnings)}\n`)
  return s.figures.notes > 0 ? 0 : 2
}

function errorRow(repo, n, message) {
  return {
    repo,
    id: n.id,
    kind: n.kind,
    label: n.label,
    verdict: 'error',
    toolReason: message,
    reason: n.reason,
    writtenAt: null,
    writtenAtSource: null,
    auditNotes: 0,
    ms: 0,
  }
}

process.exitCode = main()
