/** One project: where it was launched, its problems, and its tabs (memory, notes, queue, history, instructions). */
import { useState, type KeyboardEvent } from 'react'
import type { ProjectInfo } from '../../shared/model'
import { MemoryTab } from '../memory/memory-tab'
import { NotesTab } from '../notes/notes-tab'
import { ReviewQueueTab } from '../notes/review-queue-tab'
import { HistoryTab } from '../history/history-tab'
import { InstructionsTab } from '../instructions/instructions-tab'
import { ProblemList } from '../common/problem-list'
import { titleOf } from './project-title'

const TABS = [
  { id: 'memory', label: 'Memory', key: '1' },
  { id: 'notes', label: 'Notes', key: '2' },
  { id: 'queue', label: 'Review queue', key: '3' },
  { id: 'history', label: 'History', key: '4' },
  { id: 'instructions', label: 'Instructions', key: '5' },
] as const
type TabId = (typeof TABS)[number]['id']

export function ProjectView({ project }: { project: ProjectInfo }) {
  const [tab, setTab] = useState<TabId>('memory')
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    // Alt+1..5 switches tabs from anywhere in the project view.
    if (!e.altKey) return
    const t = TABS.find((x) => x.key === e.key)
    if (t) {
      e.preventDefault()
      setTab(t.id)
    }
  }
  return (
    <section className="project-view" aria-label={`Project ${titleOf(project)}`} onKeyDown={onKey}>
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
        {tab === 'notes' && <NotesTab project={project} />}
        {tab === 'queue' && <ReviewQueueTab project={project} />}
        {tab === 'history' && <HistoryTab project={project} />}
        {tab === 'instructions' && <InstructionsTab project={project} />}
      </div>
    </section>
  )
}
