/**
 * The note's own text beside its diff (issue 15 item 10): the lines it spans in its file, read
 * when the note is shown (so it is the text on disk now, not the audit's copy).
 */
import { useEffect, useState } from 'react'
import type { AuditNote } from '../../shared/model'
import { getApi } from '../api/api-client'
import { shortPath } from './notes-state'
import { problemText } from '../common/wording'

/** Lines of a topic file shown at most (the rest is a scroll in the editor away). */
const MAX_TOPIC_LINES = 400

type Shown =
  | { readonly kind: 'loading' }
  | { readonly kind: 'failed'; readonly reason: string }
  | {
      readonly kind: 'text'
      readonly lines: readonly string[]
      /** The topic file an index entry links, when the note is one: its text is the note's body. */
      readonly topic: { readonly path: string; readonly lines: readonly string[] } | null
    }

export function NoteText({ note, roots }: { note: AuditNote; roots: readonly (string | null)[] }) {
  const [shown, setShown] = useState<Shown>({ kind: 'loading' })
  useEffect(() => {
    let live = true
    setShown({ kind: 'loading' })
    const api = getApi()
    const run = async (): Promise<Shown> => {
      const c = await api.readFile(note.file)
      if (!c.ok) return { kind: 'failed', reason: c.reason }
      const lines = c.text.split('\n').slice(note.line - 1, Math.max(note.line, note.endLine))
      const topicPath = linkedTopic(note.file, lines[0] ?? '')
      if (!topicPath) return { kind: 'text', lines, topic: null }
      const t = await api.readFile(topicPath).catch(() => null)
      const topic = t?.ok
        ? { path: topicPath, lines: t.text.split('\n').slice(0, MAX_TOPIC_LINES) }
        : null
      return { kind: 'text', lines, topic }
    }
    run().then(
      (s) => live && setShown(s),
      (e: Error) => live && setShown({ kind: 'failed', reason: e.message }),
    )
    return () => {
      live = false
    }
  }, [note.file, note.line, note.endLine])

  const where = `${shortPath(note.file, roots)}:${note.line}${note.endLine > note.line ? `–${note.endLine}` : ''}`
  return (
    <div className="note-text" data-testid="note-text">
      <div className="note-diff-labels note-text-label">
        <span title={note.file}>The note as written — {where}</span>
      </div>
      {shown.kind === 'loading' && <p className="empty">Reading the note…</p>}
      {shown.kind === 'failed' && (
        <div className="error-bar" role="alert">
          Cannot read {where}: {problemText(shown.reason)}
        </div>
      )}
      {shown.kind === 'text' && (
        <pre className="note-text-body">
          <Lines lines={shown.lines} first={note.line} />
          {shown.topic && (
            <>
              <div className="note-text-file" title={shown.topic.path}>
                {shortPath(shown.topic.path, roots)}
              </div>
              <Lines lines={shown.topic.lines} first={1} />
            </>
          )}
        </pre>
      )}
    </div>
  )
}

function Lines({ lines, first }: { lines: readonly string[]; first: number }) {
  return (
    <>
      {lines.map((l, i) => (
        <div key={i} className="note-text-line">
          <span className="note-text-no" aria-hidden="true">
            {first + i}
          </span>
          <span>{l || ' '}</span>
        </div>
      ))}
    </>
  )
}

/**
 * The topic file an index entry links (its first link to a relative `.md` file), read from the
 * entry line itself: asking the back end for the whole index's cutoff costs seconds with
 * 50,000 entries (issue 15 item 6). Null for a note that is not an index entry.
 */
function linkedTopic(file: string, entryLine: string): string | null {
  if (!/(^|\/)MEMORY\.md$/.test(file)) return null
  const m = /\]\(\s*<?([^)\s>]+\.md)>?\s*(?:"[^"]*")?\)/i.exec(entryLine)
  if (!m || /^[a-z][a-z0-9+.-]*:/i.test(m[1]) || m[1].startsWith('/')) return null
  const dir = file.slice(0, file.lastIndexOf('/'))
  const rel = m[1].replace(/^\.\//, '')
  if (rel.split('/').includes('..')) return null
  return `${dir}/${rel}`
}
