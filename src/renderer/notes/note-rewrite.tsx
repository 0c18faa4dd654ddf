/**
 * Rewrite a note in Monaco: the file is read once (its hash is what the save must still
 * find on disk), the edit is shown as a diff before saving, and a conflict shows both
 * versions and lets the person choose. A renamed reference can be followed in one click.
 */
import { useEffect, useRef, useState } from 'react'
import Editor, { type OnMount } from '@monaco-editor/react'
import type { AuditNote } from '../../shared/model'
import type { EditPlan } from '../../shared/api'
import { getApi } from '../api/api-client'
import { LabelledDiff } from './note-diffs'
import { applyPlan, describeOutcome, PlanPreview, type NoteActionProps } from './plan-preview'
import { useMonacoTheme } from '../monaco/text-views'
import { renameReplacement, shortPath } from './notes-state'

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

/** The topic file an index entry links, when the note is one (the back end resolved it for the cutoff). */
async function filesOfNote(note: AuditNote): Promise<string[]> {
  if (!/(^|\/)MEMORY\.md$/.test(note.file)) return [note.file]
  try {
    const cut = await getApi().cutoff(note.file)
    const target = cut.entries.find((e) => e.line === note.line)?.target
    if (!target || /^[a-z]+:/i.test(target)) return [note.file]
    const dir = note.file.slice(0, note.file.lastIndexOf('/'))
    return [`${dir}/${target.replace(/^\.\//, '')}`, note.file]
  } catch {
    return [note.file]
  }
}

export function NoteRewrite({ note, memoryDir, repoRoot, onApplied, onCancel }: NoteActionProps) {
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

  useEffect(() => {
    let live = true
    void filesOfNote(note).then((f) => {
      if (!live) return
      setFiles(f)
      setPath(f[0])
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
          setBase({ text: c.text, hash: c.hash })
          setDraft(c.text)
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
      setDraft(only.after)
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
    setStage({ kind: 'editing' })
    setNotice('Your edit was dropped; the editor now shows the version on disk.')
  }

  const dirty = base !== null && draft !== base.text
  const name = path ? shortPath(path, roots) : '…'

  return (
    <div
      className="note-panel rewrite"
      data-testid="rewrite-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && stage.kind !== 'editing') {
          e.stopPropagation()
          onCancel()
        }
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
        <button
          onClick={onCancel}
          title="Cancel (Esc outside the editor)"
          data-testid="cancel-rewrite"
        >
          Cancel
        </button>
      </div>
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
            onChange={(v) => setDraft(v ?? '')}
            onMount={(editor) => {
              editorRef.current = editor
              if (path === note.file) editor.revealLineInCenter(note.line)
              editor.focus()
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
        <div className="conflict" data-testid="rewrite-conflict">
          <div className="error-bar" role="alert">
            {name} changed on disk while you were editing. Nothing was written. Choose which version
            to keep.
          </div>
          <div className="conflict-actions">
            <button
              className="danger-button"
              disabled={busy}
              onClick={() => void save(stage.diskHash)}
              data-testid="keep-mine"
              title="Write your version over the one on disk (a backup of it is kept)"
            >
              Keep mine
            </button>
            <button
              onClick={() => takeDisk(stage.diskText, stage.diskHash)}
              data-testid="keep-disk"
              title="Drop your edit and continue from the version on disk"
            >
              Keep the one on disk
            </button>
          </div>
          <LabelledDiff
            testId="conflict-diff"
            before={stage.diskText ?? ''}
            after={draft}
            beforeLabel={`${name} (on disk now)`}
            afterLabel={`${name} (yours)`}
            language="markdown"
          />
        </div>
      )}
      {stage.kind === 'plan' && (
        <div className="conflict">
          <div className="conflict-actions">
            <button
              className="primary-button"
              disabled={busy}
              onClick={async () => {
                setBusy(true)
                const r = await applyPlan(
                  stage.plan,
                  `follow a rename in note "${note.title}"`,
                  roots,
                )
                setBusy(false)
                onApplied(r)
              }}
              data-testid="apply-plan"
              autoFocus
            >
              Apply
            </button>
            <button onClick={() => setStage({ kind: 'editing' })}>Back</button>
          </div>
          <PlanPreview plan={stage.plan} roots={roots} />
        </div>
      )}
    </div>
  )
}
