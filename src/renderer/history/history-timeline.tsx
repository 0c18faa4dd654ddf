/** The writes to one memory file, in time order: who, when, with which tool, from which worktree. */
import {
  byTime,
  formatTime,
  lastSegment,
  sessionHue,
  shortId,
  writeState,
  type WriteRow,
} from './history-format'
import { formatExactTime } from '../common/format'

export function HistoryTimeline({ writes }: { writes: readonly WriteRow[] }) {
  if (writes.length === 0) {
    return (
      <p className="history-none" data-testid="history-no-writes">
        No transcript records a write to this file (transcripts older than the cleanup period are
        deleted).
      </p>
    )
  }
  return (
    <div className="history-scroll">
      <table className="history-timeline" data-testid="history-timeline">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Session</th>
            <th scope="col">Tool</th>
            <th scope="col">Branch</th>
            <th scope="col">Worktree</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {byTime(writes).map((w, i) => {
            const state = writeState(w)
            return (
              <tr
                key={`${w.toolUseId ?? i}-${w.timestamp}`}
                className={`history-write history-write-${state.tone}`}
                data-testid="history-write"
                data-session={w.sessionId}
                data-ok={state.tone === 'failed' ? 'false' : 'true'}
                title={`Transcript: ${w.transcript}`}
              >
                <td className="mono" title={formatExactTime(w.timestamp, w.timestamp)}>
                  {formatTime(w.timestamp)}
                </td>
                <td className="mono">
                  <span
                    className="session-dot"
                    style={{ background: `hsl(${sessionHue(w.sessionId)} 60% 50%)` }}
                    aria-hidden
                  />
                  <span title={w.sessionId}>{shortId(w.sessionId)}</span>
                  {w.agentId ? (
                    <span className="history-agent" title={`sub-agent ${w.agentId}`}>
                      {' '}
                      sub-agent
                    </span>
                  ) : null}
                </td>
                <td>{w.tool}</td>
                <td className="mono" data-testid="history-branch">
                  {w.gitBranch || <span className="muted">no branch</span>}
                </td>
                <td className="mono history-cwd" title={w.cwd}>
                  {w.cwd ? lastSegment(w.cwd) : <span className="muted">unknown</span>}
                </td>
                <td data-testid="history-result">
                  <span className={`history-state ${state.tone}`}>{state.label}</span>
                  {state.detail && <span className="history-reason"> — {state.detail}</span>}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
