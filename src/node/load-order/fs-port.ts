/**
 * The real disk behind the Claude and Codex load-order ports (src/core/load-order): text
 * reads through the safe reader, rules folders in the raw order the filesystem returns, and
 * directory listings that never follow symlinks. Never throws; symlink loops end as problems.
 */
import type { Dirent } from 'node:fs'
import { lstat, opendir, readdir, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { ClaudeFsPort, PortRead } from '../../core/load-order/claude'
import type { CodexFsPort, EntryKind } from '../../core/load-order/codex'
import { RULES_LIST_MAX_FILES } from '../../core/limits'
import { readTextFile } from '../fs/safe-read'

export async function realpathOr(p: string): Promise<string> {
  try {
    return await realpath(p)
  } catch {
    return p
  }
}

/** The real disk behind both ports. Never throws; symlink loops end as problems. */
export function createFsPort(): ClaudeFsPort & CodexFsPort {
  return {
    async readText(path: string, maxBytes: number, lenient?: boolean): Promise<PortRead> {
      try {
        const r = await readTextFile(path, { maxBytes, lenient: lenient ?? false })
        if (r.ok) return { ok: true, text: r.text, bytes: r.bytes }
        return { ok: false, problem: r.problem, reason: r.reason }
      } catch (err) {
        return { ok: false, problem: 'unreadable', reason: String(err) }
      }
    },
    listRulesDir,
    async isDir(path: string): Promise<boolean> {
      try {
        return (await stat(path)).isDirectory()
      } catch {
        return false
      }
    },
    async listSubdirs(dir: string): Promise<readonly string[]> {
      const entries = await readDirents(dir)
      // Dirent of a symlink is never a directory: the walk does not follow links, so no loops.
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    },
    async entryKind(path: string): Promise<EntryKind | null> {
      try {
        const st = await lstat(path)
        if (st.isSymbolicLink()) return 'symlink'
        if (st.isFile()) return 'file'
        if (st.isDirectory()) return 'dir'
        return 'other'
      } catch {
        return null
      }
    },
  }
}

async function readDirents(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

/**
 * A folder's entries in the raw order the filesystem returns them (`fs.opendir`, what
 * `ls -f` shows): Node's `readdir` sorts, the agent does not (docs/memory-rules.md §3.5 [agent]).
 */
async function readDirentsRaw(dir: string): Promise<Dirent[]> {
  const out: Dirent[] = []
  try {
    const handle = await opendir(dir)
    for await (const e of handle) {
      out.push(e)
      if (out.length > RULES_LIST_MAX_FILES) break
    }
  } catch {
    // Missing or unreadable: no rules here.
  }
  return out
}

/**
 * `.md` files below a rules folder, as relative POSIX paths in raw filesystem order
 * (subfolders where they occur). Symlinked files and folders are followed (shared rules
 * are often linked in); each real folder is visited once.
 */
async function listRulesDir(dir: string): Promise<readonly string[]> {
  const out: string[] = []
  const seen = new Set<string>()
  const visit = async (abs: string, rel: string): Promise<void> => {
    const real = await realpathOr(abs)
    if (seen.has(real)) return
    seen.add(real)
    for (const e of await readDirentsRaw(abs)) {
      if (out.length >= RULES_LIST_MAX_FILES) return
      const childAbs = join(abs, e.name)
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`
      let isDir = e.isDirectory()
      let isFile = e.isFile()
      if (e.isSymbolicLink()) {
        try {
          const st = await stat(childAbs)
          isDir = st.isDirectory()
          isFile = st.isFile()
        } catch {
          // A dangling or looping link: list .md names so the reader sees the problem.
          isFile = true
        }
      }
      if (isDir) await visit(childAbs, childRel)
      else if (isFile && e.name.endsWith('.md')) out.push(childRel)
    }
  }
  await visit(dir, '')
  return out
}
