/**
 * Rewrite a note in Monaco: the file is read once (its hash is what the save must still
 * find on disk), the edit is shown as a diff before saving, and a conflict shows both
 * versions and lets the person choose. A renamed reference can be followed in one click.
 */
import { useEffect, useRef, useState } from 'react'
import Editor, { type OnMount } from '@monaco-editor/react'
import type { EditPlan } from '../../shared/api'
import { getApi } from '../api/api-client'
import { LabelledDiff } from './note-diffs'
import { applyPlan, describeOutcome, type NoteActionProps } from './plan-preview'
import { useMonacoTheme } from '../monaco/text-views'
import { useEscape } from '../common/escape'
import { renameReplacement, shortPath } from './notes-state'
import { dropDraft, loadDraft, saveDraft } from './note-drafts'
import { localTime } from './note-detail'
import { DiscardDialog, filesOfNote, RewriteConflict, RewritePlan } from './note-rewrite-parts'

type EditorInstance = Parameters<OnMount>[0]

type Stage =
  | { readonly kind: 'loading' }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'editing' }
  | { readonly kind: 'review' }
  | {
      readonly kind: 'conflict'
      readonly diskText: string | null
      readonly diskHash: string | null
    }
  | { readonly kind: 'plan'; readonly plan: EditPlan }

