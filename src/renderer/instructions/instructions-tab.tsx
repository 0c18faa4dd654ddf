/**
 * What Claude Code and Codex load when launched in a directory of this project
 * (docs/memory-rules.md §3 and §4): Claude's start-up files in load order with their import tree,
 * sizes against the advised limits, on-demand files and their triggers, skipped files and
 * warnings (claude-section.tsx); Codex's chain against its byte budget (codex-section.tsx).
 * Any file opens read-only.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { LoadOrderResult, ProjectInfo } from '../../shared/model'
import type { FileContent } from '../../shared/api'
import { getApi } from '../api/api-client'
import { TextViewer } from '../monaco/text-views'
import { ClaudeSection } from './claude-section'
import { CodexSection } from './codex-section'
import { AgentCheck } from './agent-check'
import { HooksSettings } from '../settings/hooks-settings'
import { useEscape } from '../common/escape'
import './instructions.css'

function isUnderOrSame(p: string, dir: string): boolean {
  const d = dir.replace(/[\\/]+$/, '')
  return p === d || p.startsWith(d + '/') || p.startsWith(d + '\\')
}

export function InstructionsTab({ project }: { project: ProjectInfo }) {
  const choices = useMemo(
    () => [...new Set([...project.cwds, ...(project.repoRoot ? [project.repoRoot] : [])])],
    [project],
  )
  const [cwd, setCwd] = useState<string | null>(choices[0] ?? null)
  const [typed, setTyped] = useState(choices[0] ?? '')
  const [result, setResult] = useState<LoadOrderResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [viewing, setViewing] = useState<FileContent | null>(null)

  const load = useCallback(async (dir: string) => {
    setLoading(true)
    try {
      setResult(await getApi().loadOrder(dir))
      setError(null)
    } catch (err) {
      setResult(null)
      setError(`Launch directory ${dir}: ${(err as Error).message}`)
    } finally {
      setLoading(false)
    }
  }, [])

  useEffect(() => {
    if (cwd) void load(cwd)
    if (!cwd) return
    // Instruction files change too; follow them while shown.
    return getApi().onDidChange(() => void load(cwd))
  }, [cwd, load])

  const submit = () => {
    const dir = typed.trim().replace(/[\\/]+$/, '') || typed.trim()
    if (!choices.some((c) => isUnderOrSame(dir, c))) {
      setError(
        `${dir} is not under this project's launch directories or repository (${choices.join(', ')}).`,
      )
      return
    }
    setCwd(dir)
  }

  // Esc closes the open file, also with the focus inside its editor (issue 15 item 13).
  useEscape(() => setViewing(null), viewing !== null)

  const open = async (path: string) => {
    try {
      setViewing(await getApi().readFile(path))
    } catch (err) {
      setViewing({ ok: false, path, reason: (err as Error).message })
    }
  }

  if (choices.length === 0) {
    return (
      <p className="empty">
        No transcript of this project names its launch directory, so there is nothing to load
        instructions from.
      </p>
    )
  }
  return (
    <div className="instructions" data-testid="instructions">
      <form
        className="instr-controls"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <label>
          Launch directory{' '}
          <select
            value={choices.includes(cwd ?? '') ? (cwd ?? '') : ''}
            onChange={(e) => {
              setCwd(e.target.value)
              setTyped(e.target.value)
            }}
            data-testid="launch-choice"
          >
            {!choices.includes(cwd ?? '') && <option value="">(typed below)</option>}
            {choices.map((c) => (
              <option key={c} value={c}>
                {c}
                {c === project.repoRoot ? ' (repository root)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          or a folder under it{' '}
          <input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="launch-path"
            spellCheck={false}
          />
        </label>
        <button type="submit" title="Show what loads when launched there (Enter)">
          Show
        </button>
        {loading && <span className="muted">Loading…</span>}
      </form>
      {error && (
        <div className="error-bar" role="alert" data-testid="instructions-error">
          {error}
        </div>
      )}
      <div className={viewing ? 'instr-body split' : 'instr-body'}>
        {result && (
          <div className="instr-lists">
            <ClaudeSection result={result} onOpen={(p) => void open(p)} />
            <CodexSection result={result} onOpen={(p) => void open(p)} />
            <AgentCheck cwd={result.cwd} />
            <h2>Claude Code hooks</h2>
            <HooksSettings cwd={result.cwd} />
          </div>
        )}
        {viewing && (
          <div className="instr-viewer" data-testid="instruction-viewer">
            <div className="file-bar">
              <span className="file-path" title={viewing.path}>
                <bdi>{viewing.path}</bdi>
              </span>
              <span className="muted small">read-only</span>
              <span className="spacer" />
              <button
                className="small-button"
                onClick={() => setViewing(null)}
                title="Close the file (Esc)"
              >
                Close
              </button>
            </div>
            {viewing.ok ? (
              <div className="editor-host">
                <TextViewer text={viewing.text} />
              </div>
            ) : (
              <div className="error-bar" role="alert">
                {viewing.path}: {viewing.reason}
              </div>
            )}
          </div>
        )}
      </div>
    </div>
  )
}
