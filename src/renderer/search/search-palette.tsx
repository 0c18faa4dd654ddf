/**
 * Search across every project's notes and memory files (issue 15 item 11), opened with `/` or
 * Ctrl+K: type text, `verdict:stale` or `project:name`; ↑/↓ pick a result, Enter opens its
 * project at the file and line. The back end searches (searchMemory: bounded, verdicts from the
 * audits already run); this shows what it found.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { ProjectInfo } from '../../shared/model'
import type { SearchHit, SearchResult } from '../../shared/api'
import { getApi } from '../api/api-client'
import { Dialog } from '../common/dialog'
import { countOf, formatNumber } from '../common/format'
import { VERDICT_WORDS } from '../common/wording'
import { baseName } from '../common/operation-words'
import { titleOf } from '../projects/project-title'
import { appStore } from '../state/app-state'
import { useStore } from '../state/store'
import './search.css'

/** Quiet time after the last key before the back end is asked. */
const TYPE_SETTLE_MS = 150

function useSearch(query: string): {
  result: SearchResult | null
  busy: boolean
  error: string | null
} {
  const [result, setResult] = useState<SearchResult | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (query.trim() === '') {
      setResult(null)
      setBusy(false)
      return
    }
    let live = true
    setBusy(true)
    const t = setTimeout(() => {
      getApi()
        .searchMemory(query)
        .then(
          (r) => {
            if (!live) return
            setResult(r)
            setError(null)
          },
          (err: Error) => live && setError(`Search failed: ${err.message}`),
        )
        .finally(() => live && setBusy(false))
    }, TYPE_SETTLE_MS)
    return () => {
      live = false
      clearTimeout(t)
    }
  }, [query])
  return { result, busy, error }
}

/** Lines shown above and below the result's line in the preview. */
const CONTEXT_LINES = 3

/** The lines around the active result, read once per file while the palette is open. */
function usePreview(hit: SearchHit | undefined): {
  readonly lines: readonly { n: number; text: string }[]
  readonly error: string | null
} | null {
  const cache = useRef(new Map<string, Promise<{ text: string } | { reason: string }>>())
  const [shown, setShown] = useState<{
    key: string
    lines: { n: number; text: string }[]
    error: string | null
  } | null>(null)
  const key = hit ? `${hit.file}:${hit.line}` : ''
  useEffect(() => {
    if (!hit) return
    let live = true
    let read = cache.current.get(hit.file)
    if (!read) {
      read = getApi()
        .readFile(hit.file)
        .then(
          (c) => (c.ok ? { text: c.text } : { reason: c.reason }),
          (err: Error) => ({ reason: err.message }),
        )
      cache.current.set(hit.file, read)
    }
    void read.then((r) => {
      if (!live) return
      if ('reason' in r) return setShown({ key, lines: [], error: r.reason })
      const all = r.text.split(/\r?\n/)
      const from = Math.max(1, hit.line - CONTEXT_LINES)
      const to = Math.min(all.length, hit.line + CONTEXT_LINES)
      const lines = []
      for (let n = from; n <= to; n++) lines.push({ n, text: all[n - 1] ?? '' })
      setShown({ key, lines, error: null })
    })
    return () => {
      live = false
    }
  }, [hit, key])
  return shown && shown.key === key ? shown : null
}

function Preview({ hit }: { hit: SearchHit | undefined }) {
  const preview = usePreview(hit)
  if (!hit || !preview) return null
  return (
    <div
      className="search-preview"
      data-testid="search-preview"
      aria-label="Lines around the result"
    >
      {preview.error ? (
        <p className="danger small">
          {hit.file}: {preview.error}
        </p>
      ) : (
        <pre>
          {preview.lines.map((l) => (
            <div key={l.n} className={l.n === hit.line ? 'preview-line hit' : 'preview-line'}>
              <span className="preview-n">{formatNumber(l.n)}</span>
              {l.text}
            </div>
          ))}
        </pre>
      )}
    </div>
  )
}

