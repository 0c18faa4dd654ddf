/** A folder's names in the raw order the filesystem returns them (Node's readdir sorts; the agents do not — docs/memory-rules.md §3.5). */
import { opendirSync } from 'node:fs'

export function rawDirOrder(dir: string): string[] {
  const d = opendirSync(dir)
  const names: string[] = []
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) names.push(e.name)
  } finally {
    d.closeSync()
  }
  return names
}
