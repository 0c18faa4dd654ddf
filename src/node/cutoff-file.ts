/**
 * The cutoff of a MEMORY.md on disk (memory-facts §2): reads it safely, lists the
 * topic files beside it and applies `computeCutoff`. Never throws, never hangs.
 */
import { readdir, realpath, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { computeCutoff, MEMORY_INDEX_NAME } from '../core/cutoff'
import type { CutoffResult, Problem } from '../core/model'
import { escapesFolder, realpathLoose } from './path-guard'
import { readTextFile } from './safe-read'
import { TOPIC_SCAN_MAX_DEPTH, TOPIC_SCAN_MAX_FILES } from '../core/limits'

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
  const files: string[] = []
  const problems: Problem[] = []
  const seenDirs = new Set<string>()
  const realDir = await realpathLoose(dir)

  const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
    let real: string
    try {
      real = await realpath(abs)
    } catch (err) {
      problems.push({ path: abs, reason: `cannot resolve folder: ${errCode(err)}` })
      return
    }
    if (seenDirs.has(real)) return
    seenDirs.add(real)
    let names: string[]
    try {
      names = (await readdir(abs)).sort()
    } catch (err) {
      problems.push({ path: abs, reason: `cannot list folder: ${errCode(err)}` })
      return
    }
    for (const name of names) {
      if (name.startsWith('.')) continue
      if (files.length >= TOPIC_SCAN_MAX_FILES) {
        problems.push({
          path: dir,
          reason: `more than ${TOPIC_SCAN_MAX_FILES} files; listing stopped`,
        })
        return
      }
      const childAbs = join(abs, name)
      const childRel = rel === '' ? name : `${rel}/${name}`
      if (await escapesFolder(childAbs, realDir)) {
        problems.push({
          path: childAbs,
          reason: 'symlink leads outside the memory folder; not followed',
        })
        continue
      }
      let st
      try {
        // stat follows symlinks and never opens the file, so FIFOs cannot block here.
        st = await stat(childAbs)
      } catch (err) {
        const code = errCode(err)
        // A dangling symlink is simply not a topic file; a loop or a permission error is worth saying.
        if (code !== 'ENOENT') problems.push({ path: childAbs, reason: `cannot stat: ${code}` })
        continue
      }
      if (st.isDirectory()) {
        if (depth < TOPIC_SCAN_MAX_DEPTH) await walk(childAbs, childRel, depth + 1)
        else
          problems.push({
            path: childAbs,
            reason: `deeper than ${TOPIC_SCAN_MAX_DEPTH} folders; not listed`,
          })
      } else if (st.isFile() && name.toLowerCase().endsWith('.md') && childRel !== indexName) {
        files.push(childRel)
      }
    }
  }

  await walk(dir, '', 0)
  files.sort()
  return { files, problems }
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
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
  const problems: Problem[] = []
  let read = await readTextFile(file)
  if (!read.ok && read.problem === 'invalid-utf8') {
    problems.push({
      path: file,
      reason: 'not valid UTF-8; read with replacement characters (U+FFFD)',
    })
    read = await readTextFile(file, { lenient: true })
  }
  if (!read.ok) return unreadable(file, [...problems, { path: file, reason: read.reason }])

  const dir = dirname(file)
  const topics = await listTopicFiles(dir, basename(file))
  const result = computeCutoff({
    file,
    text: read.text,
    totalBytes: read.bytes,
    topicFiles: topics.files,
  })
  return {
    ...result,
    orphans: result.orphans.map((rel) => join(dir, rel)),
    problems: [...problems, ...topics.problems, ...result.problems],
  }
}
