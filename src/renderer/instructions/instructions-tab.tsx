/**
 * What Claude Code and Codex load when launched in a directory of this project
 * (memory-facts §3 and §4): Claude's start-up files in load order with their import tree,
 * sizes against the advised limits, on-demand files and their triggers, skipped files and
 * warnings; Codex's chain against its byte budget. Any file opens read-only.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { ClaudeStartupFile, LoadOrderResult, ProjectInfo } from '../../shared/model'
import { INSTRUCTION_ADVISED_MAX_LINES, INSTRUCTION_FLAG_CHARS } from '../../shared/limits'
import type { FileContent } from '../../shared/api'
import { getApi } from '../api/api-client'
import { TextViewer } from '../monaco/text-views'
import '../common/workspace.css'

const fmt = (n: number): string => n.toLocaleString('en')

function isUnderOrSame(p: string, dir: string): boolean {
  const d = dir.replace(/[\\/]+$/, '')
  return p === d || p.startsWith(d + '/') || p.startsWith(d + '\\')
}

/** A path as a person reads it here: relative to the launch directory when inside it. */
function shortPath(p: string, cwd: string): string {
  const d = cwd.replace(/[\\/]+$/, '')
  return p.startsWith(d + '/') ? `./${p.slice(d.length + 1)}` : p
}

/** How deep each start-up file sits in the `@import` tree (0 = loaded in its own right). */
function importDepths(files: readonly ClaudeStartupFile[]): number[] {
  const byPath = new Map(files.map((f) => [f.path, f]))
  return files.map((f) => {
    let depth = 0
    let at: ClaudeStartupFile | undefined = f
    while (at?.importedBy && depth < 16) {
      depth++
      at = byPath.get(at.importedBy)
    }
    return depth
  })
}

function FileLink({
  path,
  cwd,
  onOpen,
  depth = 0,
}: {
  path: string
  cwd: string
  onOpen: (p: string) => void
  depth?: number
}) {
  return (
    <button
      className="link file-link"
      style={{ paddingLeft: depth * 18 }}
      onClick={() => onOpen(path)}
      title={`Open ${path} (read-only)`}
    >
      {depth > 0 && (
        <span className="tree-mark" aria-hidden="true">
          └@{' '}
        </span>
      )}
      {shortPath(path, cwd)}
    </button>
  )
}

function Measure({ value, max, unit }: { value: number; max: number; unit: string }) {
  const over = value > max
  return (
    <span
      className={over ? 'measure over' : 'measure'}
      title={over ? `Over the advised ${fmt(max)} ${unit}` : `Advised at most ${fmt(max)} ${unit}`}
    >
      {fmt(value)}
      <span className="muted"> / {fmt(max)}</span>
      {over && ' ⚠'}
    </span>
  )
}

