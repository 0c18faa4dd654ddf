/** The in-memory launch every claudeLoadOrder test starts from: /r/app in repository /r, user home /h. */
import type { ClaudeLoadInput } from '../../src/core/load-order/claude'

export const CORE_INPUT: ClaudeLoadInput = {
  cwd: '/r/app',
  claudeHome: '/h/.claude',
  managedDir: '/m',
  homeDir: '/h',
  repoRoot: '/r',
  claudeMdExcludes: [],
  disableClaudeMds: false,
  memoryFile: null,
}
