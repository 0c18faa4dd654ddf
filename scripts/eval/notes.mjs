// Notes rebuilt from git, the audited trees and homes, and one audit run (docs/eval-audit.md).
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { git, gitConfigGlobal } from './git.mjs'

// ---- notes and trees ---------------------------------------------------------------------------

/**
 * Notes files a repository commits about itself: hidden from the audited tree. `sources` are the
 * files the set's notes came from.
 */
export function isNotesFile(path, noteFolders, sources = new Set()) {
  if (sources.has(path)) return true
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
  // Rules, memory topics and Copilot's instructions are hidden only where a note of the set came
  // from them: the others are the repository's files now, which a real audit reads as they are
  // (blind set CC: a note counting the sections of `.claude/rules/core-behaviors.md` saw it empty).
  return noteFolders.some((f) => path.startsWith(`${f}/`))
}

/** The note's text: lines [start, end] of path at commit, line endings as committed. */
export function noteText(gitDir, note) {
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
  // Lines inside a fenced block are read as the file has them: in their fence (the app reads a
  // note's block whole). Blind set BX: commands picked from the middle of a shell block.
  const open = openFence(lines.slice(0, start - 1))
  if (open === null) return out
  const closes = new RegExp(`^\\s*${open.mark[0]}{${open.mark.length},}\\s*$`)
  const inside = lines.slice(start - 1, end)
  let fenced = true
  for (const l of inside) {
    if (fenced ? closes.test(l) : FENCE_RE.test(l)) fenced = !fenced
  }
  return `${open.line.replace(/\n?$/, '\n')}${out}${fenced ? `${open.mark}\n` : ''}`
}

const FENCE_RE = /^\s*(`{3,}|~{3,})/

/** The fence open at the end of `lines` (its line and marker), or null. */
function openFence(lines) {
  let open = null
  for (const l of lines) {
    const m = FENCE_RE.exec(l)
    if (!m) continue
    if (open === null) open = { line: l, mark: m[1] }
    else if (m[1][0] === open.mark[0] && m[1].length >= open.mark.length && l.trim() === m[1])
      open = null
  }
  return open
}

/**
 * A commit's committer date. `git log -1`, not `git show -s`: show reads the commit's diff even
 * with `-s`, and a snapshot that lacks one of its blobs makes it fail (blind set BB).
 */
export function committerDate(gitDir, commit) {
  const r = git(['log', '-1', '--format=%cI', `${commit}^{commit}`, '--'], { gitDir })
  return r.stdout.trim()
}

/**
 * A work tree of the repository at `auditAt`, in which the repository's own notes files are
 * emptied in one extra commit (dated like auditAt), so the audit never sees a later copy of a
 * note. A snapshot may lack its largest blobs (the fetch tool leaves out files of 4 MiB and
 * more): such a file is checked out empty, in the same extra commit, so that every git run of
 * the audit finds all the objects it asks for.
 */
export function buildTree(gitDir, auditAt, noteFolders, dest, sources = new Set()) {
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
  const notesFiles = tracked.filter((p) => isNotesFile(p, noteFolders, sources))
  // A notes file is emptied, not removed: the repository still has it at its path (a note naming
  // `.github/copilot-instructions.md` or its own `.claude/memory/` folder finds it, as a real
  // audit would), but no later copy of a note's text is left to find.
  const blobs = new Set(entries.map((e) => e.path))
  const emptied = notesFiles.filter((p) => blobs.has(p))
  if (emptied.length > 0) {
    const empty = git(['hash-object', '-w', '--stdin'], { ...inTree, input: '' }).stdout.trim()
    const info = emptied.map((p) => `100644 ${empty}\t${p}`).join('\n')
    git(['update-index', '--index-info'], { ...inTree, input: `${info}\n` })
    for (const p of emptied) writeFileSync(join(dest, ...p.split('/')), '')
  }
  // A gitlink (a notes folder kept as a submodule) has no file to empty: it goes.
  const hidden = notesFiles.filter((p) => !blobs.has(p))
  if (hidden.length > 0) {
    git(['rm', '-q', '--cached', '--pathspec-from-file=-', '--pathspec-file-nul', '--'], {
      ...inTree,
      input: `${hidden.join('\0')}\0`,
    })
    // A gitlink checks out as an empty folder: recursive, or rmSync refuses it.
    for (const p of hidden) rmSync(join(dest, ...p.split('/')), { force: true, recursive: true })
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
  if (notesFiles.length > 0 || absent.length > 0) {
    const date = committerDate(gitDir, sha)
    const what = [
      notesFiles.length > 0 ? `empty the repository's own notes files (${notesFiles.length})` : '',
      absent.length > 0 ? `empty ${absent.length} files the snapshot lacks` : '',
    ]
      .filter(Boolean)
      .join('; ')
    git(['commit', '-q', '--no-verify', '-m', `audit-eval: ${what}`], {
      ...inTree,
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    })
  }
  return { hidden: notesFiles.length, absent: absent.length }
}

/** Claude Code's project folder name for a path (docs/memory-rules.md §1.3). */
export function encodeProject(path) {
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
export function buildHome(root, tree, note, text, writtenAt) {
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

// never-matched (issue 12 item 1): a reference that failed when the note was written too; not stale.
const RANK = { stale: 4, suspect: 3, 'never-matched': 2, fresh: 1, unverifiable: 0 }

export function runAudit(cli, h, tree, stateDir) {
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
    GIT_CONFIG_GLOBAL: gitConfigGlobal(),
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
export function verdictOf(result) {
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
