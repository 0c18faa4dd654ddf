/**
 * What each reference of a note looked like when the note was written, beside what it is
 * now (or a quoted snippet beside its best match): one tab per reference, Monaco's diff editor.
 */
import { useEffect, useState } from 'react'
import { firstDiffTab } from './notes-state'
import { revealLine } from './notes-format'
import type { AuditNote } from '../../shared/model'
import type { NoteDiff } from '../../shared/api'
import { getApi } from '../api/api-client'
import { REFERENCE_SENTENCES, REFERENCE_WORDS, codeTooltip } from '../common/wording'
import { TextDiff } from '../monaco/text-views'
import { prewarmDiffs } from '../monaco/monaco-setup'
import { diffDrawn, diffRequested } from './diff-first'
import './note-diffs.css'

const LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  jsx: 'javascript',
  json: 'json',
  md: 'markdown',
  sh: 'shell',
  py: 'python',
  css: 'css',
  html: 'html',
  yml: 'yaml',
  yaml: 'yaml',
}

/** Warm the diff view for the languages above (monaco-setup.ts). */
export function prewarmNoteDiffs(): void {
  prewarmDiffs([...new Set(Object.values(LANGUAGES))])
}

/** Colouring for a side, guessed from the file name in its label ("src/a.ts @ 1a2b3c4 (…)"). */
function languageOf(label: string | undefined): string {
  const m = /\.([a-z0-9]+)\b/i.exec(label?.split(/[ :@]/)[0] ?? '')
  return (m && LANGUAGES[m[1].toLowerCase()]) || 'plaintext'
}

/** A read-only side-by-side diff with a label over each side. */
export function LabelledDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
  language,
  testId,
  onDrawn,
  reveal,
}: {
  before: string
  after: string
  beforeLabel: string
  afterLabel: string
  language?: string
  testId?: string
  /** Called once the diff is computed and drawn. */
  onDrawn?: () => void
  /** A line to show in the middle once drawn (where a name lost its lines, or is held). */
  reveal?: { side: 'before' | 'after'; line: number }
}) {
  return (
    <div className="note-diff" data-testid={testId}>
      <div className="note-diff-labels">
        <span data-testid="diff-before-label" title={beforeLabel}>
          {beforeLabel}
        </span>
        <span data-testid="diff-after-label" title={afterLabel}>
          {afterLabel}
        </span>
      </div>
      <div className="note-diff-editor">
        <TextDiff
          original={before}
          modified={after}
          language={language ?? 'plaintext'}
          hideUnchanged={false}
          overviewRuler={false}
          fontSize={12}
          onMount={
            onDrawn || reveal !== undefined
              ? (editor) => {
                  const sub = editor.onDidUpdateDiff(() => {
                    sub.dispose()
                    if (reveal !== undefined)
                      (reveal.side === 'before'
                        ? editor.getOriginalEditor()
                        : editor.getModifiedEditor()
                      ).revealLineInCenter(reveal.line)
                    onDrawn?.()
                  })
                }
              : undefined
          }
        />
      </div>
    </div>
  )
}

export function NoteDiffs({
  note,
  memoryDir,
  repoRoot,
}: {
  note: AuditNote
  memoryDir: string
  repoRoot: string | null
}) {
  const [diffs, setDiffs] = useState<NoteDiff[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [tab, setTab] = useState(0)

  useEffect(() => {
    let live = true
    setDiffs(null)
    setError(null)
    setTab(0)
    // The date the audit found in the transcripts saves reading them again (api-contract.ts).
    const known = note.writtenAtSource === 'transcript' ? note.writtenAt : null
    const request = getApi().noteDiffs(memoryDir, repoRoot, note.file, note.line, known)
    // Shown in a diff editor when the first tab shown has a side (as rendered below).
    diffRequested(request, (d) => {
      const first = d[Math.min(firstDiffTab(d), d.length - 1)]
      return !!first && (first.before !== null || first.after !== null)
    })
    request.then(
      (d) => {
        if (!live) return
        setDiffs(d)
        setTab(firstDiffTab(d))
      },
      (e: Error) =>
        live && setError(`Cannot compare ${note.file}:${note.line} with the code: ${e.message}`),
    )
    return () => {
      live = false
    }
  }, [
    memoryDir,
    repoRoot,
    note.file,
    note.line,
    note.verdict,
    note.writtenAt,
    note.writtenAtSource,
  ])

  if (error)
    return (
      <div className="error-bar" role="alert">
        {error}
      </div>
    )
  if (!diffs) return <p className="empty">Comparing with the code…</p>
  if (diffs.length === 0)
    return (
      <p className="empty" data-testid="no-diffs">
        Nothing to compare: this note names no path, symbol, command or quoted code.
        {note.verdict === 'suspect' || note.verdict === 'stale'
          ? ' The reasons above name where the code now says otherwise.'
          : ''}
      </p>
    )
  const d = diffs[Math.min(tab, diffs.length - 1)]
  return (
    <div className="note-diffs" data-testid="note-diffs">
      <div className="note-diff-tabs" role="tablist" aria-label="References of this note">
        {diffs.map((x, i) => (
          <button
            key={`${x.reference.kind}:${x.reference.text}:${i}`}
            role="tab"
            aria-selected={i === tab}
            className={i === tab ? 'tab active' : 'tab'}
            onClick={() => setTab(i)}
            data-testid="diff-tab"
            title={`${x.reference.kind}: ${x.reference.text} — ${REFERENCE_SENTENCES[x.reference.status]}\n(${codeTooltip(x.reference.status)})`}
          >
            <span className={`ref-status ref-${x.reference.status}`}>
              {REFERENCE_WORDS[x.reference.status]}
            </span>{' '}
            {x.reference.text}
          </button>
        ))}
      </div>
      <div className="note-diff-summary" data-testid="diff-summary">
        {d.summary}
      </div>
      {d.before || d.after ? (
        <LabelledDiff
          key={tab}
          testId="note-diff"
          onDrawn={diffDrawn}
          before={d.before?.text ?? ''}
          after={d.after?.text ?? ''}
          reveal={revealLine(d)}
          beforeLabel={d.before?.label ?? '(nothing then)'}
          afterLabel={d.after?.label ?? '(nothing now)'}
          language={languageOf(d.after?.label ?? d.before?.label)}
        />
      ) : (
        <p className="empty">No text to show for this reference.</p>
      )}
    </div>
  )
}