function Snippet({ hit }: { hit: SearchHit }) {
  if (hit.matchLength === 0) return <span className="search-text">{hit.text}</span>
  const a = hit.matchStart
  const b = a + hit.matchLength
  return (
    <span className="search-text">
      {hit.text.slice(0, a)}
      <mark>{hit.text.slice(a, b)}</mark>
      {hit.text.slice(b)}
    </span>
  )
}

export function SearchPalette({ onClose }: { onClose: () => void }) {
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const { result, busy, error } = useSearch(query)
  const scan = useStore(appStore, (s) => s.scan)
  const list = useRef<HTMLUListElement | null>(null)
  const hits = result?.hits ?? []
  const byId = new Map<string, ProjectInfo>((scan?.projects ?? []).map((p) => [p.id, p]))

  useEffect(() => setActive(0), [result])
  useEffect(() => {
    list.current
      ?.querySelector<HTMLElement>(`[data-index="${active}"]`)
      ?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const open = (hit: SearchHit | undefined): void => {
    if (!hit) return
    appStore.dispatch({ type: 'reveal', projectId: hit.projectId, file: hit.file, line: hit.line })
    onClose()
  }
  const onKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const step = e.key === 'ArrowDown' ? 1 : -1
      setActive((i) => Math.max(0, Math.min(hits.length - 1, i + step)))
    } else if (e.key === 'Enter') {
      e.preventDefault()
      open(hits[active])
    }
  }

  return (
    <Dialog title="Search notes and memory files" onClose={onClose} testId="search-palette">
      <div className="dialog-body search-body">
        <input
          className="search-input"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKey}
          placeholder="Text, verdict:stale, project:name"
          aria-label="Search notes and memory files"
          aria-controls="search-results"
          aria-activedescendant={hits.length > 0 ? `search-hit-${active}` : undefined}
          spellCheck={false}
          data-autofocus=""
          data-testid="search-input"
        />
        {error && (
          <p className="danger" role="alert">
            {error}
          </p>
        )}
        <p className="muted small search-summary" role="status" data-testid="search-summary">
          {query.trim() === ''
            ? 'Searches every memory file of every project. Verdicts show for projects audited since the app started.'
            : busy && !result
              ? 'Searching…'
              : result &&
                `${countOf(result.hits.length, 'result')}${result.truncated ? ' (more not shown: narrow the search)' : ''} in ${countOf(result.filesSearched, 'file')} · verdicts known for ${formatNumber(result.foldersWithVerdicts)} of ${countOf(result.folders, 'memory folder')}`}
        </p>
        <ul
          className="search-results"
          id="search-results"
          role="listbox"
          aria-label="Results"
          ref={list}
          data-testid="search-results"
        >
          {hits.map((h, i) => {
            const project = byId.get(h.projectId)
            return (
              <li
                key={`${h.file}:${h.line}`}
                id={`search-hit-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'search-hit active' : 'search-hit'}
                data-index={i}
                data-testid="search-hit"
                onMouseMove={() => setActive(i)}
                onClick={() => open(h)}
                title={`${h.file}, line ${formatNumber(h.line)}`}
              >
                <span className="search-where">
                  <strong>{project ? titleOf(project) : 'unknown project'}</strong>
                  <span className="muted">
                    {' '}
                    · {baseName(h.file)}:{formatNumber(h.line)}
                  </span>
                  {h.noteTitle && <span className="muted"> · {h.noteTitle}</span>}
                  {h.verdict && (
                    <span
                      className={`badge verdict-${h.verdict}`}
                      title={VERDICT_WORDS[h.verdict].sentence}
                      data-testid="search-verdict"
                    >
                      {VERDICT_WORDS[h.verdict].label}
                    </span>
                  )}
                </span>
                <Snippet hit={h} />
              </li>
            )
          })}
        </ul>
        <Preview hit={hits[active]} />
        {result && hits.length === 0 && !busy && (
          <p className="muted" data-testid="search-empty">
            Nothing found.
          </p>
        )}
      </div>
    </Dialog>
  )
}
