/**
 * The cutoff of a MEMORY.md on disk (docs/memory-rules.md §2): reads it safely, lists the
 * topic files beside it and applies `computeCutoff`. Never throws, never hangs.
 */
import { basename, dirname, resolve, sep } from 'node:path'
import { computeCutoff, MEMORY_INDEX_NAME } from '../../core/memory/cutoff'
import type { CutoffResult, Problem } from '../../shared/model'
import type { TextRead } from '../fs/safe-read'
import { readTextFile } from '../fs/safe-read'
import { listMemoryFolder, type MemoryFolderListing } from './memory-folder'

export type TopicListing = MemoryFolderListing

/**
 * The topic files of a memory folder: the one listing every feature uses (memory-folder.ts),
 * as relative paths, except the index itself.
 */
export async function listTopicFiles(
  dir: string,
  indexName = MEMORY_INDEX_NAME,
): Promise<TopicListing> {
  return listMemoryFolder(dir, indexName)
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
