/**
 * Codex's side of the load order (docs/memory-rules.md §4): its instruction chain against the project
 * docs byte budget, where a file is cut, and what was dropped.
 */
import type { LoadOrderResult } from '../../shared/model'
import { FileLink, NotLoadedList, fmt } from './load-order-cells'
import { TableHead } from '../common/table-head'

const SEGMENT_COLOURS = 6

export function CodexSection({
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
          <TableHead columns={['File, in order', 'Scope', 'Bytes', 'Included']} />
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
      <NotLoadedList title="Dropped" testId="codex-dropped" items={dropped} cwd={result.cwd} />
    </section>
  )
}
