/**
 * The one listing of a memory folder (docs/memory-rules.md §1.5): every feature — audit, cutoff,
 * the scan the window lists, provenance, curation — asks this module which note files a memory
 * folder holds, so no two of them disagree (issue 12 item 7).
 *
 * Decisions:
 * - A note file is a regular file whose name ends in `.md` in any case (`NOTES.MD` counts: the
 *   agent reads any topic file it is pointed at, and a person sees the same file); the index is
 *   exactly `MEMORY.md` at the top, as Claude Code names it; a `MEMORY.md` deeper down is a topic.
 * - Folders are entered to TOPIC_SCAN_MAX_DEPTH and at most TOPIC_SCAN_MAX_FILES files are
 *   listed (src/core/limits.ts); what is left out is reported as a problem, never dropped silently.
 * - Hidden entries (`.git`, editor state) hold no notes and are skipped.
 * - Symlinks are followed only while they stay inside the folder; each real folder is walked
 *   once, so a loop ends. A `.md` entry that cannot be listed (FIFO, dangling link, loop, a link
 *   out of the folder) is reported with its reason in words.
 * - Plain files and folders reached through plain folders need no system call beyond the listing
 *   (issue 7: 8,000 awaited `stat` + `realpath` calls in a row made cutoff 8× its baseline);
 *   only symlinks and entries of unknown kind are resolved, several at once.
 */
import type { Dirent } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import { MEMORY_INDEX_NAME } from '../../core/memory/cutoff'
import { isNoteFileName } from '../../core/memory/note-file-name'
import type { ScanWitness } from './scan-witness'
import type { Problem } from '../../shared/model'
import { isInside } from '../fs/path-guard'
import { TOPIC_SCAN_MAX_DEPTH, TOPIC_SCAN_MAX_FILES } from '../../core/limits'
import { mapLimited } from '../jobs/concurrency'

export { MEMORY_INDEX_NAME }

export interface MemoryFolderListing {
  /** Topic files: paths relative to the folder with `/`, sorted; the index is not among them. */
  readonly files: readonly string[]
  /** Those of `files` reached through a symlink (their real path is elsewhere in the folder). */
  readonly linked: ReadonlySet<string>
  readonly problems: readonly Problem[]
}

export { isNoteFileName }

/** Symlinks resolved at once per folder (each needs a `realpath` and a `stat`). */
const RESOLVE_CONCURRENCY = 16

type Resolved =
  | { readonly kind: 'file'; readonly linked: boolean }
  | { readonly kind: 'skip' }
  | { readonly kind: 'dir'; readonly realRel: string }
  | { readonly kind: 'problem'; readonly reason: string }

const PLAIN_FILE: Resolved = { kind: 'file', linked: false }
const LINKED_FILE: Resolved = { kind: 'file', linked: true }
const SKIP: Resolved = { kind: 'skip' }
const NOT_REGULAR_REASON = 'not a regular file (FIFO, socket or device)'
const NOT_REGULAR: Resolved = { kind: 'problem', reason: NOT_REGULAR_REASON }

/**
 * The topic files of the memory folder `dir` (every note file but the index `indexName` at its
 * top), with the problems met. Never throws. `witness` hears of each folder before it is listed
 * and of what its listing held (the scan's, scan-witness.ts).
 */
