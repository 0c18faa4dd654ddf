/**
 * Streaming only the head of a JSONL transcript to learn where its session was
 * launched (docs/memory-rules.md §1.4). Transcripts run to hundreds of megabytes; we read at
 * most TRANSCRIPT_HEAD_MAX_BYTES / TRANSCRIPT_HEAD_MAX_LINES and stop at the first cwd.
 */
import { constants as fsConstants, type Stats } from 'node:fs'
import { stat } from 'node:fs/promises'
import { closeFd, fstatFd, openFd, readFd } from '../fs/fd'
import { TRANSCRIPT_HEAD_MAX_BYTES } from '../../core/limits'
import type { Problem } from '../../shared/model'
import type { TranscriptHead, TranscriptHeadState } from '../../core/transcripts/head'
import {
  EMPTY_TRANSCRIPT_HEAD,
  cutTranscriptHeadLine,
  stepTranscriptHead,
  withoutDone,
} from '../../core/transcripts/head'

/** The head of one transcript file, or why it could not be read. */
export interface TranscriptHeadRead extends TranscriptHead {
  /** Set when the file could not be read at all (missing, not a regular file, unreadable). */
  readonly problem: Problem | null
  /** Bytes actually read (never more than TRANSCRIPT_HEAD_MAX_BYTES). */
  readonly bytesRead: number
  /** True when the path is a regular file (it may still have failed to open). */
  readonly isFile: boolean
  /** True when reading stopped at the byte cap in the middle of a line. */
  readonly cut: boolean
  /** Size and modification time of the file; 0 when it is not a regular file. */
  readonly size: number
  readonly mtimeMs: number
}

/** Bytes asked for per read: most heads end within the first line, so start small. */
const CHUNK_BYTES = 16 * 1024
const NEWLINE = 0x0a
const lineDecoder = new TextDecoder('utf-8', { fatal: false })

function failed(
  path: string,
  reason: string,
  file?: { size: number; mtimeMs: number },
): TranscriptHeadRead {
  return {
    ...withoutDone(EMPTY_TRANSCRIPT_HEAD),
    problem: { path, reason },
    bytesRead: 0,
    isFile: file !== undefined,
    cut: false,
    size: file?.size ?? 0,
    mtimeMs: file?.mtimeMs ?? 0,
  }
}

export interface TranscriptHeadOptions {
  /**
   * The path was just listed as a regular file (a `Dirent` with `isFile()`): skip the `stat`
   * before opening it. Anything unusual is read the usual way, so the result is the same.
   */
  readonly listedFile?: boolean
  /** Called with the stat of the descriptor read, taken before reading (the scan cache's identity). */
  readonly onStat?: (st: Stats) => void
}

/**
 * Read the head of the transcript at `path`: the first line with a string `cwd`,
 * counting malformed lines on the way. Never throws, never blocks on a FIFO.
 */
export async function readTranscriptHead(
  path: string,
  options: TranscriptHeadOptions = {},
): Promise<TranscriptHeadRead> {
  if (options.listedFile) {
    const fast = await readListedHead(path, options.onStat)
    if (fast) return fast
  }
  let st
  try {
    st = await stat(path)
  } catch (err) {
    return failed(path, statReason((err as NodeJS.ErrnoException).code))
  }
  if (st.isDirectory()) return failed(path, 'is a directory')
  // A FIFO would block the first read forever: only regular files are opened.
  if (!st.isFile()) return failed(path, 'not a regular file (FIFO, socket or device)')
  let fd: number
  try {
    fd = await openFd(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch (err) {
    return failed(path, `cannot open: ${codeOf(err)}`, st)
  }
  try {
    return (
      (await readOpenHead(fd, options.onStat)) ??
      failed(path, 'not a regular file (FIFO, socket or device)')
    )
  } catch (err) {
    return failed(path, `cannot read: ${codeOf(err)}`, st)
  } finally {
    await closeFd(fd)
  }
}

/** The head of an open file, with its size and mtime from the same descriptor; null when not a regular file. */
async function readOpenHead(
  fd: number,
  onStat?: (st: Stats) => void,
): Promise<TranscriptHeadRead | null> {
  const st = await fstatFd(fd)
  if (!st.isFile()) return null
  onStat?.(st)
  const { state, bytesRead, cut } = await streamHead(fd)
  return {
    ...withoutDone(state),
    problem: null,
    bytesRead,
    isFile: true,
    cut,
    size: st.size,
    mtimeMs: st.mtimeMs,
  }
}

/** The head of a listed regular file: open, fstat, read, close; null when anything is unusual. */
async function readListedHead(
  path: string,
  onStat?: (st: Stats) => void,
): Promise<TranscriptHeadRead | null> {
  let fd: number
  try {
    // O_NONBLOCK: if the path was swapped for a FIFO since the listing, opening can't block.
    fd = await openFd(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch {
    return null
  }
  try {
    return await readOpenHead(fd, onStat)
  } catch {
    return null
  } finally {
    await closeFd(fd)
  }
}

/** Read chunks until the head is decided, the byte cap is reached or the file ends. */
async function streamHead(
  fd: number,
): Promise<{ state: TranscriptHeadState; bytesRead: number; cut: boolean }> {
  let state = EMPTY_TRANSCRIPT_HEAD
  let cut = false
  let pending = Buffer.alloc(0)
  let position = 0
  while (!state.done) {
    const want = Math.min(CHUNK_BYTES, TRANSCRIPT_HEAD_MAX_BYTES - position)
    if (want <= 0) {
      // Byte cap reached in the middle of a line (docs/memory-rules.md §5.1: tolerate, don't fail).
      if (pending.length > 0) {
        state = cutTranscriptHeadLine(state)
        cut = true
      }
      break
    }
    const chunk = Buffer.alloc(want)
    const bytesRead = await readFd(fd, chunk, 0, want, position)
    if (bytesRead === 0) {
      // End of file: an unterminated last line is still a whole line.
      if (pending.length > 0) state = stepTranscriptHead(state, lineDecoder.decode(pending))
      break
    }
    position += bytesRead
    pending =
      pending.length === 0
        ? chunk.subarray(0, bytesRead)
        : Buffer.concat([pending, chunk.subarray(0, bytesRead)])
    let start = 0
    let nl = pending.indexOf(NEWLINE, start)
    while (nl !== -1 && !state.done) {
      state = stepTranscriptHead(state, lineDecoder.decode(pending.subarray(start, nl)))
      start = nl + 1
      nl = pending.indexOf(NEWLINE, start)
    }
    pending = pending.subarray(start)
  }
  return { state, bytesRead: position, cut }
}

function statReason(code: string | undefined): string {
  if (code === 'ENOENT') return 'no such file'
  if (code === 'ELOOP') return 'symlink loop'
  return `cannot stat: ${code ?? 'unknown error'}`
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
}
