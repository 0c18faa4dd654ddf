/** PLACEHOLDER — Notes: each note with its verdict beside a diff of the code it rests on (issue 4/6). Being written by a helper. */
import type { ProjectInfo } from '../../shared/limits'

export function NotesTab({ project }: { project: ProjectInfo }) {
  return <p className="empty">Coming soon for {project.name}.</p>
}