function ClaudeSection({
  result,
  onOpen,
}: {
  result: LoadOrderResult
  onOpen: (p: string) => void
}) {
  const { startup, onDemand, skipped, warnings } = result.claude
  const depths = useMemo(() => importDepths(startup), [startup])
  const totalChars = startup.reduce((a, f) => a + f.chars, 0)
  return (
    <section className="instr-section" data-testid="claude-load-order">
      <h2>Claude Code</h2>
      {warnings.length > 0 && (
        <ul className="warning-list" data-testid="claude-warnings">
          {warnings.map((w) => (
            <li key={w.path + w.code}>
              <span className="badge warn">{w.code}</span>{' '}
              <FileLink path={w.path} cwd={result.cwd} onOpen={onOpen} /> — {w.message}
            </li>
          ))}
        </ul>
      )}
      <h3>
        At session start, in load order{' '}
        <span className="muted">
          ({startup.length} files, {fmt(totalChars)} characters)
        </span>
      </h3>
      <table className="instr-table" data-testid="claude-startup">
        <thead>
          <tr>
            <th>#</th>
            <th>File (imports indented under the file that imports them)</th>
            <th>Scope</th>
            <th>Lines</th>
            <th>Characters</th>
          </tr>
        </thead>
        <tbody>
          {startup.map((f, i) => (
            <tr key={f.path + i}>
              <td className="muted">{i + 1}</td>
              <td className="path-cell">
                <FileLink path={f.path} cwd={result.cwd} onOpen={onOpen} depth={depths[i]} />
              </td>
              <td>
                <span className={`scope scope-${f.scope}`}>{f.scope}</span>
              </td>
              <td>
                {f.scope === 'memory' ? (
                  fmt(f.lines)
                ) : (
                  <Measure value={f.lines} max={INSTRUCTION_ADVISED_MAX_LINES} unit="lines" />
                )}
              </td>
              <td>
                {f.scope === 'memory' ? (
                  fmt(f.chars)
                ) : (
                  <Measure value={f.chars} max={INSTRUCTION_FLAG_CHARS} unit="characters" />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {startup.length === 0 && (
        <p className="muted">No instruction file loads at start from here.</p>
      )}
      <h3>On demand</h3>
      {onDemand.length === 0 ? (
        <p className="muted small">None.</p>
      ) : (
        <table className="instr-table" data-testid="claude-on-demand">
          <thead>
            <tr>
              <th>File</th>
              <th>Scope</th>
              <th>Loads when</th>
            </tr>
          </thead>
          <tbody>
            {onDemand.map((f) => (
              <tr key={f.path}>
                <td className="path-cell">
                  <FileLink path={f.path} cwd={result.cwd} onOpen={onOpen} />
                </td>
                <td>
                  <span className="scope">{f.scope}</span>
                </td>
                <td className="trigger">{f.trigger}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {skipped.length > 0 && (
        <>
          <h3>Not loaded</h3>
          <ul className="plain-list" data-testid="claude-skipped">
            {skipped.map((s) => (
              <li key={s.path + s.reason}>
                <code title={s.path}>{shortPath(s.path, result.cwd)}</code> — {s.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

const SEGMENT_COLOURS = 6

function CodexSection({
  result,
  onOpen,
}: {
  result: LoadOrderResult
  onOpen: (p: string) => void
}) {
  const { budgetBytes, files, dropped } = result.codex
  const project = files.filter((f) => f.scope === 'project')
  const used = project.reduce((a, f) => a + f.includedBytes, 0)
  return (
    <section className="instr-section" data-testid="codex-load-order">
      <h2>Codex</h2>
      <div className="budget" data-testid="codex-budget">
        <div className="budget-label">
          Project docs budget: <strong>{fmt(used)}</strong> of {fmt(budgetBytes)} bytes used
          {budgetBytes === 0 && ' (project docs are turned off)'}
        </div>
        <div
          className="budget-bar"
          role="img"
          aria-label={`${fmt(used)} of ${fmt(budgetBytes)} bytes`}
        >
          {budgetBytes > 0 &&
            project.map((f, i) => (
              <div
                key={f.path}
                className={`budget-seg seg-${i % SEGMENT_COLOURS}${f.truncated ? ' truncated' : ''}`}
                style={{ width: `${Math.min(100, (f.includedBytes / budgetBytes) * 100)}%` }}
                title={`${f.path}: ${fmt(f.includedBytes)} bytes${f.truncated ? ' (cut here)' : ''}`}
              />
            ))}
        </div>
      </div>
      {files.length === 0 ? (
        <p className="muted">Codex loads no instruction file from here.</p>
      ) : (
        <table className="instr-table" data-testid="codex-files">
          <thead>
            <tr>
              <th>File, in order</th>
              <th>Scope</th>
              <th>Bytes</th>
              <th>Included</th>
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.path}>
                <td className="path-cell">
                  {f.scope === 'project' && (
                    <span
                      className={`swatch seg-${project.indexOf(f) % SEGMENT_COLOURS}`}
                      aria-hidden="true"
                    />
                  )}
                  <FileLink path={f.path} cwd={result.cwd} onOpen={onOpen} />
                </td>
                <td>
                  <span className="scope">
                    {f.scope === 'global' ? 'global (outside the budget)' : f.scope}
                  </span>
                </td>
                <td>{fmt(f.bytes)}</td>
                <td>
                  {fmt(f.includedBytes)}
                  {f.truncated && (
                    <span
                      className="badge danger"
                      title="Cut at the byte budget; the rest of the file never reaches Codex"
                      data-testid="codex-truncated"
                    >
                      truncated
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dropped.length > 0 && (
        <>
          <h3>Dropped</h3>
          <ul className="plain-list" data-testid="codex-dropped">
            {dropped.map((d) => (
              <li key={d.path + d.reason}>
                <code title={d.path}>{shortPath(d.path, result.cwd)}</code> — {d.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
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
                title="Close the file"
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
