/**
 * The project folders of a Claude home and when each last gained or lost a file (a new project
 * or session): the watcher sees only memory folders, so this tells the back end whether its
 * startup scan still holds.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

export async function projectsStamp(claudeHome: string): Promise<string> {
  const root = join(claudeHome, 'projects')
  try {
    const names = (await readdir(root)).sort()
    const times = await Promise.all(
      names.map((n) =>
        stat(join(root, n)).then(
          (st) => st.mtimeMs,
          () => -1,
        ),
      ),
    )
    return names.map((n, i) => `${n}\u0000${times[i]}`).join('\n')
  } catch {
    return ''
  }
}
