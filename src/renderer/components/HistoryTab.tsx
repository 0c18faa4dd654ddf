/** PLACEHOLDER — Who wrote each memory file, lost lines, changes since last review (issue 5). Being written by a helper. */
import type { ProjectInfo } from '../../shared/limits'

export function HistoryTab({ project }: { project: ProjectInfo }) {
  return <p className="empty">Coming soon for {project.name}.</p>
}
