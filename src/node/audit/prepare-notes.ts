/**
 * Prepare notes for judging: the references each names, and every fact about the repository
 * those references need, gathered in a few batched git runs (node/git/history.ts): what
 * exists, history, words, scripts and targets, quotes, uncommitted edits; and the same for
 * another work tree when a note names the branch checked out there.
 */
import { stat } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import type { HistoryIndex } from '../../core/git/parse'
import type { Problem } from '../../shared/model'
import type { Note } from '../../core/memory/notes'
import { extractReferences } from '../../core/audit/references'
import type { Reference } from '../../core/audit/reference'
import type { RepoFacts, SnippetFinding } from '../../core/audit/repo-facts'
import { NOTE_CHECK_MAX_CHARS } from '../../core/limits'
import { findRepo, repoRefusal } from '../git/repo'
import { ignoredPaths, listWorktrees, openRepo, readHistory } from '../git/history'
import { searchPatterns } from '../git/pattern-search'
import { changedFiles } from '../git/work-tree-delta'
import type { RepoState } from '../git/history'
import type { Loaded } from './load-notes'
import { toPosix } from './repo-file'
import { noManifests, readManifests } from './repo-manifests'
import { findQuotes, quoteProbes, type Quote } from './quote-search'
import { candidatePaths, webRootPath } from '../../core/audit/repo-paths'
import { searchIgnoredFiles } from './ignored-files'
import { bySuffix } from './tracked-suffixes'

export interface Prepared {
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

/** Gather the facts every reference of `notes` needs, in batched git runs. */
export async function prepare(
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
      // A rooted path may be the root's own (`/src/app/`, check-path.ts `webRootFile`).
      for (const c of candidatePaths(p, root, dirname(n.file)) ?? [webRootPath(p) ?? ''])
        if (c !== '') wanted.add(c)
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
  // Named files present but untracked may be ignored too (a `.env` that is there): same run.
  const untracked = [...wanted].filter(
    (rel) =>
      existsCache.get(rel)?.exists === true &&
      !state?.tracked.has(rel) &&
      !state?.trackedDirs.has(rel),
  )
  const askIgnored = [...absent, ...untracked]
  const ignoredAll =
    state && askIgnored.length > 0 ? await ignoredPaths(root, askIgnored) : new Set<string>()
  const ignoredSet = new Set(absent.filter((rel) => ignoredAll.has(rel)))
  const ignoredHere = new Set(untracked.filter((rel) => ignoredAll.has(rel)))
  // Bare file names (`money.ts`) and partial paths (`game/character/x.ts`) the root does not
  // have resolve by suffix against the tracked files and folders (issue 12 item 2).
  const none = (): Map<string, string[]> => new Map<string, string[]>()
  const {
    out: basenames,
    caseless,
    suffixed,
  } = state
    ? bySuffix(state, notes, refs, root, existsCache)
    : { out: none(), caseless: none(), suffixed: none() }
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
      if (r.kind === 'snippet' && !probes.has(r.code)) probes.set(r.code, quoteProbes(r.code))
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
  const unsearched: { words?: string; quotes?: string } = {}
  if (symbolRun) {
    const s = await symbolRun
    if (s.ok) for (const [k, v] of s.files) wordFiles.set(k, v)
    else problems.push({ path: root, reason: (unsearched.words = s.reason) })
  }
  // Ignored is not absent: a `.env` the notes name is read when present (issue 12 item 6).
  if (state && terms.length > 0) {
    const present = [...existsCache.entries()]
      .filter(([rel, v]) => v.exists && !v.dir && !state.tracked.has(rel))
      .map(([rel]) => rel)
      .filter((rel) => ignoredHere.has(rel))
    await searchIgnoredFiles(root, present, terms, wordFiles)
  }
  signal?.throwIfAborted()
  step()

  // Commands: package.json scripts and Makefile targets.
  const commands = all.filter((r) => r.kind === 'command' && r.runner !== 'file')
  const manifests = commands.length > 0 ? await readManifests(root, state) : noManifests()
  signal?.throwIfAborted()
  step()

  // Quotes: files the note names, else files holding its most distinctive lines.
  let snippets = new Map<string, SnippetFinding>()
  if (quoteRun) {
    const lineHits = await quoteRun
    if (!lineHits.ok) problems.push({ path: root, reason: (unsearched.quotes = lineHits.reason) })
    const quotes: Quote[] = []
    const seen = new Set<string>()
    for (const n of quoteNotes) {
      const named = (refs.get(n) ?? []).flatMap((r) =>
        r.kind === 'path'
          ? [
              ...(candidatePaths(r.path, root, dirname(n.file)) ?? []).filter(
                (c) => exists(c) && !isDir(c),
              ),
              ...(basenames.get(r.path) ?? []).filter((f) => state?.tracked.has(f)),
            ]
          : [],
      )
      for (const r of refs.get(n) ?? []) {
        if (r.kind !== 'snippet' || seen.has(r.code)) continue
        seen.add(r.code)
        const hits = lineHits.ok
          ? (probes.get(r.code) ?? []).flatMap((p) => lineHits.files.get(p) ?? [])
          : []
        quotes.push({ code: r.code, candidates: [...new Set([...named, ...hits])] })
      }
    }
    snippets = await findQuotes(root, quotes, snippetTexts)
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
    bySuffix: (written) => basenames.get(written) ?? [],
    inAnyCase: (written) => caseless.get(written) ?? [],
    withSuffix: (suffix) => suffixed.get(suffix) ?? [],
    history,
    wordFiles,
    unsearched,
    ...manifests,
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
