/**
 * The scripts and make targets a repository defines: its package.json files and Makefiles
 * (tracked ones in git; at the top of a plain folder), read shallowest first and capped. Make
 * targets include pattern rules' (`server-%`): check-reference.ts matches them.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  parseMakeTargets,
  parsePackageDeps,
  parsePackageScripts,
} from '../../core/audit/repo-facts'
import type { RepoFacts } from '../../core/audit/repo-facts'
import { byDepth } from '../../core/audit/repo-paths'
import type { RepoState } from '../git/history'
import { readRepoFile } from './repo-file'

/** package.json files and Makefiles read at most (monorepos). */
const MAX_MANIFESTS = 200

export type Manifests = Pick<
  RepoFacts,
  'scripts' | 'packageFiles' | 'makeTargets' | 'makefiles' | 'packageDeps'
>

/** No manifests read: for notes that name no command. */
export function noManifests(): Manifests {
  return { scripts: new Map(), packageFiles: [], makeTargets: new Map(), makefiles: [] }
}

/** Read the repository's package.json files and Makefiles. */
export async function readManifests(root: string, state: RepoState | null): Promise<Manifests> {
  const scripts = new Map<string, string[]>()
  const makeTargets = new Map<string, string[]>()
  const packageFiles: string[] = []
  const makefiles: string[] = []
  const packageDeps = new Set<string>()
  const files = state ? [...state.tracked] : []
  if (!state) {
    for (const f of ['package.json', 'Makefile', 'makefile', 'GNUmakefile']) {
      try {
        if ((await stat(join(root, f))).isFile()) files.push(f)
      } catch {
        // absent
      }
    }
  }
  const pkgs = files
    .filter((f) => /(^|\/)package\.json$/.test(f) && !f.includes('node_modules/'))
    .sort(byDepth)
  const makes = files
    .filter((f) => /(^|\/)(?:GNUmakefile|[Mm]akefile|[^/]+\.mk)$/.test(f))
    .sort(byDepth)
  for (const f of [...new Set(pkgs)].slice(0, MAX_MANIFESTS)) {
    const r = await readRepoFile(root, f)
    if (!r.ok) continue
    packageFiles.push(f)
    for (const s of parsePackageScripts(r.text)) push(scripts, s, f)
    for (const d of parsePackageDeps(r.text)) packageDeps.add(d)
  }
  for (const f of [...new Set(makes)].slice(0, MAX_MANIFESTS)) {
    const r = await readRepoFile(root, f, { lenient: true })
    if (!r.ok) continue
    makefiles.push(f)
    for (const t of parseMakeTargets(r.text, true)) push(makeTargets, t, f)
  }
  return { scripts, packageFiles, makeTargets, makefiles, packageDeps }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)
  if (list) {
    if (!list.includes(value)) list.push(value)
  } else map.set(key, [value])
}
