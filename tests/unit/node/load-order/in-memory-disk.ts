/**
 * Test helpers for the load-order tests: an in-memory disk behind the Claude and Codex fs
 * ports, and `sf`, one expected startup file.
 */
import { type ClaudeFsPort, type PortRead } from '../../../../src/core/load-order/claude'
import { type CodexFsPort, type EntryKind } from '../../../../src/core/load-order/codex'
import type { ClaudeScope } from '../../../../src/shared/model'
import { utf8Length } from '../../../../src/core/text'

// ---- an in-memory disk ------------------------------------------------------

export type MemEntry = string | { readonly kind: 'binary' | 'dir' | 'too-large' | 'invalid-utf8' }

/** Files by absolute path; folders are implied by the files below them or declared as `dir`. */
export function memPort(entries: Record<string, MemEntry>): ClaudeFsPort & CodexFsPort {
  const files = new Map(Object.entries(entries))
  const isDirPath = (p: string): boolean => {
    const e = files.get(p)
    if (e !== undefined) return typeof e !== 'string' && e.kind === 'dir'
    const prefix = p === '/' ? '/' : p + '/'
    return [...files.keys()].some((k) => k.startsWith(prefix))
  }
  const below = (dir: string): string[] => {
    const prefix = dir === '/' ? '/' : dir + '/'
    return [...files.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length))
  }
  return {
    async readText(path: string): Promise<PortRead> {
      const e = files.get(path)
      if (e === undefined) {
        return isDirPath(path)
          ? { ok: false, problem: 'not-a-file', reason: 'is a directory' }
          : { ok: false, problem: 'missing', reason: 'no such file' }
      }
      if (typeof e === 'string') return { ok: true, text: e, bytes: utf8Length(e) }
      if (e.kind === 'dir') return { ok: false, problem: 'not-a-file', reason: 'is a directory' }
      return { ok: false, problem: e.kind, reason: `${e.kind} file` }
    },
    async listRulesDir(dir: string): Promise<readonly string[]> {
      return below(dir)
        .filter((rel) => rel.endsWith('.md') && !isDirPath(`${dir}/${rel}`))
        .sort()
    },
    async isDir(path: string): Promise<boolean> {
      return isDirPath(path)
    },
    async listSubdirs(dir: string): Promise<readonly string[]> {
      const names = new Set<string>()
      for (const rel of below(dir)) {
        const i = rel.indexOf('/')
        if (i > 0) names.add(rel.slice(0, i))
        else if (isDirPath(`${dir === '/' ? '' : dir}/${rel}`)) names.add(rel)
      }
      return [...names].sort()
    },
    async entryKind(path: string): Promise<EntryKind | null> {
      if (isDirPath(path)) return 'dir'
      return files.has(path) ? 'file' : null
    },
  }
}

/** One expected startup file of a Claude load order. */
export function sf(
  path: string,
  scope: ClaudeScope,
  lines: number,
  chars: number,
  importedBy: string | null = null,
) {
  return { path, scope, importedBy, lines, chars }
}

// ---- Claude, in memory --------------------------------------------------------
