/** One project: where it was launched, its problems, and its tabs (memory, notes, queue, history, instructions). */
import { useEffect, useState } from 'react'
import { openLayers } from '../common/escape'
import { appStore } from '../state/app-state'
import { useStore } from '../state/store'
import type { ProjectInfo } from '../../shared/model'
import { MemoryTab } from '../memory/memory-tab'
import { NotesTab } from '../notes/notes-tab'
import { ReviewQueueTab } from '../notes/review-queue-tab'
import { HistoryTab } from '../history/history-tab'
import { InstructionsTab } from '../instructions/instructions-tab'
import { ProblemList } from '../common/problem-list'
import { titleOf } from './project-title'
import { useMonacoReady } from '../monaco/monaco-ready'

const TABS = [
  { id: 'memory', label: 'Memory', key: '1' },
  { id: 'notes', label: 'Notes', key: '2' },
  { id: 'queue', label: 'Review queue', key: '3' },
  { id: 'history', label: 'History', key: '4' },
  { id: 'instructions', label: 'Instructions', key: '5' },
] as const
type TabId = (typeof TABS)[number]['id']

/** The tab Alt+1…5 asks for (also Alt+digit keys a layout turns into other characters), or null. */
export function tabForKey(
  e: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'key' | 'code'>,
): TabId | null {
  if (!e.altKey || e.ctrlKey || e.metaKey) return null
  const digit = /^Digit([1-5])$/.exec(e.code)?.[1] ?? e.key
  return TABS.find((x) => x.key === digit)?.id ?? null
}

export function ProjectView({ project }: { project: ProjectInfo }) {
  const [tab, setTab] = useState<TabId>('memory')
  const reveal = useStore(appStore, (s) => s.reveal)
  const editorsReady = useMonacoReady()
  // A search result in this project: show the Memory tab, where the file opens at the line.
  useEffect(() => {
    if (reveal && reveal.projectId === project.id) setTab('memory')
  }, [reveal, project.id])
  useEffect(() => {
    // Alt+1…5 from anywhere, also from inside an editor (capture phase: before it takes the key);
    // not under an open dialog.
    const onKey = (e: KeyboardEvent): void => {
      const next = tabForKey(e)
      if (!next || openLayers() > 0) return
      e.preventDefault()
      e.stopPropagation()
      setTab(next)
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [])
  return (
    <section className="project-view" aria-label={`Project ${titleOf(project)}`}>
      <div className="project-head">
        <h1 title={`Folder: ${project.dir}`} data-testid="project-heading">
          {titleOf(project)}
        </h1>
        <dl>
          <dt>Launched in</dt>
          <dd>
            {project.cwds.length ? project.cwds.join(', ') : 'unknown (no transcript names a cwd)'}
          </dd>
          {project.repoRoot && (
            <>
              <dt>Repository</dt>
              <dd>{project.repoRoot}</dd>
            </>
          )}
          <dt>Memory</dt>
          <dd>{project.memoryDir ?? 'no memory folder'}</dd>
        </dl>
        <ProblemList problems={project.problems} testId="project-problems" />
      </div>
      <div className="view-tabs" role="tablist" aria-label="Project views">
        {TABS.map((t) => (
          <button
            key={t.id}
            role="tab"
            aria-selected={tab === t.id}
            className={tab === t.id ? 'view-tab active' : 'view-tab'}
            onClick={() => setTab(t.id)}
            title={`Alt+${t.key}`}
            data-testid={`tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="tab-body" role="tabpanel">
        {tab === 'memory' && <MemoryTab project={project} />}
        {/* The other tabs mount their diffs and editors at once: after Monaco is loaded. */}
        {tab !== 'memory' && !editorsReady && <div className="empty">Loading the editor…</div>}
        {editorsReady && tab === 'notes' && <NotesTab project={project} />}
        {editorsReady && tab === 'queue' && <ReviewQueueTab project={project} />}
        {editorsReady && tab === 'history' && <HistoryTab project={project} />}
        {editorsReady && tab === 'instructions' && <InstructionsTab project={project} />}
      </div>
    </section>
  )
}
