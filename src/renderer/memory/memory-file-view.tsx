/**
 * A memory file in Monaco. For MEMORY.md: the load cutoff exactly where Claude Code puts
 * it (docs/memory-rules.md §2.1) — a rule at the first unloaded line, everything below dimmed — under
 * the load summary (cutoff-summary.tsx).
 * The view follows the disk while shown; an edit in progress is never overwritten: when the
 * file changes underneath it, both versions are shown and the person chooses (compare-dialog.tsx).
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react'
import Editor, { type OnMount } from '@monaco-editor/react'
import type { CutoffResult } from '../../shared/model'
import type { FileContent } from '../../shared/api'
import { getApi } from '../api/api-client'
import type { monaco as Monaco } from '../monaco/monaco-setup'
import { VIEWER_OPTIONS, useMonacoTheme } from '../monaco/text-views'
import { CutoffSummary } from './cutoff-summary'
import { useMonacoReady } from '../monaco/monaco-ready'
import { CompareDialog } from './compare-dialog'
import type { PlanAction } from './plan-dialog'
import { ErrorBar } from '../common/error-bar'
import { formatBytes, formatNumber } from '../common/format'
import { limitWords, problemText } from '../common/wording'

type EditorInstance = Parameters<OnMount>[0]
type Loaded = Extract<FileContent, { ok: true }>

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p

export function MemoryFileView({
  path,
  isIndex,
  cutoff,
  reveal,
  refresh,
  onPlan,
  onFit,
}: {
  path: string
  isIndex: boolean
  cutoff: CutoffResult | null
  reveal: { line: number; nonce: number } | null
  refresh: number
  onPlan: (action: PlanAction) => void
  onFit?: () => void
}) {
  const [content, setContent] = useState<FileContent | null>(null)
  const editorReady = useMonacoReady()
  const [error, setError] = useState<string | null>(null)
  /** The edit in progress and the disk version it started from (what a save must still find). */
  const [draft, setDraft] = useState<string | null>(null)
  const [base, setBase] = useState<Loaded | null>(null)
  /** A newer disk version that arrived while editing (or that refused a save). */
  const [diskChanged, setDiskChanged] = useState<Loaded | null>(null)
  const [comparing, setComparing] = useState(false)
  const [status, setStatus] = useState<{ text: string; bad: boolean } | null>(null)
  const theme = useMonacoTheme()
  const editorRef = useRef<EditorInstance | null>(null)
  const decorations = useRef<Monaco.editor.IEditorDecorationsCollection | null>(null)
  const highlight = useRef<Monaco.editor.IEditorDecorationsCollection | null>(null)
  /** A line asked for before the text holding it arrived (a line appended on disk): see below. */
  const pendingReveal = useRef<{ line: number; top: boolean } | null>(null)
  const zone = useRef<string | null>(null)
  const editState = useRef<{ draft: string | null; base: Loaded | null }>({
    draft: null,
    base: null,
  })
  editState.current = { draft, base }

  const load = useCallback(() => {
    getApi()
      .readFile(path)
      .then(
        (c) => {
          setError(null)
          const { draft: d, base: b } = editState.current
          if (d === null) setContent(c)
          else if (c.ok && b && c.hash !== b.hash) setDiskChanged(c)
          else if (!c.ok)
            setStatus({
              text: `${c.path}: ${problemText(c.reason)} — your edit is kept here.`,
              bad: true,
            })
        },
        (e: Error) => setError(`${path}: ${e.message}`),
      )
  }, [path])

  useEffect(() => {
    load()
    return getApi().onDidChange((e) => {
      if (e.paths.length === 0 || e.paths.includes(path)) load()
    })
  }, [load, path, refresh])

  const applyCutoff = (editor: EditorInstance, c: CutoffResult | null) => {
    decorations.current?.clear()
    editor.changeViewZones((acc) => {
      if (zone.current) acc.removeZone(zone.current)
      zone.current = null
      if (!c || c.firstUnloadedLine === null) return
      const node = document.createElement('div')
      node.className = 'cutoff-zone'
      node.textContent = `▼ not loaded at session start — cut by ${limitWords(c.limitHit)} below line ${formatNumber(c.firstUnloadedLine - 1)}`
      node.setAttribute('data-testid', 'cutoff-rule')
      zone.current = acc.addZone({
        afterLineNumber: c.firstUnloadedLine - 1,
        heightInLines: 1.4,
        domNode: node,
      })
    })
    if (!c || c.firstUnloadedLine === null) return
    const model = editor.getModel()
    if (!model) return
    decorations.current = editor.createDecorationsCollection([
      {
        range: {
          startLineNumber: c.firstUnloadedLine,
          startColumn: 1,
          endLineNumber: model.getLineCount(),
          endColumn: 1,
        },
        options: {
          isWholeLine: true,
          className: 'not-loaded-line',
          inlineClassName: 'not-loaded-text',
        },
      },
    ])
  }

  // The cutoff describes the file on disk: shown only while the editor shows the disk version
  // and the cutoff was computed from that same text.
  const cutoffShown =
    isIndex && draft === null && content?.ok && cutoff && cutoff.totalBytes === content.bytes
      ? cutoff
      : null
  // The editor may mount after the cutoff arrived (Monaco loads lazily, issue 7): onMount reads
  // the latest cutoff through this ref, not the one of the render that created the editor.
  const cutoffRef = useRef(cutoffShown)
  cutoffRef.current = cutoffShown
  useEffect(() => {
    if (editorRef.current) applyCutoff(editorRef.current, cutoffShown)
  }, [cutoffShown, content])

  const revealLine = useCallback((line: number, top = false) => {
    const editor = editorRef.current
    if (!editor) return
    // The cutoff can list a line the editor's text does not have yet (the file grew on disk and
    // the two reads came back in that order): reveal it again once the text has it.
    const lines = editor.getModel()?.getLineCount() ?? 0
    pendingReveal.current = line > lines ? { line, top } : null
    if (top) editor.revealLineNearTop(line)
    else editor.revealLineInCenter(line)
    highlight.current?.clear()
    highlight.current = editor.createDecorationsCollection([
      {
        range: { startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: 1 },
        options: { isWholeLine: true, className: 'revealed-line' },
      },
    ])
  }, [])
  useEffect(() => {
    if (reveal) revealLine(reveal.line)
  }, [reveal, revealLine])
  useEffect(() => {
    const pending = pendingReveal.current
    if (pending && (editorRef.current?.getModel()?.getLineCount() ?? 0) >= pending.line)
      revealLine(pending.line, pending.top)
  }, [content, revealLine])

  const startEdit = () => {
    if (!content?.ok) return
    setBase(content)
    setDraft(content.text)
    setStatus(null)
    setTimeout(() => editorRef.current?.focus(), 0)
  }
  const discard = () => {
    setDraft(null)
    setBase(null)
    setDiskChanged(null)
    setComparing(false)
    load()
  }
  const takeDisk = () => {
    if (diskChanged) setContent(diskChanged)
    setDraft(null)
    setBase(null)
    setDiskChanged(null)
    setComparing(false)
    setStatus({ text: 'Your edit was dropped; showing the file as it is on disk.', bad: false })
  }
  const keepMine = () => {
    // The person has seen the disk version: saving may now replace it.
    if (diskChanged) setBase(diskChanged)
    setDiskChanged(null)
    setComparing(false)
    setStatus({
      text: 'Keeping your edit. Saving will replace the version on disk (undo is in the history).',
      bad: false,
    })
  }
  const save = async () => {
    if (draft === null || !base) return
    if (diskChanged) {
      setComparing(true)
      return
    }
    try {
      const out = await getApi().writeFile(
        path,
        base.hash,
        draft,
        `Edited ${baseName(path)} by hand`,
      )
      if (out.kind === 'written') {
        setDraft(null)
        setBase(null)
        setStatus({ text: `Saved ${out.path}.`, bad: false })
        load()
      } else if (out.kind === 'conflict') {
        setDiskChanged({
          ok: true,
          path,
          text: out.currentText ?? '',
          hash: out.currentHash ?? '',
          bytes: 0,
        })
        setComparing(true)
        setStatus({
          text: `${out.path} changed on disk since you started editing; nothing was written. Compare both versions and choose.`,
          bad: true,
        })
      } else if (out.kind === 'error') {
        setStatus({ text: `${out.path}: ${problemText(out.reason)}`, bad: true })
      }
    } catch (err) {
      setStatus({ text: `${path}: ${(err as Error).message}`, bad: true })
    }
  }

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's' && draft !== null) {
      e.preventDefault()
      void save()
    }
  }

  const editing = draft !== null
  return (
    <div className="memory-file" onKeyDown={onKey}>
      {isIndex && cutoff && (
        <CutoffSummary
          cutoff={cutoff}
          editing={editing}
          onReveal={revealLine}
          onPlan={onPlan}
          onFit={onFit}
        />
      )}
      <div className="file-bar">
        <span className="file-path" title={path}>
          <bdi>{path}</bdi>
        </span>
        {content?.ok && <span className="muted small">{formatBytes(content.bytes)}</span>}
        {editing && <span className="badge warn">editing — not saved</span>}
        <span className="spacer" />
        {!editing && content?.ok && (
          <button
            className="small-button"
            onClick={startEdit}
            data-testid="edit-file"
            title="Edit this file here (saved through the safe write path, with undo)"
          >
            Edit
          </button>
        )}
        {editing && (
          <>
            <button
              className="small-button"
              onClick={discard}
              title="Drop your edit and show the file on disk"
              data-testid="discard-edit"
            >
              Discard edit
            </button>
            <button
              className="small-button primary"
              onClick={() => void save()}
              title="Save (Ctrl+S)"
              data-testid="save-file"
            >
              Save
            </button>
          </>
        )}
      </div>
      {diskChanged && !comparing && (
        <div className="conflict-bar" role="alert" data-testid="disk-changed">
          {baseName(path)} changed on disk while you were editing. Your edit is kept.
          <button
            className="small-button"
            onClick={() => setComparing(true)}
            data-testid="compare-versions"
          >
            Compare both versions
          </button>
          <button className="small-button" onClick={keepMine}>
            Keep my edit
          </button>
          <button className="small-button" onClick={takeDisk}>
            Take the disk version
          </button>
        </div>
      )}
      {status && (
        <div
          className={status.bad ? 'error-bar' : 'ok-bar'}
          role="status"
          data-testid="file-status"
        >
          {status.text}
        </div>
      )}
      <ErrorBar message={error} />
      {content && !content.ok && (
        <div className="error-bar" role="alert" data-testid="file-problem">
          {content.path}: {problemText(content.reason)}
        </div>
      )}
      {content?.ok && !editorReady && (
        <div className="editor-host empty" data-testid="memory-editor-loading">
          Loading the editor…
        </div>
      )}
      {content?.ok && editorReady && (
        <div className="editor-host" data-testid="memory-editor">
          {/* Uncontrolled while editing (issue 14): a controlled value re-applied after a render
              replaced the whole model with a draft one keystroke old, and the newest typed
              character was lost on a busy machine. The model is the draft; onChange mirrors it. */}
          <Editor
            value={editing ? undefined : content.text}
            language="markdown"
            theme={theme}
            options={{ ...VIEWER_OPTIONS, readOnly: !editing }}
            onChange={(v) => editing && setDraft(v ?? '')}
            onMount={(editor) => {
              editorRef.current = editor
              applyCutoff(editor, cutoffRef.current)
              if (reveal) revealLine(reveal.line)
            }}
          />
        </div>
      )}
      {comparing && diskChanged && draft !== null && (
        <CompareDialog
          name={baseName(path)}
          diskText={diskChanged.text}
          draft={draft}
          onClose={() => setComparing(false)}
          onTakeDisk={takeDisk}
          onKeepMine={keepMine}
        />
      )}
    </div>
  )
}
