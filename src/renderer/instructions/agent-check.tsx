/**
 * "Check with the installed agent" (issue 13 item 4): where `claude` or `codex` is on PATH, a
 * button per agent runs it once on a temporary copy of what loads in the launch directory and
 * shows what it sent next to our model, differences highlighted. Opt-in per click, with a
 * plain note of what will run; the real Claude and Codex homes are never handed over.
 */
import { useEffect, useState } from 'react'
import type { AgentCheckResult, AgentName, InstalledAgent } from '../../shared/model'
import { getApi } from '../api/api-client'
import { ErrorBar } from '../common/error-bar'
import { countOf, formatNumber } from '../common/format'
import { AGENT_ROW_WORDS } from '../common/wording'

const STATUS_TEXT = AGENT_ROW_WORDS

export function AgentCheck({ cwd }: { cwd: string }) {
  const [installed, setInstalled] = useState<readonly InstalledAgent[] | null>(null)
  const [running, setRunning] = useState<AgentName | null>(null)
  const [result, setResult] = useState<AgentCheckResult | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    getApi()
      .installedAgents()
      .then((a) => live && setInstalled(a))
      .catch(() => live && setInstalled([]))
    return () => {
      live = false
    }
  }, [])
  useEffect(() => {
    setResult(null)
    setError(null)
  }, [cwd])

  if (!installed || installed.length === 0) return null
  const run = async (agent: AgentName) => {
    setRunning(agent)
    setError(null)
    setResult(null)
    try {
      setResult(await getApi().checkWithAgent(agent, cwd))
    } catch (err) {
      setError(`${agent} in ${cwd}: ${(err as Error).message}`)
    } finally {
      setRunning(null)
    }
  }
  const differences = result ? result.rows.filter((r) => r.status !== 'same').length : 0
  const memoryDiffers = result?.memory ? result.memory.agentLines !== result.memory.ourLines : false
  return (
    <section className="agent-check" data-testid="agent-check">
      <h3>Check with the installed agent</h3>
      <p className="muted small">
        Runs your installed agent once (<code>claude -p hi</code> or{' '}
        <code>codex exec --skip-git-repo-check hi</code>) in a temporary copy of the instruction
        files, memory folder and memory settings of this launch directory, with a stand-in model
        server on 127.0.0.1. No credentials are read, hooks and other settings are not copied, and
        your Claude and Codex homes are not touched.
      </p>
      <div className="agent-check-buttons">
        {installed.map((a) => (
          <button
            key={a.agent}
            onClick={() => void run(a.agent)}
            disabled={running !== null}
            title={`Runs ${a.path}`}
            data-testid={`agent-check-${a.agent}`}
          >
            {running === a.agent ? `Running ${a.agent}…` : `Check with ${a.agent}`}
          </button>
        ))}
      </div>
      <ErrorBar message={error} />
      {result && (
        <div className="agent-check-result" data-testid="agent-check-result">
          <p>
            <strong>{result.version || result.agent}</strong> ({result.binary}) on{' '}
            {countOf(result.copiedFiles, 'copied file')}:{' '}
            {!result.ok
              ? 'the agent sent nothing.'
              : differences === 0 && !memoryDiffers
                ? 'it loads exactly what the app shows.'
                : `${countOf(differences + (memoryDiffers ? 1 : 0), 'difference')}.`}
          </p>
          {result.error && <div className="error-bar">{result.error}</div>}
          {result.rows.length > 0 && (
            <table className="agent-check-table">
              <thead>
                <tr>
                  <th>File</th>
                  <th>Agent</th>
                  <th>App</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr
                    key={r.path}
                    className={r.status === 'same' ? '' : 'differs'}
                    data-status={r.status}
                  >
                    <td>
                      <bdi>{r.path}</bdi>
                    </td>
                    <td>{r.agent === null ? '—' : formatNumber(r.agent)}</td>
                    <td>{r.ours === null ? '—' : formatNumber(r.ours)}</td>
                    <td>
                      {STATUS_TEXT[r.status]}
                      {r.detail ? ` (${r.detail})` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {result.memory && (
            <p className={memoryDiffers ? 'differs' : ''} data-testid="agent-check-memory">
              MEMORY.md: the agent received {countOf(result.memory.agentLines, 'line')}, the app
              says {formatNumber(result.memory.ourLines)} load.
            </p>
          )}
        </div>
      )}
    </section>
  )
}
