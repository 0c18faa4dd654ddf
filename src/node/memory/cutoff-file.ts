/**
 * The cutoff of a MEMORY.md on disk (docs/memory-rules.md §2): reads it safely, lists the
 * topic files beside it and applies `computeCutoff`. Never throws, never hangs.
 */
import type { Dirent } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { basename, dirname, relative, resolve, sep } from 'node:path'
import { computeCutoff, MEMORY_INDEX_NAME } from '../../core/memory/cutoff'
import type { CutoffResult, Problem } from '../../shared/model'
import { isInside } from '../fs/path-guard'
import type { TextRead } from '../fs/safe-read'
import { readTextFile } from '../fs/safe-read'
import { TOPIC_SCAN_MAX_DEPTH, TOPIC_SCAN_MAX_FILES } from '../../core/limits'
import { mapLimited } from '../jobs/concurrency'

/** Our own safety caps for listing a memory folder (not agent rules). */

export interface TopicListing {
  /** Paths relative to the folder with `/`, sorted. */
  readonly files: readonly string[]
  readonly problems: readonly Problem[]
}

/**
 * The topic files of a memory folder: regular `*.md` files (symlinks followed),
 * recursively, as relative paths, except the index itself. Hidden entries are
 * skipped; symlink loops are visited once; FIFOs and devices are skipped.
 */
export async function listTopicFiles(
  dir: string,
  indexName = MEMORY_INDEX_NAME,
): Promise<TopicListing> {
  return listMemoryFolder(dir, indexName)
}

/**
 * listTopicFiles.
 *
 * Plain files and folders reached through plain folders need no system call beyond the
 * listing (issue 7: 8,000 awaited `stat` + `realpath` calls in a row made cutoff 8× its
 * baseline): their real path is their real parent's plus their name, so they cannot escape.
 * Only symlinks and entries of unknown kind are resolved (`realpath`, `stat`, never opened),
 * several at once, then handled in name order as before. The folder's own real path is
 * resolved only when one of those needs it; folders are remembered by their real path
 * relative to it, which identifies them as well as the real path does.
 */
async function listMemoryFolder(dir: string, indexName: string): Promise<TopicListing> {
  const files: string[] = []
  const problems: Problem[] = []
  const seenDirs = new Set<string>()
  let realDirPromise: Promise<string> | null = null
  const realDir = (): Promise<string> => (realDirPromise ??= realpath(dir))

  /** `abs` is a folder inside the memory folder whose real path is `<real dir>/<realRel>`. */
  const walk = async (abs: string, realRel: string, rel: string, depth: number): Promise<void> => {
    if (seenDirs.has(realRel)) return
    seenDirs.add(realRel)
    let entries: Dirent[]
    try {
      entries = await readdir(abs, { withFileTypes: true })
    } catch (err) {
      if (depth === 0) {
        // What the folder's realpath says first, as when it was resolved before listing.
        try {
          await realDir()
        } catch (e) {
          problems.push({ path: abs, reason: `cannot resolve folder: ${errCode(e)}` })
          return
        }
      }
      problems.push({ path: abs, reason: `cannot list folder: ${errCode(err)}` })
      return
    }
    const visible = entries
      .filter((e) => !e.name.startsWith('.'))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const prefix = abs.endsWith(sep) ? abs : abs + sep
    const linked = visible.map((e) =>
      e.isFile() || e.isDirectory() || isSpecial(e) ? null : prefix + e.name,
    )
    // Resolve symlinks (and unknown kinds) of this folder several at once.
    const resolved = linked.some((p) => p !== null)
      ? await mapLimited(linked, RESOLVE_CONCURRENCY, async (p) =>
          p === null ? null : resolveLink(p, await realDirOrNull(realDir)),
        )
      : null
    for (let i = 0; i < visible.length; i++) {
      const e = visible[i]
      if (files.length >= TOPIC_SCAN_MAX_FILES) {
        problems.push({
          path: dir,
          reason: `more than ${TOPIC_SCAN_MAX_FILES} files; listing stopped`,
        })
        return
      }
      const name = e.name
      const childRel = rel === '' ? name : `${rel}/${name}`
      const entry: Resolved = resolved?.[i] ?? plainKind(e, realRel)
      if (entry.kind === 'problem') {
        problems.push({ path: prefix + name, reason: entry.reason })
      } else if (entry.kind === 'dir') {
        if (depth < TOPIC_SCAN_MAX_DEPTH) {
          await walk(prefix + name, entry.realRel, childRel, depth + 1)
        } else
          problems.push({
            path: prefix + name,
            reason: `deeper than ${TOPIC_SCAN_MAX_DEPTH} folders; not listed`,
          })
      } else if (
        entry.kind === 'file' &&
        name.toLowerCase().endsWith('.md') &&
        childRel !== indexName
      ) {
        files.push(childRel)
      }
    }
  }

  await walk(dir, '', '', 0)
  files.sort()
  return { files, problems }
}

