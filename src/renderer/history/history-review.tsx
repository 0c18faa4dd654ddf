/**
 * "Changes since last review": a memory file against the snapshot kept when a person last marked
 * it reviewed, each added line attributed to the session that wrote it (from the transcripts).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ReviewDiff } from '../../shared/api'
import { getApi } from '../api/api-client'
import { formatTime, lastSegment, sessionHue, shortId } from './history-format'
import { countOf, formatNumber } from '../common/format'
import { TextDiff, type DiffOnMount } from '../monaco/text-views'
import { ProblemList } from '../common/problem-list'

type DiffInstance = Parameters<DiffOnMount>[0]
type Decorations = ReturnType<
  ReturnType<DiffInstance['getModifiedEditor']>['createDecorationsCollection']
>

export function HistoryReview({
  memoryDir,
  file,
  refreshKey,
}: {
  memoryDir: string
  file: string
  refreshKey: number
}) {
  const [diff, setDiff] = useState<ReviewDiff | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<{ text: string; hash: string } | null>(null)
  const editorRef = useRef<DiffInstance | null>(null)
  const decorations = useRef<Decorations | null>(null)
  const live = useRef(true)

  const load = useCallback(() => {
    getApi()
      .reviewDiff(memoryDir, file)
      .then(
        (d) => {
          if (!live.current) return
          setDiff(d)
          setError(null)
        },
        (e: Error) => live.current && setError(`${file}: ${e.message}`),
      )
  }, [memoryDir, file])

  useEffect(() => {
    live.current = true
    load()
    const off = getApi().onDidChange((e) => {
      if (e.paths.length === 0 || e.paths.includes(file)) load()
    })
    return () => {
      live.current = false
      off()
    }
  }, [load, file, refreshKey])

  const markReviewed = useCallback(async () => {
    const hash = diff?.current?.hash
    if (!hash || busy) return
    setBusy(true)
    setNotice(null)
    try {
      const r = await getApi().markReviewed(file, hash)
      setNotice({ text: `Marked reviewed at ${formatTime(r.at)}.`, hash: r.hash })
      setError(null)
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
      load()
    }
  }, [diff, busy, file, load])

  // Alt+M marks the shown version reviewed, from anywhere in the History tab.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.altKey &&
        !e.ctrlKey &&
        !e.metaKey &&
        (e.key === 'm' || e.key === 'M' || e.code === 'KeyM')
      ) {
        e.preventDefault()
        void markReviewed()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [markReviewed])

  const applyDecorations = useCallback((editor: DiffInstance | null, d: ReviewDiff | null) => {
    decorations.current?.clear()
    if (!editor || !d) return
    const modified = editor.getModifiedEditor()
    decorations.current = modified.createDecorationsCollection(
      d.attributions.map((a) => ({
        range: { startLineNumber: a.line, startColumn: 1, endLineNumber: a.line, endColumn: 1 },
        options: {
          isWholeLine: true,
          linesDecorationsClassName: a.sessionId
            ? 'history-line-mark'
            : 'history-line-mark unknown',
          hoverMessage: {
            value: a.sessionId
              ? `Written by session \`${a.sessionId}\` on branch \`${a.gitBranch || 'none'}\` in \`${a.cwd ?? '?'}\` at ${a.timestamp ?? '?'}`
              : 'No transcript records writing this line (typed by hand, or its transcript was cleaned up)',
          },
        },
      })),
    )
  }, [])

  useEffect(() => applyDecorations(editorRef.current, diff), [diff, applyDecorations])

  const unchanged = diff?.snapshot && diff.current && diff.snapshot.hash === diff.current.hash
  return (
    <div className="history-review" data-testid="history-review">
      <div className="history-review-bar">
        <span className="history-review-status" data-testid="review-status">
          {!diff
            ? 'Loading…'
            : !diff.snapshot
              ? 'Never reviewed: every line is shown as new.'
              : unchanged
                ? `No change since you marked it reviewed at ${formatTime(diff.snapshot.at)}.`
                : `Last marked reviewed at ${formatTime(diff.snapshot.at)}; ${countOf(diff.attributions.length, 'line')} added since.`}
        </span>
        <button
          className="history-button primary"
          data-testid="mark-reviewed"
          disabled={!diff?.current || busy || Boolean(unchanged)}
          onClick={() => void markReviewed()}
          title="Keep this version as reviewed; later changes show against it (Alt+M)"
        >
          {busy ? 'Marking…' : 'Mark reviewed'}
        </button>
      </div>
      {notice && notice.hash === diff?.current?.hash && (
        <div className="history-outcome ok" role="status" data-testid="review-notice">
          {notice.text}
        </div>
      )}
      {error && (
        <div className="history-outcome failed" role="alert" data-testid="review-error">
          {error}
        </div>
      )}
      {diff && <ProblemList problems={diff.problems} testId="review-problems" />}
      {diff?.current && (
        <div className="history-review-body">
          <div className="history-diff" data-testid="review-diff">
            <TextDiff
              original={diff.snapshot?.text ?? ''}
              modified={diff.current.text}
              hideUnchanged={false}
              onMount={(editor) => {
                editorRef.current = editor
                applyDecorations(editor, diff)
              }}
            />
          </div>
          <aside className="history-attributions" aria-label="Who wrote the added lines">
            <h4>Added lines</h4>
            {diff.attributions.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ul data-testid="review-attributions">
                {diff.attributions.map((a) => (
                  <li
                    key={a.line}
                    data-testid="review-attribution"
                    data-session={a.sessionId ?? ''}
                  >
                    <button
                      className="link"
                      onClick={() =>
                        editorRef.current?.getModifiedEditor().revealLineInCenter(a.line)
                      }
                      title={`Show line ${formatNumber(a.line)}`}
                    >
                      line {a.line}
                    </button>{' '}
                    {a.sessionId ? (
                      <>
                        <span title={a.sessionId}>
                          <span
                            className="session-dot"
                            style={{ background: `hsl(${sessionHue(a.sessionId)} 60% 50%)` }}
                            aria-hidden
                          />
                          <span className="mono">{shortId(a.sessionId)}</span>
                        </span>
                        <span className="mono history-branch-chip">
                          {a.gitBranch || 'no branch'}
                        </span>
                        <div className="history-attr-where" title={a.cwd ?? undefined}>
                          {a.cwd ? lastSegment(a.cwd) : '?'}
                          {a.timestamp ? ` · ${formatTime(a.timestamp)}` : ''}
                        </div>
                      </>
                    ) : (
                      <span className="muted">no transcript records it</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </aside>
        </div>
      )}
    </div>
  )
}
