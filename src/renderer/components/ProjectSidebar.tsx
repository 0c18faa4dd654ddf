/** The list of projects found under the Claude home, with a search box; arrow keys move the selection. */
import type { KeyboardEvent } from 'react'
import type { ProjectInfo } from '../../shared/limits'
import { appStore } from '../state/app-state'
import { useStore } from '../state/store'

export function ProjectSidebar({ projects, selectedId }: { projects: readonly ProjectInfo[]; selectedId: string | null }) {
  const filter = useStore(appStore, (s) => s.filter)
  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const i = projects.findIndex((p) => p.id === selectedId)
    const next = e.key === 'ArrowDown' ? projects[i + 1] : e.key === 'ArrowUp' ? projects[i - 1] : undefined
    if (next) {
      e.preventDefault()
      appStore.dispatch({ type: 'select', id: next.id })
      document.getElementById(`project-${next.id}`)?.focus()
    }
  }
  return (
    <nav className="sidebar" aria-label="Projects">
      <input
        className="search"
        type="search"
        placeholder="Search projects"
        aria-label="Search projects"
        value={filter}
        onChange={(e) => appStore.dispatch({ type: 'filter', text: e.target.value })}
      />
      <ul role="listbox" aria-label="Projects" onKeyDown={onKey} data-testid="project-list">
        {projects.map((p) => (
          <li
            key={p.id}
            id={`project-${p.id}`}
            role="option"
            tabIndex={p.id === selectedId ? 0 : -1}
            aria-selected={p.id === selectedId}
            className={p.id === selectedId ? 'project selected' : 'project'}
            onClick={() => appStore.dispatch({ type: 'select', id: p.id })}
            title={p.cwds[0] ?? p.dir}
          >
            <span className="project-name">{p.name}</span>
            <span className="project-meta">
              {p.cwds[0] ?? 'launch directory unknown'}
            </span>
            <span className="project-counts">
              {p.sessions} session{p.sessions === 1 ? '' : 's'} · {p.memoryFiles.length} memory file{p.memoryFiles.length === 1 ? '' : 's'}
              {p.repoRoot && p.cwds[0] && p.repoRoot !== p.cwds[0] ? ' · worktree' : ''}
              {p.problems.length > 0 && <span className="warn"> · {p.problems.length} problem{p.problems.length === 1 ? '' : 's'}</span>}
            </span>
          </li>
        ))}
      </ul>
      {projects.length === 0 && <p className="empty">No projects match.</p>}
    </nav>
  )
}