/** Symlinks resolved at once per folder (each needs a `realpath` and a `stat`). */
const RESOLVE_CONCURRENCY = 16

type Resolved =
  | { readonly kind: 'file' | 'skip' }
  | { readonly kind: 'dir'; readonly realRel: string }
  | { readonly kind: 'problem'; readonly reason: string }

const FILE: Resolved = { kind: 'file' }
const SKIP: Resolved = { kind: 'skip' }

function isSpecial(e: Dirent): boolean {
  return e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice()
}

/** A listed entry that is not a symlink: a file, a folder (real path = parent's + name), or skipped. */
function plainKind(e: Dirent, parentRealRel: string): Resolved {
  if (e.isFile()) return FILE
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
    // Unresolvable counts as inside (escapesFolder): the stat below reports it.
  }
  if (real !== null && realDir !== null && !isInside(realDir, real)) {
    return { kind: 'problem', reason: 'symlink leads outside the memory folder; not followed' }
  }
  let st
  try {
    // stat follows symlinks and never opens the file, so FIFOs cannot block here.
    st = await stat(abs)
  } catch (err) {
    const code = errCode(err)
    // A dangling symlink is simply not a topic file; a loop or a permission error is worth saying.
    return code === 'ENOENT' ? SKIP : { kind: 'problem', reason: `cannot stat: ${code}` }
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
  return st.isFile() ? FILE : SKIP
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
}

/**
 * `join(dir, rel)` for a listed relative path (names from readdir joined by `/`, never `.`,
 * `..` or empty): nothing to normalize, so no `path.join` per file (issue 16: 10,000 orphans).
 */
function absoluteIn(dir: string, rel: string): string {
  const prefix = dir.endsWith(sep) ? dir : dir + sep
  return prefix + (sep === '/' ? rel : rel.split('/').join(sep))
}

/** A result with nothing loaded, for a file that could not be read. */
function unreadable(file: string, problems: readonly Problem[]): CutoffResult {
  return {
    file,
    totalLines: 0,
    totalBytes: 0,
    totalChars: 0,
    loadedLines: 0,
    loadedChars: 0,
    loadedBytes: 0,
    limitHit: null,
    firstUnloadedLine: null,
    entries: [],
    dangling: [],
    orphans: [],
    problems,
  }
}

/**
 * What of the MEMORY.md at `path` loads at session start, with its entries, dangling
 * links and orphan topic files (absolute paths). Unreadable input becomes a result
 * with zero counts and a problem naming the path and the reason.
 */
export async function cutoffFile(path: string): Promise<CutoffResult> {
  const file = resolve(path)
  const dir = dirname(file)
  const problems: Problem[] = []
  const topics = await listMemoryFolder(dir, basename(file))
  let read: TextRead = await readTextFile(file)
  if (!read.ok && read.problem === 'invalid-utf8') {
    problems.push({
      path: file,
      reason: 'not valid UTF-8; read with replacement characters (U+FFFD)',
    })
    read = await readTextFile(file, { lenient: true })
  }
  if (!read.ok) return unreadable(file, [...problems, { path: file, reason: read.reason }])
  const result = computeCutoff({
    file,
    text: read.text,
    totalBytes: read.bytes,
    topicFiles: topics.files,
  })
  return {
    ...result,
    orphans: result.orphans.map((rel) => absoluteIn(dir, rel)),
    problems: [...problems, ...topics.problems, ...result.problems],
  }
}
