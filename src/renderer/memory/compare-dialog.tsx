/**
 * The file on disk changed under an edit in progress: both versions side by side, and the
 * person chooses which to keep (nothing is written here).
 */
import { Dialog } from '../common/dialog'
import { TextDiff } from '../monaco/text-views'

export function CompareDialog({
  name,
  diskText,
  draft,
  onClose,
  onTakeDisk,
  onKeepMine,
}: {
  name: string
  diskText: string
  draft: string
  onClose: () => void
  onTakeDisk: () => void
  onKeepMine: () => void
}) {
  return (
    <Dialog
      title={`${name}: the disk version and your edit`}
      onClose={onClose}
      testId="compare-dialog"
    >
      <div className="dialog-body">
        <p>
          Left: the file on disk now. Right: your edit. Nothing has been written; choose which to
          keep.
        </p>
      </div>
      <div className="diff-host">
        <TextDiff original={diskText} modified={draft} />
      </div>
      <div className="dialog-actions">
        <button
          onClick={() => void navigator.clipboard?.writeText(draft)}
          title="Copy your edit to the clipboard"
        >
          Copy my edit
        </button>
        <button onClick={onTakeDisk} data-testid="take-disk">
          Take the disk version
        </button>
        <button
          className="primary"
          onClick={onKeepMine}
          data-testid="keep-mine"
          title="Keep editing your version; saving will replace the disk version"
        >
          Keep my edit
        </button>
      </div>
    </Dialog>
  )
}