export function NoteRewrite({
  note,
  memoryDir,
  repoRoot,
  onApplied,
  onCancel,
  noteKey = null,
  takeFocus = true,
}: NoteActionProps & { readonly noteKey?: string | null; readonly takeFocus?: boolean }) {
  const roots = [memoryDir, repoRoot]
  const theme = useMonacoTheme()
  const [files, setFiles] = useState<string[]>([])
  const [path, setPath] = useState<string | null>(null)
  const [base, setBase] = useState<{ text: string; hash: string } | null>(null)
  const [draft, setDraft] = useState('')
  const [stage, setStage] = useState<Stage>({ kind: 'loading' })
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const editorRef = useRef<EditorInstance | null>(null)
  const [confirming, setConfirming] = useState(false)
  // The kept draft of this note, read once when the panel opens (issue 15 item 1).
  const kept = useRef(noteKey ? loadDraft(memoryDir, noteKey) : null)

  useEffect(() => {
    let live = true
    void filesOfNote(note).then((f) => {
      if (!live) return
      setFiles(f)
      const d = kept.current
      setPath(d && f.includes(d.path) ? d.path : f[0])
    })
    return () => {
      live = false
    }
  }, [note])

  // Read the file once when editing starts: later changes on disk must not move the base.
  useEffect(() => {
    if (!path) return
    let live = true
    setStage({ kind: 'loading' })
    getApi()
      .readFile(path)
      .then(
        (c) => {
          if (!live) return
          if (!c.ok) {
            // A dangling link: fall back to the note's own file.
            if (path !== note.file && files.includes(note.file)) setPath(note.file)
            else setStage({ kind: 'failed', reason: `${shortPath(c.path, roots)}: ${c.reason}` })
            return
          }
          const d = kept.current
          kept.current = null
          if (d && d.path === path) {
            // The draft goes on from the file as it was read then: a save finds out whether
            // the file changed since and shows both versions (the conflict below).
            setBase({ text: d.baseText, hash: d.baseHash })
            setDraft(d.text)
            setNotice(
              `Restored your unsaved rewrite from ${localTime(d.at)}.${d.baseHash === c.hash ? '' : ' The file changed on disk since: saving will show both versions.'}`,
            )
          } else {
            setBase({ text: c.text, hash: c.hash })
            setDraft(c.text)
          }
          setStage({ kind: 'editing' })
        },
        (e: Error) =>
          live && setStage({ kind: 'failed', reason: `${shortPath(path, roots)}: ${e.message}` }),
      )
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path])

  /** Change the draft and keep it (or drop it once it is the file again). */
  const edit = (text: string) => {
    setDraft(text)
    if (!noteKey || !base || !path) return
    if (text === base.text) dropDraft(memoryDir, noteKey)
    else
      saveDraft(memoryDir, noteKey, {
        path,
        baseText: base.text,
        baseHash: base.hash,
        text,
        at: new Date().toISOString(),
      })
  }
  const forget = () => {
    if (noteKey) dropDraft(memoryDir, noteKey)
  }
  /** Cancel: an unsaved rewrite is never dropped without asking. */
  const requestCancel = () => {
    if (base !== null && draft !== base.text) setConfirming(true)
    else onCancel()
  }
  // Esc cancels wherever the focus is, in the editor too (issue 15 item 13); with a rewrite
  // not saved it asks first, and the discard dialog, opened on top, takes the next Esc.
  useEscape(requestCancel)

  const renames = note.references
    .map((r) => renameReplacement(r, repoRoot))
    .filter((r) => r !== null)

  const followRename = async (from: string, to: string) => {
    if (!path || !base) return
    setNotice(null)
    let plan: EditPlan
    try {
      plan = await getApi().planEdit({
        kind: 'replace-text',
        file: note.file,
        line: note.line,
        from,
        to,
      })
    } catch (e) {
      setNotice(
        `Cannot plan replacing ${from} in ${shortPath(note.file, roots)}: ${(e as Error).message}`,
      )
      return
    }
    const only = plan.changes.length === 1 ? plan.changes[0] : null
    if (
      only &&
      only.path === path &&
      only.after !== null &&
      only.expectedHash === base.hash &&
      draft === base.text
    ) {
      // The replacement lands in the editor; the person sees it in the diff before saving.
      edit(only.after)
      editorRef.current?.setValue(only.after)
      setNotice(`Replaced \`${from}\` with \`${to}\` in the editor — review and save.`)
      return
    }
    if (plan.changes.length === 0) {
      setNotice(
        plan.problems.map((p) => `${shortPath(p.path, roots)}: ${p.reason}`).join('; ') ||
          `Nothing to replace: \`${from}\` is not in the note.`,
      )
      return
    }
    setStage({ kind: 'plan', plan })
  }

  const save = async (expectedHash: string | null) => {
    if (!path) return
    setBusy(true)
    try {
      const o = await getApi().writeFile(path, expectedHash, draft, `rewrite note "${note.title}"`)
      if (o.kind === 'written') {
        forget()
        onApplied({
          operationIds: o.operationId ? [o.operationId] : [],
          lines: [describeOutcome(o, roots)],
          failure: null,
        })
      } else if (o.kind === 'conflict') {
        setStage({ kind: 'conflict', diskText: o.currentText, diskHash: o.currentHash })
      } else {
        setNotice(describeOutcome(o, roots))
      }
    } catch (e) {
      setNotice(`${shortPath(path, roots)}: ${(e as Error).message}`)
    } finally {
      setBusy(false)
    }
  }

  const takeDisk = (text: string | null, hash: string | null) => {
    if (text === null || hash === null) {
      setStage({
        kind: 'failed',
        reason: `${shortPath(path ?? note.file, roots)} no longer exists on disk.`,
      })
      return
    }
    setBase({ text, hash })
    setDraft(text)
    forget()
    setStage({ kind: 'editing' })
    setNotice('Your edit was dropped; the editor now shows the version on disk.')
  }

  const dirty = base !== null && draft !== base.text
  const name = path ? shortPath(path, roots) : '…'

  return (
    <div
      // Reviewing, a conflict or a plan is itself a diff: it takes the whole width.
      className={`note-panel rewrite${stage.kind === 'editing' || stage.kind === 'loading' ? '' : ' wide'}`}
      data-testid="rewrite-panel"
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key === 's') {
          e.preventDefault()
          if (stage.kind === 'editing' && dirty) setStage({ kind: 'review' })
          else if (stage.kind === 'review' && base) void save(base.hash)
        }
      }}
    >
      <div className="note-panel-head">
        <strong>Rewrite</strong>
        {files.length > 1 ? (
          <select
            value={path ?? ''}
            onChange={(e) => setPath(e.target.value)}
            disabled={dirty || stage.kind !== 'editing'}
            aria-label="File to edit"
            title={dirty ? 'Save or cancel your edit before switching files' : 'File to edit'}
          >
            {files.map((f) => (
              <option key={f} value={f}>
                {shortPath(f, roots)}
              </option>
            ))}
          </select>
        ) : (
          <code>{name}</code>
        )}
        <span className="spacer" />
        {stage.kind === 'editing' && (
          <button
            disabled={!dirty}
            onClick={() => setStage({ kind: 'review' })}
            data-testid="review-edit"
            title="Review the change before saving (Ctrl+S)"
          >
            Review change…
          </button>
        )}
        {stage.kind === 'review' && base && (
          <>
            <button
              className="primary-button"
              disabled={busy}
              onClick={() => void save(base.hash)}
              data-testid="save-edit"
              title="Save (Ctrl+S)"
              autoFocus
            >
              {busy ? 'Saving…' : 'Save'}
            </button>
            <button onClick={() => setStage({ kind: 'editing' })} title="Back to the editor">
              Keep editing
            </button>
          </>
        )}
        <button onClick={requestCancel} title="Cancel (Esc)" data-testid="cancel-rewrite">
          Cancel
        </button>
      </div>
      {confirming && (
        <DiscardDialog
          title={note.title}
          onDiscard={() => {
            forget()
            setConfirming(false)
            onCancel()
          }}
          onKeep={() => {
            setConfirming(false)
            onCancel()
          }}
          onBack={() => setConfirming(false)}
        />
      )}
      {renames.length > 0 && (stage.kind === 'editing' || stage.kind === 'review') && (
        <div className="rename-offers">
          {renames.map((r) => (
            <button
              key={r.from}
              onClick={() => void followRename(r.from, r.to)}
              disabled={dirty}
              data-testid="follow-rename"
              title={
                dirty
                  ? 'Available before you edit (the replacement is planned on the file as on disk)'
                  : `Replace ${r.from} with ${r.to} in this note`
              }
            >
              Replace <code>{r.from}</code> → <code>{r.to}</code>
            </button>
          ))}
        </div>
      )}
      {notice && (
        <div className="notice" role="status" data-testid="rewrite-notice">
          {notice}
        </div>
      )}
      {stage.kind === 'loading' && <p className="empty">Reading {name}…</p>}
      {stage.kind === 'failed' && (
        <div className="error-bar" role="alert">
          {stage.reason}
        </div>
      )}
      {stage.kind === 'editing' && (
        <div className="rewrite-editor" data-testid="rewrite-editor">
          <Editor
            defaultValue={draft}
            language="markdown"
            theme={theme}
            options={{
              minimap: { enabled: false },
              wordWrap: 'on',
              scrollBeyondLastLine: false,
              automaticLayout: true,
              fontSize: 13,
            }}
            onChange={(v) => edit(v ?? '')}
            onMount={(editor) => {
              editorRef.current = editor
              if (path === note.file) editor.revealLineInCenter(note.line)
              // A draft reopened by selecting its note must not take the keys of the list.
              if (takeFocus) editor.focus()
            }}
          />
        </div>
      )}
      {stage.kind === 'review' && base && (
        <LabelledDiff
          testId="rewrite-diff"
          before={base.text}
          after={draft}
          beforeLabel={`${name} (on disk when you started)`}
          afterLabel={`${name} (your edit)`}
          language="markdown"
        />
      )}
      {stage.kind === 'conflict' && (
        <RewriteConflict
          name={name}
          busy={busy}
          diskText={stage.diskText}
          draft={draft}
          onKeepMine={() => void save(stage.diskHash)}
          onKeepDisk={() => takeDisk(stage.diskText, stage.diskHash)}
        />
      )}
      {stage.kind === 'plan' && (
        <RewritePlan
          plan={stage.plan}
          busy={busy}
          roots={roots}
          onApply={async () => {
            setBusy(true)
            const r = await applyPlan(stage.plan, `follow a rename in note "${note.title}"`, roots)
            setBusy(false)
            onApplied(r)
          }}
          onBack={() => setStage({ kind: 'editing' })}
        />
      )}
    </div>
  )
}
