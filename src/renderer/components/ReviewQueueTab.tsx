/** PLACEHOLDER — The review queue for periodic cleanup (issue 6). Being written by a helper. */
import type { ProjectInfo } from '../../shared/limits'

export function ReviewQueueTab({ project }: { project: ProjectInfo }) {
  return <p className="empty">Coming soon for {project.name}.</p>
}
