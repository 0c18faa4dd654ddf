/**
 * Launch directories the person named on the command line (`load-order --cwd DIR`): the back end
 * accepts them for `loadOrder` without a scan having found them. Only the CLI names any; the
 * window's page and `serve`'s browser are not trusted to, so their launch directories must come
 * from a scan (the path guard, src/node/fs/path-guard.ts).
 */
import { resolve } from 'node:path'
import type { ProjectInfo, ScanResult } from '../../shared/model'
import { realpathLoose, type PathGuard } from '../fs/path-guard'

/** Teach `guard` each named directory, as given and as its real path (the guard checks both). */
export async function allowNamedLaunchDirs(
  guard: PathGuard,
  dirs: readonly string[],
): Promise<void> {
  if (dirs.length === 0) return
  const cwds: string[] = []
  for (const d of dirs) cwds.push(resolve(d), await realpathLoose(resolve(d)))
  await guard.rememberProjects(asScan(cwds))
}

/** Named directories in the shape the guard learns launch directories from: a scan's projects. */
function asScan(cwds: readonly string[]): ScanResult {
  const project: ProjectInfo = {
    id: '',
    dir: '',
    cwds,
    repoRoot: null,
    sessions: 0,
    memoryDir: null,
    memoryFiles: [],
    name: '',
    problems: [],
  }
  return { claudeHome: '', projects: [project], problems: [] }
}
