/**
 * `audit`: check every note of a memory folder (and of instruction files) against
 * the code it names (cli-contract `audit`, memory-facts §6). Reads the notes,
 * gathers repository facts in a few batched git runs (git-history.ts), then
 * judges each note with the pure rules of src/core/audit/verdict.ts.
 */
import { readdir, realpath, stat } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { commitAtOrBefore } from '../../core/git/parse'
import type { HistoryIndex } from '../../core/git/parse'
import type { AuditNote, AuditResult, Problem, Verdict } from '../../shared/model'
import { notesFromInstructionFile, notesFromMemory } from '../../core/memory/notes'
import type { Note, TopicText } from '../../core/memory/notes'
import { extractReferences } from '../../core/audit/references'
import type { Reference } from '../../core/audit/references'
import {
  distinctiveLines,
  distinctiveToken,
  matchSnippet,
  normaliseLines,
} from '../../core/audit/snippet-match'
import {
  candidatePaths,
  capText,
  checkReference,
  diffSummary,
  frontmatterWrittenAt,
  judgeNote,
  parseMakeTargets,
  parsePackageScripts,
  writtenAtReason,
} from '../../core/audit/verdict'
import type { NoteDiff } from '../../shared/model'
import type {
  CheckedReference,
  RepoFacts,
  SnippetFinding,
  WrittenAt,
} from '../../core/audit/verdict'
import { findRepo, repoRefusal } from '../git/repo'
import {
  blameTimes,
  changedFiles,
  ignoredPaths,
  listWorktrees,
  openRepo,
  readHistory,
  searchPatterns,
  showAt,
} from '../git/history'
import type { RepoState } from '../git/history'
import { watchWorkTree, type RepoWatch } from '../git/repo-watch'
import { NOTE_CHECK_MAX_CHARS } from '../../core/limits'
import { FILE_READ_CONCURRENCY, mapLimited } from '../jobs/concurrency'
import { readTextFile, type ReadOptions, type TextRead } from '../fs/safe-read'
import { escapesFolder } from '../fs/path-guard'

/** Provenance hook (the transcript that wrote a line), plugged in by the provenance module. */
export type WrittenAtProvider = (
  file: string,
  line: number,
) => Promise<{ at: string; source: 'transcript' } | null>

export interface AuditOptions {
  readonly memoryDir: string
  /** The repository (or plain folder) the notes describe; null checks nothing. */
  readonly repo: string | null
  readonly instructionFiles?: readonly string[]
  readonly writtenAtFor?: WrittenAtProvider
  readonly signal?: AbortSignal
  readonly onProgress?: (done: number, total: number) => void
  /** Keep this audit's repository facts for `noteDiffs` (the window's click on a note). */
  readonly cache?: AuditFactsCache
}

/** The contract's result plus the problems met on the way (unreadable files, git failures). */
export interface AuditReport extends AuditResult {
  readonly problems: readonly Problem[]
}

const MEMORY_INDEX = 'MEMORY.md'

/**
 * A repository file's text for a check or a diff, unless it is git's own or a link that leads
 * out of the repository (issue 11: a tracked symlink to `/etc/hostname` is not the
 * repository's content, and its target must not reach the window).
 */
async function readRepoFile(root: string, rel: string, options?: ReadOptions): Promise<TextRead> {
  const path = join(root, ...rel.split('/'))
  if (rel.split('/').includes('.git'))
    return { ok: false, path, problem: 'unreadable', reason: 'inside .git' }
  if (await escapesFolder(path, await realpath(root).catch(() => root))) {
    return {
      ok: false,
      path,
      problem: 'unreadable',
      reason: 'a symlink that leads out of the repository',
    }
  }
  return readTextFile(path, options)
}
/** package.json files and Makefiles read at most (monorepos). */
const MAX_MANIFESTS = 200
/** Files read when looking for one quote. */
const MAX_SNIPPET_CANDIDATES = 10
/** Largest file `noteDiffs` shows. */
const DIFF_MAX_BYTES = 4 * 1024 * 1024

interface Loaded {
  readonly notes: Note[]
  readonly problems: Problem[]
  /** Absolute file → mtime (ms) of every file read. */
  readonly mtimes: Map<string, number>
  /** Absolute file → the text read, for every file read (a kept audit compares them later). */
  readonly texts?: Map<string, string>
}

