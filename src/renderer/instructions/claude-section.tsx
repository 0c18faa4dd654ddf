/**
 * Claude Code's side of the load order (docs/memory-rules.md §3): the start-up files in load order with
 * their import tree and sizes against the advised limits, on-demand files with their triggers,
 * skipped files and warnings.
 */
import { useMemo } from 'react'
import type { LoadOrderResult } from '../../shared/model'
import { INSTRUCTION_ADVISED_MAX_LINES, INSTRUCTION_FLAG_CHARS } from '../../shared/limits'
import { FileLink, Measure, NotLoadedList, fmt, importDepths } from './load-order-cells'
import { TableHead } from '../common/table-head'
import { countOf } from '../common/format'
import { codeTooltip, problemSentence } from '../common/wording'

export function ClaudeSection({
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
              <span className="badge warn" title={codeTooltip(w.code)} data-code={w.code}>
                {problemSentence(w.code)}
              </span>{' '}
              <FileLink path={w.path} cwd={result.cwd} onOpen={onOpen} /> — {w.message}
            </li>
          ))}
        </ul>
      )}
      <h3>
        At session start, in load order{' '}
        <span className="muted">
          ({countOf(startup.length, 'file')}, {fmt(totalChars)} characters)
        </span>
      </h3>
      <table className="instr-table" data-testid="claude-startup">
        <TableHead
          columns={[
            '#',
            'File (imports indented under the file that imports them)',
            'Scope',
            'Lines',
            'Characters',
          ]}
        />
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
          <TableHead columns={['File', 'Scope', 'Loads when']} />
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
      <NotLoadedList title="Not loaded" testId="claude-skipped" items={skipped} cwd={result.cwd} />
    </section>
  )
}
