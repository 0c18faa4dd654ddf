/** PLACEHOLDER — What Claude Code and Codex load for a launch directory (issue 6). Being written by a helper. */
import type { ProjectInfo } from '../../shared/limits'

export function InstructionsTab({ project }: { project: ProjectInfo }) {
  return <p className="empty">Coming soon for {project.name}.</p>
}
