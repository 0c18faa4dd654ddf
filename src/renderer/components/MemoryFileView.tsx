/**
 * A memory file, read-only in Monaco. For MEMORY.md: the load cutoff exactly where
 * Claude Code puts it (memory-facts §2) — a rule at the first unloaded line, everything
 * below dimmed — with gauges for lines and characters.
 */
import { useEffect, useRef, useState } from 'react'
import Editor, { type OnMount } from '@monaco-editor/react'
import type { CutoffResult } from '../../shared/limits'
import type { FileContent } from '../../shared/api'
import { getApi } from '../api-client'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../shared/limits'
import type { monaco as Monaco } from '../monaco-setup'

type EditorInstance = Parameters<OnMount>[0]

function Gauge({ label, value, max, extra }: { label: string; value: number; max: number; extra?: string }) {
  const pct = Math.min(100, (value / max) * 100)
  return (
    <div className="gauge" aria-label={`${label}: ${value} of ${max}`}>
      <div className="gauge-label">
        {label}: <strong>{value.toLocaleString('en')}</strong> / {max.toLocaleString('en')}
        {extra && <span className="gauge-extra"> {extra}</span>}
      </div>
      <div className="gauge-bar">
        <div className={pct >= 100 ? 'gauge-fill full' : 'gauge-fill'} style={{ width: `${pct}%` }} />
      </div>
    </div>
  )
}

export function MemoryFileView({ path, isIndex }: { path: string; isIndex: boolean }) {
  const [content, setContent] = useState<FileContent | null>(null)
  const [cutoff, setCutoff] = useState<CutoffResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const editorRef = useRef<EditorInstance | null>(null)
  const decorations = useRef<Monaco.editor.IEditorDecorationsCollection | null>(null)
  const zone = useRef<string | null>(null)

  useEffect(() => {
    let live = true
    const api = getApi()
    const load = () => {
      api.readFile(path).then((c) => live && setContent(c), (e: Error) => live && setError(e.message))
      if (isIndex) api.cutoff(path).then((c) => live && setCutoff(c), (e: Error) => live && setError(e.message))
    }
    load()
    const off = api.onDidChange((e) => {
      if (e.paths.length === 0 || e.paths.includes(path)) load()
    })
    return () => {
      live = false
      off()
    }
  }, [path, isIndex])

  const applyCutoff = (editor: EditorInstance, c: CutoffResult | null) => {
    decorations.current?.clear()
    editor.changeViewZones((acc) => {
      if (zone.current) acc.removeZone(zone.current)
      zone.current = null
      if (!c || c.firstUnloadedLine === null) return
      const node = document.createElement('div')
      node.className = 'cutoff-zone'
      node.textContent = `▼ not loaded at session start — cut by the ${c.limitHit ?? 'size'} limit below line ${c.firstUnloadedLine - 1}`
      node.setAttribute('data-testid', 'cutoff-rule')
      zone.current = acc.addZone({ afterLineNumber: c.firstUnloadedLine - 1, heightInLines: 1.4, domNode: node })
    })
    if (!c || c.firstUnloadedLine === null) return
    const model = editor.getModel()
    if (!model) return
    decorations.current = editor.createDecorationsCollection([
      {
        range: { startLineNumber: c.firstUnloadedLine, startColumn: 1, endLineNumber: model.getLineCount(), endColumn: 1 },
        options: { isWholeLine: true, className: 'not-loaded-line', inlineClassName: 'not-loaded-text' },
      },
    ])
  }

  useEffect(() => {
    if (editorRef.current) applyCutoff(editorRef.current, cutoff)
  }, [cutoff, content])

  const unloaded = cutoff ? cutoff.entries.filter((e) => !e.loaded).slice().reverse() : []
  return (
    <div className="memory-file">
      {isIndex && cutoff && (
        <div className="cutoff-summary" data-testid="cutoff-summary">
          <Gauge label="Lines" value={cutoff.loadedLines} max={MEMORY_MAX_LINES} extra={`(file has ${cutoff.totalLines})`} />
          <Gauge label="Characters" value={cutoff.loadedChars} max={MEMORY_MAX_CHARS} extra={`(UTF-16 units; ${cutoff.loadedBytes.toLocaleString('en')} UTF-8 bytes)`} />
          <div className="cutoff-verdict">
            {cutoff.firstUnloadedLine === null
              ? 'Everything in this file loads at session start.'
              : `From line ${cutoff.firstUnloadedLine} on, nothing loads at session start (${cutoff.limitHit} limit). ${unloaded.length} entr${unloaded.length === 1 ? 'y does' : 'ies do'} not load.`}
            {cutoff.firstUnloadedLine !== null && (
              <button
                className="link go-cutoff"
                data-testid="go-cutoff"
                onClick={() => editorRef.current?.revealLineNearTop(Math.max(1, (cutoff.firstUnloadedLine ?? 1) - 3))}
              >
                Show the cutoff
              </button>
            )}
          </div>
          {unloaded.length > 0 && (
            <details className="unloaded">
              <summary>Entries that do not load (newest first)</summary>
              <ul>
                {unloaded.map((e) => (
                  <li key={e.line}>
                    <button className="link" onClick={() => editorRef.current?.revealLineInCenter(e.line)}>
                      line {e.line}
                    </button>{' '}
                    {e.title}
                  </li>
                ))}
              </ul>
            </details>
          )}
          {(cutoff.dangling.length > 0 || cutoff.orphans.length > 0 || cutoff.problems.length > 0) && (
            <details className="index-health" data-testid="index-health">
              <summary>
                {[
                  cutoff.dangling.length && `${cutoff.dangling.length} dangling link${cutoff.dangling.length === 1 ? '' : 's'}`,
                  cutoff.orphans.length && `${cutoff.orphans.length} orphan topic file${cutoff.orphans.length === 1 ? '' : 's'}`,
                  cutoff.problems.length && `${cutoff.problems.length} problem${cutoff.problems.length === 1 ? '' : 's'}`,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </summary>
              <ul className="problems">
                {cutoff.dangling.map((d) => (
                  <li key={`d${d.line}`}>Dangling link on line {d.line}: {d.target} does not exist</li>
                ))}
                {cutoff.orphans.map((o) => (
                  <li key={o}>Orphan topic file (no entry links it): {o}</li>
                ))}
                {cutoff.problems.map((p) => (
                  <li key={p.reason}>
                    {p.path}: {p.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
      {error && <div className="error-bar" role="alert">{error}</div>}
      {content && !content.ok && (
        <div className="error-bar" role="alert" data-testid="file-problem">
          {content.path}: {content.reason}
        </div>
      )}
      {content?.ok && (
        <div className="editor-host" data-testid="memory-editor">
          <Editor
            value={content.text}
            language="markdown"
            theme={window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'vs-dark' : 'vs'}
            options={{ readOnly: true, minimap: { enabled: false }, wordWrap: 'on', scrollBeyondLastLine: false, automaticLayout: true, fontSize: 13 }}
            onMount={(editor) => {
              editorRef.current = editor
              applyCutoff(editor, cutoff)
            }}
          />
        </div>
      )}
    </div>
  )
}
