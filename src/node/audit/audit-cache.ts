/**
 * The last audits' repository facts, kept for the window's click on a note (`noteDiffs`)
 * while a watcher says the work tree has not changed.
 *
 * The kept audits live in a BoundedCache (src/node/cache, one identity rule for every cache:
 * here the repository's HEAD and index, RepoState.stamp). The watchers stay in a plain map:
 * they hold open handles, which `#sweep` closes; a bounded cache would drop one unclosed.
 */
import { join, resolve } from 'node:path'
import type { Note } from '../../core/memory/notes'
import type { AuditNote } from '../../shared/model'
import type { Reference } from '../../core/audit/reference'
import { openRepo } from '../git/history'
import type { RepoState } from '../git/history'
import { watchWorkTree, type RepoWatch } from '../git/repo-watch'
import { readTextFile } from '../fs/safe-read'
import { BoundedCache } from '../cache/bounded-cache'
import { MEMORY_INDEX, type Loaded } from './load-notes'
import type { Prepared } from './prepare-notes'

export const cacheKey = (memoryDir: string, repo: string | null): string =>
  `${resolve(memoryDir)}\0${repo === null ? '' : resolve(repo)}`
const noteKey = (n: Note): string => `${n.file}\0${n.line}`

/** A work tree being watched, and the reading taken when an audit opened it. */
export interface Armed {
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

interface KeptResult {
  readonly root: string | null
  readonly texts: ReadonlyMap<string, string>
  readonly byNote: ReadonlyMap<string, { readonly note: Note; readonly audit: AuditNote }>
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
  readonly #kept: BoundedCache<string, Kept>
  readonly #watched = new Map<string, Watched>()
  /** The last audits' results, each note with what its diffs compare (issue 12 item 8). */
  readonly #results: BoundedCache<string, KeptResult>
  /**
   * Clicks answered from kept facts, clicks that had to gather them again, and clicks whose
   * note was taken from the kept audit without reading the memory folder again.
   */
  readonly stats = { reused: 0, gathered: 0, notesKept: 0, readFromResult: 0 }

  /** A click answered from a kept result's diff bases (issue 12 item 8). */
  countRead(): void {
    this.stats.readFromResult++
  }

  constructor(maxEntries = 4) {
    this.#kept = new BoundedCache(maxEntries)
    this.#results = new BoundedCache(maxEntries)
  }

  /** Keep an audit's result: a click on one of its notes reads the diff bases from it. */
  keepResult(key: string, root: string | null, loaded: Loaded, notes: readonly AuditNote[]): void {
    if (!loaded.texts) return
    const byNote = new Map<string, { note: Note; audit: AuditNote }>()
    notes.forEach((audit, i) => {
      const note = loaded.notes[i]
      if (note && note.file === audit.file && note.line === audit.line)
        byNote.set(noteKey(note), { note, audit })
    })
    this.#results.set(key, { root, texts: loaded.texts, byNote })
  }

  /**
   * The audited note at `file:line` and its result, when the files it was read from still hold
   * the text the audit read (else null: the note changed, and is looked at afresh).
   */
  async keptResult(
    key: string,
    file: string,
    line: number,
  ): Promise<{ root: string | null; note: Note; audit: AuditNote } | null> {
    // `get`, not `peek`: a click keeps its audit the most recent. The window's background checks
    // audit one folder after another (project-sidebar.tsx) and would otherwise push out, after
    // four of them, the audit the person is clicking through (issue 16).
    const kept = this.#results.get(key)
    if (!kept) return null
    // Only while the audit's facts still hold (the same HEAD and index, no event in the work
    // tree since): otherwise the click looks again, as with kept facts.
    // The watcher is read after openRepo answered (see `reuse`).
    const facts = this.#kept.get(key)
    const state = facts?.prepared.state
    if (!facts || !state || facts.prepared.facts?.root !== kept.root) return null
    const now = await openRepo(state.root)
    if (!now.ok || now.state.stamp !== facts.armed.stamp || !this.#unchanged(facts.armed))
      return null
    const hit = [...kept.byNote.values()].find(
      (x) => x.note.file === file && x.note.line <= line && line <= x.note.endLine,
    )
    if (!hit || hit.note.danglingTarget !== null) return null
    for (const f of new Set([hit.note.file, ...(hit.note.topicFile ? [hit.note.topicFile] : [])])) {
      const was = kept.texts.get(f)
      if (was === undefined) return null
      const r = await readTextFile(f, { lenient: true })
      if (!r.ok || r.text !== was) return null
    }
    return { root: kept.root, note: hit.note, audit: hit.audit }
  }

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
    this.#kept.set(key, { armed, prepared, audited, loaded, indexPath }, armed.stamp)
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
    // openRepo starts no git while `.git` reads the same (git-dir-stamp.ts). Its reads are
    // asynchronous: by the time they answer, the events of earlier writes have arrived, so
    // the watcher is read after it.
    const now = await openRepo(state.root)
    const still = now.ok ? this.#kept.get(key, now.state.stamp) : undefined
    if (!still || !this.#unchanged(kept.armed)) {
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

  /**
   * Events seen so far in the work tree at `root` (a change token, issue 15 item 7); null when
   * it is not watched now, or its watcher broke: then nothing can be said about it.
   */
  workTreeChanges(root: string): number | null {
    const w = this.#watched.get(root)
    return w && !w.watch.broken ? w.watch.changes : null
  }

  /** Stop every watcher and forget everything. */
  close(): void {
    for (const w of this.#watched.values()) w.watch.close()
    this.#watched.clear()
    this.#kept.clear()
    this.#results.clear()
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
