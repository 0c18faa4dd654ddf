/**
 * Search the memory files of every scanned project (issue 15 item 11): each matching line with
 * its project, file and line, and the verdict of the note it belongs to when an audit of that
 * folder is at hand (audits are never started by a search: on a real memory one takes minutes).
 * Bounded: at most SEARCH_MAX_HITS hits, SEARCH_MAX_FILES files, each read with the usual
 * size limit; everything read is hostile input (safe-read).
 */
import type { AuditNote, ProjectInfo, Problem, ScanResult } from '../../shared/model'
import type { SearchHit, SearchResult } from '../../shared/shell-model'
import {
  isEmptyQuery,
  lineAt,
  matchingLines,
  parseSearchQuery,
  snippetAround,
  type SearchQuery,
} from '../../core/memory/search'
import { parseIndexEntries, resolveIndexTarget } from '../../core/memory/index-entries'
import { join } from 'node:path'

/** Hits returned at most; more sets `truncated`. */
export const SEARCH_MAX_HITS = 200
/** Memory files read at most by one search. */
export const SEARCH_MAX_FILES = 5000
/** Hits from one file at most (a file of 50,000 matching lines must not fill the list alone). */
export const SEARCH_MAX_HITS_PER_FILE = 50

export interface SearchDeps {
  readonly scan: ScanResult
  /** The notes of a memory folder's last audit, or null when none is at hand. */
  readonly notesFor: (memoryDir: string) => readonly AuditNote[] | null
  /** A memory file's text, or a reason it could not be read. */
  readonly read: (path: string) => Promise<{ text: string } | { reason: string }>
  readonly maxHits?: number
}

function projectMatches(p: ProjectInfo, words: readonly string[]): boolean {
  if (words.length === 0) return true
  const index = p.memoryFiles.find((f) => f.role === 'index')
  const fields = [p.name, p.id, ...p.cwds, p.repoRoot ?? '', index?.heading ?? ''].map((s) =>
    s.toLowerCase(),
  )
  return words.every((w) => fields.some((f) => f.includes(w)))
}

/**
 * The note covering `line` of `file`, from an audit's notes. A topic file linked from the index
 * belongs to its index entry's note (`linkedFrom`: topic path → entry line; docs/memory-rules.md §2.6).
 */
function noteAt(
  notes: readonly AuditNote[] | null,
  file: string,
  line: number,
  linkedFrom: ReadonlyMap<string, { index: string; line: number }>,
): AuditNote | null {
  if (!notes) return null
  for (const n of notes) if (n.file === file && n.line <= line && line <= n.endLine) return n
  const entry = linkedFrom.get(file)
  if (entry) for (const n of notes) if (n.file === entry.index && n.line === entry.line) return n
  return null
}

/** Topic files the index links, each with the index entry's line. */
function linkedTopics(
  memoryDir: string,
  indexPath: string,
  indexText: string,
): Map<string, { index: string; line: number }> {
  const out = new Map<string, { index: string; line: number }>()
  for (const e of parseIndexEntries(indexText)) {
    const name = e.target === null ? null : resolveIndexTarget(e.target)
    if (name !== null && !out.has(join(memoryDir, name)))
      out.set(join(memoryDir, name), { index: indexPath, line: e.line })
  }
  return out
}

/** One memory folder per project that has one, and projects sharing a folder once. */
function foldersOf(scan: ScanResult, q: SearchQuery): ProjectInfo[] {
  const seen = new Set<string>()
  const out: ProjectInfo[] = []
  for (const p of scan.projects) {
    if (p.memoryDir === null || seen.has(p.memoryDir) || !projectMatches(p, q.projects)) continue
    seen.add(p.memoryDir)
    out.push(p)
  }
  return out
}

/** Run a search typed in the window. */
export async function searchMemory(raw: string, deps: SearchDeps): Promise<SearchResult> {
  const q = parseSearchQuery(raw)
  const maxHits = deps.maxHits ?? SEARCH_MAX_HITS
  const hits: SearchHit[] = []
  const problems: Problem[] = []
  let truncated = false
  let filesSearched = 0
  const folders = foldersOf(deps.scan, q)
  const withVerdicts = folders.filter((p) => deps.notesFor(p.memoryDir as string) !== null).length
  const result = (): SearchResult => ({
    query: raw,
    hits,
    truncated,
    filesSearched,
    foldersWithVerdicts: withVerdicts,
    folders: folders.length,
    problems,
  })
  if (isEmptyQuery(q)) return result()

  for (const p of folders) {
    const memoryDir = p.memoryDir as string
    const notes = deps.notesFor(memoryDir)
    // A verdict filter can only be met where verdicts are known.
    if (q.verdicts.length > 0 && notes === null) continue
    const wanted = (n: AuditNote | null): boolean =>
      q.verdicts.length === 0 || (n !== null && q.verdicts.includes(n.verdict))
    // The index is read first: it says which note each topic file belongs to.
    const files = [...p.memoryFiles].sort(
      (a, b) => Number(b.role === 'index') - Number(a.role === 'index'),
    )
    let linkedFrom = new Map<string, { index: string; line: number }>()
    for (const f of files) {
      if (filesSearched >= SEARCH_MAX_FILES) {
        truncated = true
        return result()
      }
      filesSearched++
      const got = await deps.read(f.path)
      if ('reason' in got) {
        problems.push({ path: f.path, reason: got.reason })
        continue
      }
      if (f.role === 'index' && notes !== null)
        linkedFrom = linkedTopics(memoryDir, f.path, got.text)
      const add = (line: number, column: number, length: number): boolean => {
        if (hits.length >= maxHits) {
          truncated = true
          return false
        }
        const note = noteAt(notes, f.path, line, linkedFrom)
        const shown = snippetAround(lineAt(got.text, line), column, length)
        hits.push({
          projectId: p.id,
          memoryDir,
          file: f.path,
          line,
          text: shown.text,
          matchStart: shown.start,
          matchLength: length,
          noteTitle: note?.title ?? null,
          verdict: note?.verdict ?? null,
        })
        return true
      }
      if (q.text === '') {
        // Filters only: one hit per note with a wanted verdict, at its first line.
        for (const n of notes ?? []) {
          if (n.file !== f.path || !wanted(n)) continue
          if (!add(n.line, 0, 0)) return result()
        }
        continue
      }
      // One more than the per-file bound, to know that the file had more.
      const matches = matchingLines(got.text, q.text, SEARCH_MAX_HITS_PER_FILE + 1)
      if (matches.length > SEARCH_MAX_HITS_PER_FILE) truncated = true
      for (const m of matches.slice(0, SEARCH_MAX_HITS_PER_FILE)) {
        if (!wanted(noteAt(notes, f.path, m.line, linkedFrom))) continue
        if (!add(m.line, m.column, q.text.length)) return result()
      }
    }
  }
  return result()
}
