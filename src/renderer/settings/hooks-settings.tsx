/**
 * Claude Code hooks (issue 18 item 2): whether our SessionStart hook is in the user's and the
 * project's settings, and adding or removing it — the change is shown as a diff first and
 * written only on "Apply" (the back end plans it again and writes through the safe path, with
 * a backup and an undo entry). Self-contained: mounted in the settings panel.
 */
import { useCallback, useEffect, useState } from 'react'
import type { HookScope, HookSettingsPlan, HookSettingsState, HooksStatus } from '../../shared/api'
import { getApi } from '../api/api-client'

type Busy = { scope: HookScope; what: 'plan' | 'apply' } | null

const ROW = {
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'baseline',
  gap: 8,
  margin: '6px 0',
} as const

const SCOPE_WORDS: Record<HookScope, string> = {
  user: 'For every project (your settings)',
  project: "For this project (the repository's shared settings)",
}

function DiffView({ diff }: { diff: string }) {
  // The patch's first four lines are its header (Index, ===, ---, +++).
  const lines = diff.split('\n').slice(4)
  return (
    <pre className="hook-diff" data-testid="hook-diff" style={{ overflow: 'auto', maxHeight: 260 }}>
      {lines.map((l, i) => (
        <div
          key={i}
          className={l.startsWith('+') ? 'ok' : l.startsWith('-') ? 'danger' : undefined}
        >
          {l || ' '}
        </div>
      ))}
    </pre>
  )
}

export function HooksSettings({ cwd }: { cwd: string | null }) {
  const [status, setStatus] = useState<HooksStatus | null>(null)
  const [plan, setPlan] = useState<HookSettingsPlan | null>(null)
  const [busy, setBusy] = useState<Busy>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      setStatus(await getApi().hooksStatus(cwd))
    } catch (err) {
      setError((err as Error).message)
    }
  }, [cwd])
  useEffect(() => {
    void load()
  }, [load])

  const propose = async (s: HookSettingsState) => {
    setBusy({ scope: s.scope, what: 'plan' })
    setMessage(null)
    setError(null)
    try {
      const p = await getApi().planHookInstall(s.scope, s.installed ? 'uninstall' : 'install', cwd)
      if (p.problem) setError(p.problem)
      else if (!p.changed) setMessage(`${p.path} already is as asked; nothing to change.`)
      else setPlan(p)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(null)
    }
  }

  const apply = async (p: HookSettingsPlan) => {
    setBusy({ scope: p.scope, what: 'apply' })
    try {
      const r = await getApi().applyHookInstall(
        p.scope,
        p.action,
        cwd,
        p.expectedHash,
        p.afterHash ?? '',
      )
      if (r.kind === 'written') {
        setMessage(
          `${p.action === 'install' ? 'Hook added to' : 'Hook removed from'} ${r.path}. The previous version is backed up; Undo history can put it back.`,
        )
        setPlan(null)
      } else if (r.kind === 'conflict')
        setError(`${r.path} changed since the diff was made; nothing was written. Look again.`)
      else setError(r.kind === 'error' ? `${r.path}: ${r.reason}` : `${r.path}: not written`)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(null)
      void load()
    }
  }

  const rows = status ? [status.user, ...(status.project ? [status.project] : [])] : []
  return (
    <section className="hooks-settings" data-testid="hooks-settings">
      <p className="note">
        A SessionStart hook tells each new Claude Code session when its MEMORY.md is past the load
        cutoff, or when the last audit found notes that no longer match the code. It runs{' '}
        <code>{status?.command ?? '…'}</code>.
      </p>
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      {message && (
        <p className="note" role="status">
          {message}
        </p>
      )}
      {rows.map((s) => (
        <div key={s.scope} style={ROW} data-testid={`hook-${s.scope}`}>
          <span style={{ minWidth: 300 }}>{SCOPE_WORDS[s.scope]}</span>
          <code className="small" title={s.path} style={{ overflowWrap: 'anywhere' }}>
            {s.path}
          </code>
          <span className={s.installed ? 'ok' : 'muted'}>
            {s.problem ? '' : s.installed ? 'installed' : 'not installed'}
          </span>
          {s.problem ? (
            <span className="danger small">{s.problem}</span>
          ) : (
            <button
              className="small-button"
              disabled={busy !== null || plan !== null}
              onClick={() => void propose(s)}
            >
              {busy?.scope === s.scope && busy.what === 'plan'
                ? 'Preparing…'
                : s.installed
                  ? 'Remove the hook…'
                  : 'Add the hook…'}
            </button>
          )}
        </div>
      ))}
      {plan && (
        <div data-testid="hook-plan">
          <p className="note">
            {plan.action === 'install' ? 'Adding the hook' : 'Removing the hook'} changes{' '}
            <code>{plan.path}</code> as follows; nothing else in the file changes.
          </p>
          <DiffView diff={plan.diff} />
          <div style={ROW}>
            <button
              className="small-button"
              disabled={busy !== null}
              onClick={() => void apply(plan)}
            >
              {busy?.what === 'apply' ? 'Applying…' : 'Apply'}
            </button>
            <button className="small-button" onClick={() => setPlan(null)} disabled={busy !== null}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <p className="note muted">
        To let Claude Code ask about its own memory (read-only), add the MCP server:{' '}
        <code>claude mcp add memory-curator -- memory-curator mcp</code>
      </p>
    </section>
  )
}