/** Read the memory folder and instruction files into notes. */
async function loadNotes(memoryDir: string, instructionFiles: readonly string[]): Promise<Loaded> {
  const problems: Problem[] = []
  const mtimes = new Map<string, number>()
  const texts = new Map<string, string>()
  const dir = resolve(memoryDir)
  let indexText: string | null = null
  const topics: TopicText[] = []
  const indexPath = join(dir, MEMORY_INDEX)
  let names: string[] = []
  try {
    names = await listMarkdown(dir)
  } catch (err) {
    problems.push({
      path: dir,
      reason: `cannot list the memory folder: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    })
  }
  // Read with bounded concurrency (a folder can hold thousands of topic files), then use in order.
  const reads = await mapLimited(names, FILE_READ_CONCURRENCY, (name) =>
    readTextFile(join(dir, ...name.split('/')), { lenient: true }),
  )
  for (const [i, name] of names.entries()) {
    const path = join(dir, ...name.split('/'))
    const r = reads[i]!
    if (!r.ok) {
      problems.push({ path, reason: r.reason })
      continue
    }
    mtimes.set(path, r.mtimeMs)
    texts.set(path, r.text)
    if (name === MEMORY_INDEX) indexText = r.text
    else topics.push({ name, path, text: r.text })
  }
  const notes = names.length > 0 ? notesFromMemory({ indexPath, indexText, topics }) : []
  for (const f of instructionFiles) {
    const path = resolve(f)
    const r = await readTextFile(path, { lenient: true })
    if (!r.ok) {
      problems.push({ path, reason: r.reason })
      continue
    }
    mtimes.set(path, r.mtimeMs)
    texts.set(path, r.text)
    notes.push(...notesFromInstructionFile(path, r.text))
  }
  return { notes, problems, mtimes, texts }
}

/** `*.md` files of a memory folder, one level of subfolders included, relative and sorted. */
async function listMarkdown(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.md')) out.push(e.name)
    else if (e.isDirectory() && !e.name.startsWith('.')) {
      try {
        for (const s of await readdir(join(dir, e.name), { withFileTypes: true })) {
          if (s.isFile() && s.name.endsWith('.md')) out.push(`${e.name}/${s.name}`)
        }
      } catch {
        // An unreadable subfolder holds no notes we can audit.
      }
    }
  }
  return out.sort()
}

interface Prepared {
  readonly notes: readonly Note[]
  readonly refs: ReadonlyMap<Note, readonly Reference[]>
  readonly facts: RepoFacts | null
  readonly state: RepoState | null
  readonly problems: Problem[]
  readonly mtimes: Map<string, number>
  /** Where each quote was found best, with the file's text for diffs. */
  readonly snippetTexts: Map<string, string>
  /**
   * Facts of other work trees, by the branch they have checked out, for notes that
   * name that branch (`src/cart/coupons.ts` on `feature/coupons`).
   */
  readonly branches: ReadonlyMap<string, Prepared>
}

const toPosix = (p: string): string => p.split(sep).join('/')

/** Gather the facts every reference of `notes` needs, in batched git runs. */
async function prepare(
  loaded: Loaded,
  repo: string | null,
  step: () => void,
  signal: AbortSignal | undefined,
  branch?: string,
  /** Called once the repository is open, before any of its files is searched or read. */
  onOpened?: (state: RepoState) => void,
): Promise<Prepared> {
  const { notes, problems, mtimes } = loaded
  const refs = new Map<Note, Reference[]>()
  // A huge note (a pasted log, one 7 MB line) is checked in part, never for minutes; judge() says so.
  for (const n of notes) refs.set(n, extractReferences(n.checkText.slice(0, NOTE_CHECK_MAX_CHARS)))
  const snippetTexts = new Map<string, string>()
  const base = {
    notes,
    refs,
    problems,
    mtimes,
    snippetTexts,
    branches: new Map<string, Prepared>(),
  }
  if (repo === null) return { ...base, facts: null, state: null }
  const repoDir = resolve(repo)
  try {
    if (!(await stat(repoDir)).isDirectory()) throw new Error('not a folder')
  } catch {
    problems.push({ path: repoDir, reason: 'the repository folder does not exist' })
    return { ...base, facts: null, state: null }
  }
  const info = await findRepo(repoDir)
  let state: RepoState | null = null
  if (info) {
    const opened = await openRepo(info.toplevel)
    if (opened.ok) state = opened.state
    else problems.push({ path: info.toplevel, reason: opened.reason })
  } else {
    const refused = await repoRefusal(repoDir)
    if (refused !== null) problems.push({ path: repoDir, reason: refused })
  }
  const root = state ? state.root : repoDir
  if (state) onOpened?.(state)
  signal?.throwIfAborted()
  step()

  // Existence: tracked files and folders, else the disk (untracked files count).
  const all = [...refs.values()].flat()
  const existsCache = new Map<string, { exists: boolean; dir: boolean; mtimeMs: number }>()
  const wanted = new Set<string>()
  for (const n of notes) {
    for (const r of refs.get(n) ?? []) {
      const p =
        r.kind === 'path' ? r.path : r.kind === 'command' && r.runner === 'file' ? r.target : null
      if (p === null) continue
      for (const c of candidatePaths(p, root, dirname(n.file)) ?? []) wanted.add(c)
    }
  }
  await Promise.all(
    [...wanted].map(async (rel) => {
      if (state?.tracked.has(rel)) {
        existsCache.set(rel, { exists: true, dir: false, mtimeMs: 0 })
        return
      }
      if (state?.trackedDirs.has(rel)) {
        existsCache.set(rel, { exists: true, dir: true, mtimeMs: 0 })
        return
      }
      try {
        const st = await stat(join(root, ...rel.split('/')))
        existsCache.set(rel, { exists: true, dir: st.isDirectory(), mtimeMs: st.mtimeMs })
      } catch {
        existsCache.set(rel, { exists: false, dir: false, mtimeMs: 0 })
      }
    }),
  )
  // Paths that are not there may be ignored (build output, local files): one git run.
  const absent = [...wanted].filter((rel) => existsCache.get(rel)?.exists === false)
  const ignoredSet =
    state && absent.length > 0 ? await ignoredPaths(root, absent) : new Set<string>()
  // Bare file names (`money.ts`) resolve against the tracked files' last segments.
  const bareNames = new Set(absent.filter((rel) => !rel.includes('/')))
  const basenames = new Map<string, string[]>()
  if (state && bareNames.size > 0) {
    for (const f of state.tracked) {
      const name = f.slice(f.lastIndexOf('/') + 1)
      if (bareNames.has(name)) push(basenames, name, f)
    }
  }
  const exists = (rel: string): boolean =>
    existsCache.get(rel)?.exists ??
    (state ? state.tracked.has(rel) || state.trackedDirs.has(rel) : false)
  const isDir = (rel: string): boolean =>
    existsCache.get(rel)?.dir ?? (state ? state.trackedDirs.has(rel) : false)

  // The notes' own files are left out of every search: a note always finds itself.
  const exclude = [...new Set(notes.flatMap((n) => [n.file, n.topicFile ?? n.file]))]
    .map((f) => relative(root, f))
    .filter((r) => r !== '' && !r.startsWith('..'))
    .map(toPosix)
  const grepOptions = { noIndex: !state, exclude }
  const terms = all.flatMap((r) => (r.kind === 'symbol' ? r.terms : []))
  const quoteNotes = notes.filter((n) => (refs.get(n) ?? []).some((r) => r.kind === 'snippet'))
  const probes = new Map<string, string[]>()
  for (const n of quoteNotes) {
    for (const r of refs.get(n) ?? []) {
      if (r.kind !== 'snippet' || probes.has(r.code)) continue
      const lines = distinctiveLines(r.code)
      const norm = normaliseLines(r.code)
      const token = norm.length === 1 ? distinctiveToken(norm[0].text) : null
      probes.set(r.code, token ? [...lines, token] : lines)
    }
  }
  // The independent git runs go in parallel: history, both searches, status.
  const historyRun = state && wanted.size > 0 ? readHistory(state) : null
  const symbolRun = terms.length > 0 ? searchPatterns(root, terms, true, grepOptions) : null
  const quoteRun =
    probes.size > 0 ? searchPatterns(root, [...probes.values()].flat(), false, grepOptions) : null
  const statusRun = state && wanted.size > 0 ? changedFiles(root) : null

  // History, only when some note names a path.
  let history: HistoryIndex | null = null
  if (historyRun) {
    const h = await historyRun
    if (h.ok) history = h.index
    else problems.push({ path: root, reason: h.reason })
  }
  signal?.throwIfAborted()
  step()

  // Symbols: every word of every symbol, one search.
  const wordFiles = new Map<string, readonly string[]>()
  if (symbolRun) {
    const s = await symbolRun
    if (s.ok) for (const [k, v] of s.files) wordFiles.set(k, v)
    else problems.push({ path: root, reason: s.reason })
  }
  signal?.throwIfAborted()
  step()

  // Commands: package.json scripts and Makefile targets.
  const scripts = new Map<string, string[]>()
  const makeTargets = new Map<string, string[]>()
  const packageFiles: string[] = []
  const makefiles: string[] = []
  const commands = all.filter((r) => r.kind === 'command' && r.runner !== 'file')
  if (commands.length > 0) {
    const files = state ? [...state.tracked] : []
    if (!state) {
      for (const f of ['package.json', 'Makefile', 'makefile', 'GNUmakefile']) {
        try {
          if ((await stat(join(root, f))).isFile()) files.push(f)
        } catch {
          // absent
        }
      }
    }
    const pkgs = files
      .filter((f) => /(^|\/)package\.json$/.test(f) && !f.includes('node_modules/'))
      .sort(byDepth)
    const makes = files
      .filter((f) => /(^|\/)(?:GNUmakefile|[Mm]akefile|[^/]+\.mk)$/.test(f))
      .sort(byDepth)
    for (const f of [...new Set(pkgs)].slice(0, MAX_MANIFESTS)) {
      const r = await readRepoFile(root, f)
      if (!r.ok) continue
      packageFiles.push(f)
      for (const s of parsePackageScripts(r.text)) push(scripts, s, f)
    }
    for (const f of [...new Set(makes)].slice(0, MAX_MANIFESTS)) {
      const r = await readRepoFile(root, f, { lenient: true })
      if (!r.ok) continue
      makefiles.push(f)
      for (const t of parseMakeTargets(r.text)) push(makeTargets, t, f)
    }
  }
  signal?.throwIfAborted()
  step()

  // Quotes: files the note names, else files holding its most distinctive lines.
  const snippets = new Map<string, SnippetFinding>()
  if (quoteRun) {
    const lineHits = await quoteRun
    if (!lineHits.ok) problems.push({ path: root, reason: lineHits.reason })
    const fileText = new Map<string, string | null>()
    const readRel = async (rel: string): Promise<string | null> => {
      if (!fileText.has(rel)) {
        const r = await readRepoFile(root, rel)
        fileText.set(rel, r.ok ? r.text : null)
      }
      return fileText.get(rel) ?? null
    }
    for (const n of quoteNotes) {
      const named = (refs.get(n) ?? []).flatMap((r) =>
        r.kind === 'path'
          ? [
              ...(candidatePaths(r.path, root, dirname(n.file)) ?? []).filter(
                (c) => exists(c) && !isDir(c),
              ),
              ...(basenames.get(r.path) ?? []),
            ]
          : [],
      )
      for (const r of refs.get(n) ?? []) {
        if (r.kind !== 'snippet' || snippets.has(r.code)) continue
        const hits = lineHits.ok
          ? (probes.get(r.code) ?? []).flatMap((p) => lineHits.files.get(p) ?? [])
          : []
        const candidates = [...new Set([...named, ...hits])].slice(0, MAX_SNIPPET_CANDIDATES)
        let best: SnippetFinding = { file: null, match: matchSnippet(r.code, '') }
        for (const c of candidates) {
          const text = await readRel(c)
          if (text === null) continue
          const m = matchSnippet(r.code, text)
          if (m.score > best.match.score || (best.file === null && m.kind !== 'none')) {
            best = { file: c, match: m }
            snippetTexts.set(r.code, text)
          }
          if (m.kind === 'exact') break
        }
        snippets.set(r.code, best)
      }
    }
  }
  signal?.throwIfAborted()
  step()

  // Uncommitted edits count as changes at their file's mtime.
  const dirty = new Map<string, number>()
  if (state) {
    // Files only: a folder never makes a note suspect (verdict.ts).
    const named = new Set([
      ...[...existsCache.entries()].filter(([, v]) => v.exists && !v.dir).map(([k]) => k),
      ...[...basenames.values()].flat(),
    ])
    const changed = statusRun ? await statusRun : []
    await Promise.all(
      changed
        .filter((p) => named.has(p))
        .map(async (p) => {
          try {
            dirty.set(p, (await stat(join(root, ...p.split('/')))).mtimeMs)
          } catch {
            dirty.set(p, Date.now())
          }
        }),
    )
  }
  const fileMtimes = new Map<string, number>()
  if (!state) for (const [k, v] of existsCache) if (v.exists) fileMtimes.set(k, v.mtimeMs)

  const facts: RepoFacts = {
    root,
    git: state !== null,
    shallow: state?.shallow ?? false,
    exists,
    isDir,
    ignored: (rel) => ignoredSet.has(rel),
    byBasename: (name) => basenames.get(name) ?? [],
    history,
    wordFiles,
    scripts,
    packageFiles,
    makeTargets,
    makefiles,
    snippets,
    dirty,
    mtimes: fileMtimes,
    ...(branch !== undefined ? { branch } : {}),
  }
  // A note naming a branch checked out in another work tree is checked there too.
  if (state && branch === undefined) {
    const named = new Set(all.flatMap((r) => (r.kind === 'branch' ? [r.name] : [])))
    const trees = named.size > 0 ? await listWorktrees(root) : []
    for (const wt of trees) {
      if (wt.branch === null || !named.has(wt.branch) || wt.path === root) continue
      const name = wt.branch
      const own = notes.filter((n) =>
        (refs.get(n) ?? []).some((r) => r.kind === 'branch' && r.name === name),
      )
      signal?.throwIfAborted()
      // Its problems stay its own: a stale work tree must not fail the main audit.
      const sub = await prepare(
        { notes: own, problems: [], mtimes },
        wt.path,
        () => {},
        signal,
        name,
      )
      if (sub.facts) base.branches.set(name, sub)
    }
  }
  return { ...base, facts, state }
}

function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0)
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)
  if (list) {
    if (!list.includes(value)) list.push(value)
  } else map.set(key, [value])
}

/** Best source first: transcript, frontmatter, git blame, file mtime (step 6 of the brief). */
async function writtenAtOf(
  note: Note,
  provider: WrittenAtProvider | undefined,
  mtimes: ReadonlyMap<string, number>,
  blame: (file: string) => Promise<Map<number, number | null> | null>,
): Promise<WrittenAt | null> {
  if (provider) {
    const asks: [string, number][] = note.topicFile ? [[note.topicFile, note.bodyLine]] : []
    if (note.kind !== 'topic') asks.push([note.file, note.line])
    for (const [file, line] of asks) {
      try {
        const got = await provider(file, line)
        const ms = got ? Date.parse(got.at) : NaN
        if (got && Number.isFinite(ms))
          return { iso: new Date(ms).toISOString(), ms, source: 'transcript' }
      } catch {
        // A failing provider falls back to the next source.
      }
    }
  }
  const fm = frontmatterWrittenAt(note.frontmatter)
  if (fm) return fm
  if (note.kind === 'instruction' || note.kind === 'index-text') {
    const times = await blame(note.file)
    if (times) {
      let newest = -1
      let uncommitted = false
      for (let l = note.line; l <= note.endLine; l++) {
        const t = times.get(l)
        if (t === null) uncommitted = true
        else if (t !== undefined && t > newest) newest = t
      }
      if (!uncommitted && newest >= 0)
        return { iso: new Date(newest).toISOString(), ms: newest, source: 'git-blame' }
    }
  }
  const mtime = mtimes.get(note.topicFile ?? note.file)
  return mtime === undefined
    ? null
    : { iso: new Date(mtime).toISOString(), ms: mtime, source: 'mtime' }
}

interface Judged {
  readonly note: AuditNote
  readonly checked: readonly CheckedReference[]
  readonly writtenAt: WrittenAt | null
}

/** Judge every note; shared by `auditMemory` and `noteDiffs`. */
async function judgeAll(
  p: Prepared,
  provider: WrittenAtProvider | undefined,
  onNote: () => void,
  signal: AbortSignal | undefined,
): Promise<Judged[]> {
  const blames = new Map<string, Promise<Map<number, number | null> | null>>()
  const blame = (file: string): Promise<Map<number, number | null> | null> => {
    if (!p.state) return Promise.resolve(null)
    const rel = toPosix(relative(p.state.root, file))
    if (rel.startsWith('..') || !p.state.tracked.has(rel)) return Promise.resolve(null)
    let hit = blames.get(rel)
    if (!hit) {
      hit = blameTimes(p.state.root, rel)
      blames.set(rel, hit)
    }
    return hit
  }
  const out: Judged[] = []
  for (const note of p.notes) {
    signal?.throwIfAborted()
    const reasons: string[] = []
    const checked: CheckedReference[] = []
    if (p.facts) {
      const refs = p.refs.get(note) ?? []
      const elsewhere = refs.flatMap((r) => {
        const facts = r.kind === 'branch' ? p.branches.get(r.name)?.facts : null
        return r.kind === 'branch' && facts ? [{ name: r.name, facts }] : []
      })
      for (const r of refs) {
        let c = checkReference(r, p.facts, dirname(note.file))
        if (!('skipped' in c) && c.audit.status !== 'ok') c = onBranch(r, c, elsewhere, note)
        if ('skipped' in c) reasons.push(c.skipped)
        else checked.push(c)
      }
    }
    const writtenAt = await writtenAtOf(note, provider, p.mtimes, blame)
    const judged = judgeNote(checked, writtenAt, p.facts)
    if (note.danglingTarget !== null)
      reasons.push(`the topic file \`${note.danglingTarget}\` does not exist`)
    if (note.checkText.length > NOTE_CHECK_MAX_CHARS) {
      reasons.push(
        `only the first ${NOTE_CHECK_MAX_CHARS.toLocaleString('en')} of ${note.checkText.length.toLocaleString('en')} characters of this note were checked`,
      )
    }
    reasons.push(...judged.reasons, writtenAtReason(writtenAt))
    out.push({
      note: {
        file: note.file,
        line: note.line,
        endLine: note.endLine,
        title: note.title,
        verdict: judged.verdict,
        writtenAt: writtenAt?.iso ?? null,
        writtenAtSource: writtenAt?.source ?? null,
        references: checked.map((c) => c.audit),
        reasons,
      },
      checked,
      writtenAt,
    })
    onNote()
  }
  return out
}

/**
 * A reference that fails on the checked-out branch but holds on a branch the note
 * names (checked out in another work tree) holds: the note says where it lives.
 */
function onBranch(
  r: Reference,
  failed: CheckedReference,
  elsewhere: readonly { readonly name: string; readonly facts: RepoFacts }[],
  note: Note,
): CheckedReference {
  for (const b of elsewhere) {
    const c = checkReference(r, b.facts, dirname(note.file))
    if ('skipped' in c || c.audit.status !== 'ok') continue
    const where = `\`${r.text}\` is on branch \`${b.name}\` (work tree \`${b.facts.root}\`), not on the checked-out branch`
    return { ...c, checkedIn: b.facts, reason: c.reason ? `${where}; ${c.reason}` : where }
  }
  return failed
}

const cacheKey = (memoryDir: string, repo: string | null): string =>
  `${resolve(memoryDir)}\0${repo === null ? '' : resolve(repo)}`
const noteKey = (n: Note): string => `${n.file}\0${n.line}`

/** A work tree being watched, and the reading taken when an audit opened it. */
interface Armed {
  readonly root: string
  readonly watched: Watched
  readonly stamp: string
  readonly changes: number
}

interface Watched {
  readonly watch: RepoWatch
  readonly stamp: string
  /** Audits that armed this watcher and have not ended yet: it stays open for them. */
  running: number
}

interface Kept {
  readonly armed: Armed
  readonly prepared: Prepared
  /** The memory folder as the audit read it. */
  readonly loaded: Loaded
  readonly indexPath: string
  /** Each audited note's text and references: a note edited since is checked afresh. */
  readonly audited: ReadonlyMap<
    string,
    { readonly checkText: string; readonly refs: readonly Reference[] }
  >
}

/**
 * The last audits' repository facts, so that a click on a note does not search the whole
 * repository again (issue 7: a diff within 200 ms of a click; `git grep` and `git status`
 * over 20,000 files take longer than that on their own). Facts are reused only while
 * they still hold: the same HEAD and index (RepoState.stamp), no event in any folder
 * holding tracked files since the audit opened the repository (repo-watch.ts), the note's
 * text as audited, and no other work tree involved. Otherwise `noteDiffs` gathers facts
 * afresh. Both sides of every diff are read at the time of the click either way.
 */
export class AuditFactsCache {
  readonly #kept = new Map<string, Kept>()
  readonly #watched = new Map<string, Watched>()
  /**
   * Clicks answered from kept facts, clicks that had to gather them again, and clicks whose
   * note was taken from the kept audit without reading the memory folder again.
   */
  readonly stats = { reused: 0, gathered: 0, notesKept: 0 }

  constructor(private readonly maxEntries = 4) {}

  /** Start (or keep) watching the work tree an audit just opened; null when it cannot be watched. */
  arm(state: RepoState): Armed | null {
    if (state.stamp === null) return null
    let w = this.#watched.get(state.root)
    if (w && (w.stamp !== state.stamp || w.watch.broken)) {
      // Another commit or index: the folders holding tracked files may differ.
      w.watch.close()
      this.#watched.delete(state.root)
      w = undefined
    }
    if (!w) {
      const watch = watchWorkTree(state.root, state.trackedDirs)
      if (!watch) return null
      w = { watch, stamp: state.stamp, running: 0 }
      this.#watched.set(state.root, w)
    }
    w.running++
    return { root: state.root, watched: w, stamp: state.stamp, changes: w.watch.changes }
  }

  /**
   * An audit that armed a watcher has ended: keep its facts when it succeeded and nothing
   * changed while it ran (`ran` null: it failed or was cancelled).
   */
  done(
    key: string,
    armed: Armed,
    ran: { prepared: Prepared; loaded: Loaded; memoryDir: string } | null,
  ): void {
    armed.watched.running--
    if (ran)
      this.#keep(key, armed, ran.prepared, ran.loaded, join(resolve(ran.memoryDir), MEMORY_INDEX))
    this.#sweep()
  }

  /**
   * The audited note at `file:line`, when the files it was read from (and the index, which
   * decides whether a topic file is linked) still hold exactly the text the audit read: then
   * the memory folder need not be read again. Null otherwise.
   */
  async keptNote(
    key: string,
    file: string,
    line: number,
  ): Promise<{ note: Note; loaded: Loaded } | null> {
    const kept = this.#kept.get(key)
    const texts = kept?.loaded.texts
    if (!kept || !texts) return null
    const note = kept.prepared.notes.find(
      (n) => n.file === file && n.line <= line && line <= n.endLine,
    )
    if (!note || note.danglingTarget !== null) return null
    for (const f of new Set([
      kept.indexPath,
      note.file,
      ...(note.topicFile ? [note.topicFile] : []),
    ])) {
      const was = texts.get(f)
      if (was === undefined) return null
      const r = await readTextFile(f, { lenient: true })
      if (!r.ok || r.text !== was) return null
    }
    this.stats.notesKept++
    return { note, loaded: kept.loaded }
  }

  #keep(key: string, armed: Armed, prepared: Prepared, loaded: Loaded, indexPath: string): void {
    if (!this.#unchanged(armed) || prepared.branches.size > 0 || !prepared.facts) return
    const audited = new Map<string, { checkText: string; refs: readonly Reference[] }>()
    for (const n of prepared.notes)
      audited.set(noteKey(n), { checkText: n.checkText, refs: prepared.refs.get(n) ?? [] })
    this.#kept.delete(key)
    this.#kept.set(key, { armed, prepared, audited, loaded, indexPath })
    for (const k of this.#kept.keys()) {
      if (this.#kept.size <= this.maxEntries) break
      this.#kept.delete(k)
    }
  }

  /** Facts for `note` from the last audit, or null when they may no longer hold. */
  async reuse(key: string, note: Note, loaded: Loaded): Promise<Prepared | null> {
    const kept = this.#kept.get(key)
    const audited = kept?.audited.get(noteKey(note))
    const state = kept?.prepared.state
    if (!kept || !audited || !state || audited.checkText !== note.checkText) {
      this.stats.gathered++
      return null
    }
    const now = await openRepo(state.root)
    // Read the watcher after git answered: by then the events of earlier writes have arrived.
    if (!now.ok || now.state.stamp !== kept.armed.stamp || !this.#unchanged(kept.armed)) {
      this.#kept.delete(key)
      this.#sweep()
      this.stats.gathered++
      return null
    }
    this.stats.reused++
    return {
      ...kept.prepared,
      notes: [note],
      refs: new Map([[note, audited.refs]]),
      problems: [...loaded.problems],
      mtimes: loaded.mtimes,
    }
  }

  /** Stop every watcher and forget everything. */
  close(): void {
    for (const w of this.#watched.values()) w.watch.close()
    this.#watched.clear()
    this.#kept.clear()
  }

  #unchanged(a: Armed): boolean {
    // The same watcher (not one replaced since), not broken, and no event since the reading.
    return (
      this.#watched.get(a.root) === a.watched &&
      !a.watched.watch.broken &&
      a.watched.watch.changes === a.changes
    )
  }

  /** Close watchers that neither a kept audit nor a running one relies on. */
  #sweep(): void {
    const used = new Set([...this.#kept.values()].map((k) => k.armed.watched))
    for (const [root, w] of this.#watched) {
      if (used.has(w) || w.running > 0) continue
      w.watch.close()
      this.#watched.delete(root)
    }
  }
}

/** Check every note of a memory folder (and instruction files) against the repository. */
export async function auditMemory(opts: AuditOptions): Promise<AuditReport> {
  const { signal, onProgress } = opts
  signal?.throwIfAborted()
  const loaded = await loadNotes(opts.memoryDir, opts.instructionFiles ?? [])
  const phases = 5
  const total = phases + loaded.notes.length
  let done = 0
  const step = (): void => {
    done++
    onProgress?.(done, total)
  }
  onProgress?.(0, total)
  // With a cache, the work tree is watched from the moment the repository is open, and the
  // facts are kept if nothing changed until the audit ended (AuditFactsCache).
  const { cache } = opts
  let armed: Armed | null = null
  const arm = (state: RepoState): void => {
    armed = cache?.arm(state) ?? null
  }
  let ran: { prepared: Prepared; loaded: Loaded; memoryDir: string } | null = null
  let judged: Judged[]
  try {
    const prepared = await prepare(loaded, opts.repo, step, signal, undefined, arm)
    while (done < phases) step()
    judged = await judgeAll(prepared, opts.writtenAtFor, step, signal)
    ran = { prepared, loaded, memoryDir: opts.memoryDir }
  } finally {
    const held = armed as Armed | null // set inside arm(), which the type checker does not follow
    if (cache && held) cache.done(cacheKey(opts.memoryDir, opts.repo), held, ran)
  }
  const { prepared } = ran
  const summary: Record<Verdict, number> = { fresh: 0, suspect: 0, stale: 0, unverifiable: 0 }
  for (const j of judged) summary[j.note.verdict]++
  return {
    repo: prepared.facts ? prepared.facts.root : null,
    notes: judged.map((j) => j.note),
    summary,
    problems: prepared.problems,
  }
}

export interface NoteDiffOptions {
  readonly memoryDir: string
  readonly repo: string | null
  /** The file the note's `line` points into (as in the audit result). */
  readonly file: string
  readonly line: number
  readonly instructionFiles?: readonly string[]
  readonly writtenAtFor?: WrittenAtProvider
  /** The facts of the last audit of the same folder and repository, used while still true. */
  readonly cache?: AuditFactsCache
}

/**
 * For one note, each reference then and now: the file as of the last commit at or
 * before the note was written vs the file now (renames followed), or the quoted
 * code vs its best match. Empty when no note starts at `file:line`.
 */
export async function noteDiffs(opts: NoteDiffOptions): Promise<NoteDiff[]> {
  const file = resolve(opts.file)
  const instructionFiles = [...(opts.instructionFiles ?? [])]
  if (
    !instructionFiles.map((f) => resolve(f)).includes(file) &&
    dirname(file) !== resolve(opts.memoryDir)
  ) {
    instructionFiles.push(file)
  }
  const key = cacheKey(opts.memoryDir, opts.repo)
  const quick = (await opts.cache?.keptNote(key, file, opts.line)) ?? null
  const loaded = quick?.loaded ?? (await loadNotes(opts.memoryDir, instructionFiles))
  const note =
    quick?.note ??
    loaded.notes.find((n) => n.file === file && n.line <= opts.line && opts.line <= n.endLine)
  if (!note) return []
  const p =
    (await opts.cache?.reuse(key, note, loaded)) ??
    (await prepare(
      { ...loaded, notes: [note], problems: [...loaded.problems] },
      opts.repo,
      () => {},
      undefined,
    ))
  const [judged] = await judgeAll(p, opts.writtenAtFor, () => {}, undefined)
  if (!judged || !p.facts) return []
  const facts = p.facts
  const at =
    p.state && facts.history && judged.writtenAt
      ? commitAtOrBefore(facts.history, judged.writtenAt.ms)
      : null
  const out: NoteDiff[] = []
  for (const c of judged.checked) {
    // A reference found on another branch is compared in that branch's work tree.
    const other = c.checkedIn ? [...p.branches.values()].find((b) => b.facts === c.checkedIn) : null
    if (other?.facts) {
      const otherAt =
        other.state && other.facts.history && judged.writtenAt
          ? commitAtOrBefore(other.facts.history, judged.writtenAt.ms)
          : null
      out.push(await diffFor(c, other.facts, other, otherAt))
    } else out.push(await diffFor(c, facts, p, at))
  }
  return out
}

async function diffFor(
  c: CheckedReference,
  facts: RepoFacts,
  p: Prepared,
  at: { sha: string; date: string; time: number } | null,
): Promise<NoteDiff> {
  const reference = c.audit
  const ref = c.ref
  if (ref.kind === 'url' || ref.kind === 'branch') {
    return {
      reference,
      before: null,
      after: null,
      summary: `${ref.kind === 'url' ? 'URL' : 'branch'}: not checked against the code`,
    }
  }
  if (ref.kind === 'snippet') {
    const q = capText(ref.code)
    const finding = facts.snippets.get(ref.code)
    const before = { label: 'quoted in the note', text: q.text }
    const notes = q.cut ? ` (${q.cut})` : ''
    if (!finding || finding.file === null || finding.match.kind === 'none') {
      return { reference, before, after: null, summary: `quoted code not found now${notes}` }
    }
    const text = p.snippetTexts.get(ref.code) ?? ''
    const region = text
      .split(/\r?\n/)
      .slice(finding.match.startLine - 1, finding.match.endLine)
      .join('\n')
    const after = capText(region)
    return {
      reference,
      before,
      after: {
        label: `${finding.file}:${finding.match.startLine}-${finding.match.endLine}`,
        text: after.text,
      },
      summary: `${finding.match.kind === 'exact' ? 'found as quoted' : diffSummary(q.text, after.text)}${notes}`,
    }
  }
  if (ref.kind === 'symbol' || (ref.kind === 'command' && ref.runner !== 'file')) {
    const summary =
      reference.status === 'ok'
        ? `found${reference.resolved ? ` in ${relative(facts.root, reference.resolved)}` : ''}`
        : (c.reason ?? 'not found')
    return { reference, before: null, after: null, summary }
  }
  // A path (or a script file): the file then vs now.
  const named = c.namedPath
  const current = c.restsOn
  if (current !== null && facts.isDir(current)) {
    return { reference, before: null, after: null, summary: 'a folder: no text to compare' }
  }
  let before: NoteDiff['before'] = null
  const problems: string[] = []
  if (at && named !== null && p.state) {
    // The name the file had at that commit: renames up to then applied.
    let then = named
    for (const s of c.renames ?? []) if (Date.parse(s.date) <= at.time * 1000) then = s.to
    let shown = await showAt(p.state.root, at.sha, then, DIFF_MAX_BYTES)
    let label = `${then} @ ${at.sha.slice(0, 7)} (${at.date.slice(0, 10)})`
    if (!shown.ok && c.deletedIn && !/binary/.test(shown.reason)) {
      // Deleted before the note was written: show the last version there was.
      shown = await showAt(p.state.root, `${c.deletedIn}^`, then, DIFF_MAX_BYTES)
      label = `${then} @ ${c.deletedIn.slice(0, 7)}^ (before it was deleted)`
    }
    if (shown.ok) {
      const capped = capText(shown.text)
      before = { label, text: capped.text }
      if (capped.cut) problems.push(`before: ${capped.cut}`)
    } else problems.push(shown.reason)
  } else if (!at) problems.push('no commit at or before the time the note was written')
  let after: NoteDiff['after'] = null
  if (current !== null) {
    const r = await readRepoFile(facts.root, current, { maxBytes: DIFF_MAX_BYTES })
    if (r.ok) {
      const capped = capText(r.text)
      after = { label: `${current} (now)`, text: capped.text }
      if (capped.cut) problems.push(`after: ${capped.cut}`)
    } else problems.push(`\`${current}\`: ${r.reason}`)
  } else problems.push(c.reason ?? 'no longer exists')
  const counted = before && after ? diffSummary(before.text, after.text) : null
  const summary = [counted, ...problems].filter((s): s is string => !!s).join('; ')
  return { reference, before, after, summary: summary || 'nothing to compare' }
}