export async function listMemoryFolder(
  dir: string,
  indexName: string = MEMORY_INDEX_NAME,
  witness: Pick<ScanWitness, 'folder' | 'listed'> | null = null,
): Promise<MemoryFolderListing> {
  const files: string[] = []
  const linkedFiles = new Set<string>()
  const problems: Problem[] = []
  const seenDirs = new Set<string>()
  let realDirPromise: Promise<string> | null = null
  const realDir = (): Promise<string> => (realDirPromise ??= realpath(dir))
  let full = false

  /** `abs` is a folder inside the memory folder whose real path is `<real dir>/<realRel>`. */
  const walk = async (abs: string, realRel: string, rel: string, depth: number): Promise<void> => {
    if (seenDirs.has(realRel)) return
    seenDirs.add(realRel)
    let entries: Dirent[]
    witness?.folder(abs)
    try {
      entries = await readdir(abs, { withFileTypes: true })
      witness?.listed(
        abs,
        entries.map((e) => e.name),
      )
    } catch (err) {
      const what = depth === 0 ? 'the memory folder' : 'folder'
      problems.push({ path: abs, reason: `cannot list ${what}: ${errCode(err)}` })
      return
    }
    const visible = entries
      .filter((e) => !e.name.startsWith('.'))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const prefix = abs.endsWith(sep) ? abs : abs + sep
    const linked = visible.map((e) =>
      e.isFile() || e.isDirectory() || isSpecial(e) ? null : prefix + e.name,
    )
    const resolved = linked.some((p) => p !== null)
      ? await mapLimited(linked, RESOLVE_CONCURRENCY, async (p) =>
          p === null ? null : resolveLink(p, await realDirOrNull(realDir)),
        )
      : null
    for (let i = 0; i < visible.length; i++) {
      if (full) return
      const e = visible[i]
      const name = e.name
      const childRel = rel === '' ? name : `${rel}/${name}`
      const entry: Resolved = resolved?.[i] ?? plainKind(e, realRel)
      const noteName = isNoteFileName(name)
      if (entry.kind === 'problem') {
        // Only what would have been a note (or a folder of notes) is worth a word.
        if (noteName || entry.reason.includes('outside') || entry.reason.includes('folder'))
          problems.push({ path: prefix + name, reason: entry.reason })
      } else if (entry.kind === 'dir') {
        if (depth === 0 && name === indexName)
          problems.push({ path: prefix + name, reason: `${indexName} is a directory, not a file` })
        if (depth < TOPIC_SCAN_MAX_DEPTH) {
          await walk(prefix + name, entry.realRel, childRel, depth + 1)
        } else
          problems.push({
            path: prefix + name,
            reason: `deeper than ${TOPIC_SCAN_MAX_DEPTH} folders; not listed`,
          })
      } else if (entry.kind === 'file' && noteName && childRel !== indexName) {
        if (files.length >= TOPIC_SCAN_MAX_FILES) {
          problems.push({
            path: dir,
            reason: `more than ${TOPIC_SCAN_MAX_FILES.toLocaleString('en-US')} files; listing stopped`,
          })
          full = true
          return
        }
        files.push(childRel)
        if (entry.linked) linkedFiles.add(childRel)
      } else if (entry.kind === 'skip' && noteName && isSpecial(e)) {
        problems.push({ path: prefix + name, reason: NOT_REGULAR_REASON })
      }
    }
  }

  await walk(dir, '', '', 0)
  files.sort()
  return { files, linked: linkedFiles, problems }
}

function isSpecial(e: Dirent): boolean {
  return e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice()
}

/** A listed entry that is not a symlink: a file, a folder (real path = parent's + name), or skipped. */
function plainKind(e: Dirent, parentRealRel: string): Resolved {
  if (e.isFile()) return PLAIN_FILE
  if (e.isDirectory()) {
    return { kind: 'dir', realRel: parentRealRel === '' ? e.name : `${parentRealRel}/${e.name}` }
  }
  return SKIP
}

async function realDirOrNull(realDir: () => Promise<string>): Promise<string | null> {
  try {
    return await realDir()
  } catch {
    return null
  }
}

/** A symlink (or an entry of unknown kind) at `abs`, in the memory folder whose real path is `realDir`. */
async function resolveLink(abs: string, realDir: string | null): Promise<Resolved> {
  let real: string | null = null
  try {
    real = await realpath(abs)
  } catch {
    // Unresolvable counts as inside: the stat below says why.
  }
  if (real !== null && realDir !== null && !isInside(realDir, real)) {
    return { kind: 'problem', reason: 'symlink leads outside the memory folder; not followed' }
  }
  let st
  try {
    // stat follows symlinks and never opens the file, so FIFOs cannot block here.
    st = await stat(abs)
  } catch (err) {
    return { kind: 'problem', reason: statProblem(errCode(err)) }
  }
  if (st.isDirectory()) {
    try {
      real ??= await realpath(abs)
    } catch (err) {
      return { kind: 'problem', reason: `cannot resolve folder: ${errCode(err)}` }
    }
    if (realDir === null) return { kind: 'problem', reason: 'cannot resolve folder' }
    return { kind: 'dir', realRel: relative(realDir, real).split(sep).join('/') }
  }
  return st.isFile() ? LINKED_FILE : NOT_REGULAR
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
}

/** Why a listed entry cannot be stat'ed, in words (one wording for every listing). */
export function statProblem(code: string): string {
  return code === 'ENOENT'
    ? 'dangling symlink'
    : code === 'ELOOP'
      ? 'symlink loop'
      : `cannot stat: ${code}`
}
