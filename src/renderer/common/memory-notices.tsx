/**
 * What a session just did to memory that needs the person (issue 18 item 4): an index written
 * past the load cutoff, or a line a parallel session removed. After each change event the back
 * end is asked for new notices (memoryNotices); each is shown with its fix — "Move above the
 * cutoff" opens the same preview as the Memory tab, "Restore" puts the line back through the
 * safe write path — and can be dismissed. The desktop notification is src/main's.
 */
import { lazy, Suspense, useEffect, useState } from 'react'
import type { MemoryNotice } from '../../shared/api'
import { getApi } from '../api/api-client'

// The preview uses the editor's diff view: loaded only when a fix is opened (issue 7).
const PlanDialog = lazy(() =>
  import('../memory/plan-dialog').then((m) => ({ default: m.PlanDialog })),
)

/** Quiet time after a change event before asking (a session writes in bursts). */
const ASK_AFTER_MS = 300
const n = (x: number): string => x.toLocaleString()

function NoticeText({ notice }: { notice: MemoryNotice }) {
  if (notice.kind === 'past-cutoff')
    return (
      <span>
        A session wrote to <code>{notice.file}</code>: {n(notice.entriesNotLoaded)}{' '}
        {notice.entriesNotLoaded === 1 ? 'entry no longer loads' : 'entries no longer load'} at
        session start
        {notice.newest ? (
          <>
            , the newest “{notice.newest.title}” (line {n(notice.newest.line)})
          </>
        ) : null}
        .
      </span>
    )
  return (
    <span>
      A session removed a line another session wrote in <code>{notice.file}</code>:{' '}
      <code>{notice.text}</code>
    </span>
  )
}

export function MemoryNotices() {
  const [notices, setNotices] = useState<MemoryNotice[]>([])
  const [moving, setMoving] = useState<Extract<MemoryNotice, { kind: 'past-cutoff' }> | null>(null)
  const [said, setSaid] = useState<ReadonlyMap<number, string>>(new Map())

  useEffect(() => {
    const api = getApi()
    let last = 0
    let timer: ReturnType<typeof setTimeout> | null = null
    let live = true
    const ask = async (): Promise<void> => {
      timer = null
      try {
        const fresh = await api.memoryNotices(last)
        if (!live || fresh.length === 0) return
        last = Math.max(last, ...fresh.map((x) => x.id))
        setNotices((prev) => [...prev, ...fresh].slice(-5))
      } catch {
        // Notices are a courtesy: the views show the state of the files either way.
      }
    }
    void ask()
    const off = api.onDidChange(() => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => void ask(), ASK_AFTER_MS)
    })
    return () => {
      live = false
      off()
      if (timer) clearTimeout(timer)
    }
  }, [])

  const dismiss = (id: number) => setNotices((prev) => prev.filter((x) => x.id !== id))
  const say = (id: number, text: string) => setSaid((prev) => new Map(prev).set(id, text))

  const restore = async (x: Extract<MemoryNotice, { kind: 'line-lost' }>) => {
    const api = getApi()
    try {
      const read = await api.readFile(x.file)
      if (!read.ok) return say(x.id, `${x.file}: ${read.reason}`)
      const r = await api.restoreLostLine(x.memoryDir, x.file, x.text, read.hash)
      if (r.kind === 'written') dismiss(x.id)
      else say(x.id, r.kind === 'error' ? r.reason : `${x.file} changed meanwhile; look again`)
    } catch (err) {
      say(x.id, (err as Error).message)
    }
  }

  if (notices.length === 0 && !moving) return null
  return (
    <div className="memory-notices" data-testid="memory-notices" role="status">
      {notices.map((x) => (
        <div key={x.id} className="error-bar" data-testid="memory-notice">
          <NoticeText notice={x} />{' '}
          {x.kind === 'past-cutoff' && x.newest ? (
            <button className="small-button" onClick={() => setMoving(x)}>
              Move above the cutoff…
            </button>
          ) : x.kind === 'line-lost' ? (
            <button className="small-button" onClick={() => void restore(x)}>
              Restore
            </button>
          ) : null}{' '}
          <button className="small-button" onClick={() => dismiss(x.id)}>
            Dismiss
          </button>
          {said.get(x.id) && <span className="small"> {said.get(x.id)}</span>}
        </div>
      ))}
      {moving?.newest && (
        <Suspense fallback={null}>
          <PlanDialog
            action={{
              kind: 'move',
              file: moving.file,
              line: moving.newest.line,
              title: moving.newest.title,
            }}
            onClose={() => setMoving(null)}
            onApplied={() => {
              dismiss(moving.id)
              setMoving(null)
            }}
          />
        </Suspense>
      )}
    </div>
  )
}
