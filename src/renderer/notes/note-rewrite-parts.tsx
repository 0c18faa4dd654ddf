/** Parts of the Rewrite panel (note-rewrite.tsx): which files a note spans, the discard question, a conflict, a planned rename. */
import type { AuditNote } from '../../shared/model'
import type { EditPlan } from '../../shared/api'
import { getApi } from '../api/api-client'
import { Dialog } from '../common/dialog'
import { LabelledDiff } from './note-diffs'
import { PlanPreview } from './plan-preview'

/** The topic file an index entry links, when the note is one (the back end resolved it for the cutoff). */
export async function filesOfNote(note: AuditNote): Promise<string[]> {
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

/** Asked before an unsaved rewrite is dropped (issue 15 item 1): discard, keep as a draft, or go back. */
export function DiscardDialog({
  title,
  onDiscard,
  onKeep,
  onBack,
}: {
  title: string
  onDiscard: () => void
  onKeep: () => void
  onBack: () => void
}) {
  return (
    <Dialog title="Discard your rewrite?" onClose={onBack} testId="discard-dialog" size="narrow">
      <p className="dialog-body">
        Your rewrite of “{title}” is not saved. Discard it, or close the editor and keep it as a
        draft for later?
      </p>
      <div className="dialog-actions">
        <button className="danger-button" onClick={onDiscard} data-testid="discard-draft">
          Discard the rewrite
        </button>
        <button onClick={onKeep} data-testid="keep-draft" autoFocus>
          Keep it as a draft
        </button>
        <button onClick={onBack}>Back to the editor</button>
      </div>
    </Dialog>
  )
}

/** The file changed on disk while the person edited: both versions, and a choice. */
export function RewriteConflict({
  name,
  busy,
  diskText,
  draft,
  onKeepMine,
  onKeepDisk,
}: {
  name: string
  busy: boolean
  diskText: string | null
  draft: string
  onKeepMine: () => void
  onKeepDisk: () => void
}) {
  return (
    <div className="conflict" data-testid="rewrite-conflict">
      <div className="error-bar" role="alert">
        {name} changed on disk while you were editing. Nothing was written. Choose which version to
        keep.
      </div>
      <div className="conflict-actions">
        <button
          className="danger-button"
          disabled={busy}
          onClick={onKeepMine}
          data-testid="keep-mine"
          title="Write your version over the one on disk (a backup of it is kept)"
        >
          Keep mine
        </button>
        <button
          onClick={onKeepDisk}
          data-testid="keep-disk"
          title="Drop your edit and continue from the version on disk"
        >
          Keep the one on disk
        </button>
      </div>
      <LabelledDiff
        testId="conflict-diff"
        before={diskText ?? ''}
        after={draft}
        beforeLabel={`${name} (on disk now)`}
        afterLabel={`${name} (yours)`}
        language="markdown"
      />
    </div>
  )
}

/** A rename followed across files: the plan, applied as one change. */
export function RewritePlan({
  plan,
  busy,
  roots,
  onApply,
  onBack,
}: {
  plan: EditPlan
  busy: boolean
  roots: readonly (string | null)[]
  onApply: () => void
  onBack: () => void
}) {
  return (
    <div className="conflict">
      <div className="conflict-actions">
        <button
          className="primary-button"
          disabled={busy}
          onClick={onApply}
          data-testid="apply-plan"
          autoFocus
        >
          Apply
        </button>
        <button onClick={onBack}>Back</button>
      </div>
      <PlanPreview plan={plan} roots={roots} />
    </div>
  )
}
