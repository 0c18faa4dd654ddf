import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import type { EditOutcome } from '../../../../src/shared/model'
import { provenance } from '../../../../src/node/transcripts/provenance'
import { createReview, type Review } from '../../../../src/node/edits/review-snapshots'
import { hashContent, safeWrite } from '../../../../src/node/edits/safe-write'
import {
  AFTER_RESTORE,
  LOST_LINE,
  ON_DISK,
  SESSION_A,
  SESSION_B,
  at,
  createWorktreeFixture,
  toolCall,
  toolResult,
  type WorktreeFixture,
} from '../../../helpers/worktree-fixture'

let f: WorktreeFixture
let review: Review
let writes: string[]

beforeEach(() => {
  f = createWorktreeFixture()
  writes = []
  review = createReview({
    stateDir: f.stateDir,
    claudeHome: f.claudeHome,
    // The real safe write path, as the curation module would call it.
    writeFile: async (path, expectedHash, newText, reason): Promise<EditOutcome> => {
      writes.push(reason)
      const r = await safeWrite({
        path,
        expectedHash,
        newText,
        reason,
        backupsDir: join(f.stateDir, 'backups'),
      })
      if (r.kind === 'written')
        return { kind: 'written', path, hash: r.hash, operationId: r.operation?.id ?? null }
      if (r.kind === 'conflict')
        return { kind: 'conflict', path, currentHash: r.currentHash, currentText: r.currentText }
      return { kind: 'error', path, reason: r.reason }
    },
  })
})

afterEach(() => f.cleanup())

const hashOf = (path: string): string => hashContent(readFileSync(path))

describe('the worktree fixture', () => {
  it('has the lost line, a failed edit and both sessions on their branches', async () => {
    const r = await provenance({ claudeHome: f.claudeHome, memoryDir: f.memoryDir })
    const m = r.files.find((x) => x.path === f.memoryFile)!
    expect(m.writes.map((w) => [w.sessionId, w.timestamp, w.tool, w.ok, w.gitBranch])).toEqual([
      [SESSION_A, at(1), 'Write', true, 'main'],
      [SESSION_A, at(3), 'Edit', true, 'main'],
      [SESSION_B, at(5), 'Edit', false, 'feature'],
      [SESSION_B, at(7), 'Write', true, 'feature'],
      [SESSION_A, at(9), 'Edit', true, 'main'],
    ])
    expect(m.lost.map((l) => [l.text, l.addedBy, l.removedBy])).toEqual([
      [LOST_LINE, SESSION_A, SESSION_B],
    ])
  })
})

describe('restoreLostLine', () => {
  it('puts the line back where it stood and changes nothing else', async () => {
    const out = await review.restoreLostLine(
      f.memoryDir,
      f.memoryFile,
      LOST_LINE,
      hashOf(f.memoryFile),
    )
    expect(out).toMatchObject({ kind: 'written', path: f.memoryFile })
    expect(readFileSync(f.memoryFile, 'utf8')).toBe(AFTER_RESTORE)
    expect(AFTER_RESTORE.replace(`${LOST_LINE}\n`, '')).toBe(ON_DISK)
    expect(writes).toEqual(['restore lost line'])
  })

  it('reports a conflict on a stale hash and writes nothing', async () => {
    const stale = hashContent('an older version')
    const out = await review.restoreLostLine(f.memoryDir, f.memoryFile, LOST_LINE, stale)
    expect(out).toEqual({
      kind: 'conflict',
      path: f.memoryFile,
      currentHash: hashOf(f.memoryFile),
      currentText: ON_DISK,
    })
    expect(readFileSync(f.memoryFile, 'utf8')).toBe(ON_DISK)
    expect(writes).toEqual([])
  })

  it('refuses a line that is already there', async () => {
    await review.restoreLostLine(f.memoryDir, f.memoryFile, LOST_LINE, hashOf(f.memoryFile))
    const again = await review.restoreLostLine(
      f.memoryDir,
      f.memoryFile,
      LOST_LINE,
      hashOf(f.memoryFile),
    )
    expect(again).toEqual({
      kind: 'error',
      path: f.memoryFile,
      reason: 'the line is already in the file (line 5)',
    })
    expect(writes).toHaveLength(1)
  })

  it('names the file when it cannot be read', async () => {
    const missing = join(f.memoryDir, 'gone.md')
    const out = await review.restoreLostLine(f.memoryDir, missing, LOST_LINE, hashContent(''))
    expect(out).toEqual({ kind: 'error', path: missing, reason: 'no such file' })
  })
})

describe('review snapshots', () => {
  it('says "never reviewed" and attributes every line until the first mark', async () => {
    const d = await review.reviewDiff(f.memoryDir, f.memoryFile)
    expect(d.snapshot).toBeNull()
    expect(d.current).toEqual({ text: ON_DISK, hash: hashOf(f.memoryFile) })
    expect(d.attributions.map((a) => a.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(d.attributions[6]).toMatchObject({
      line: 7,
      sessionId: SESSION_B,
      gitBranch: 'feature',
      cwd: f.worktree,
    })
    expect(d.attributions[7]).toMatchObject({
      line: 8,
      sessionId: SESSION_A,
      gitBranch: 'main',
      timestamp: at(9),
    })
  })

  it('marks, then shows only the lines added since, with the session that wrote them', async () => {
    const mark = await review.markReviewed(f.memoryFile, hashOf(f.memoryFile))
    expect(mark.hash).toBe(hashOf(f.memoryFile))
    expect(Number.isNaN(Date.parse(mark.at))).toBe(false)
    const clean = await review.reviewDiff(f.memoryDir, f.memoryFile)
    expect(clean.snapshot).toEqual({ text: ON_DISK, at: mark.at, hash: mark.hash })
    expect(clean.attributions).toEqual([])

    // A third session (in the linked worktree) adds a note; someone also types a line by hand.
    const c = {
      sessionId: 'cccccccc-3333-4333-8333-00000000000c',
      cwd: f.worktree,
      gitBranch: 'feature',
    }
    const withC = ON_DISK.replace('## Worktrees\n', '## Worktrees\n- Worktrees live under repos/\n')
    const transcript = join(
      f.claudeHome,
      'projects',
      encodeProjectDir(f.worktree),
      `${c.sessionId}.jsonl`,
    )
    appendFileSync(
      transcript,
      [
        toolCall(c, 'toolu_C1', 20, 'Edit', {
          file_path: f.memoryFile,
          old_string: '## Worktrees\n',
          new_string: '## Worktrees\n- Worktrees live under repos/\n',
        }),
        toolResult(c, 'toolu_C1', 20, {
          filePath: f.memoryFile,
          originalFile: ON_DISK,
          structuredPatch: [],
        }),
        '',
      ].join('\n'),
    )
    writeFileSync(f.memoryFile, `${withC}- typed by hand\n`)

    const d = await review.reviewDiff(f.memoryDir, f.memoryFile)
    expect(d.snapshot?.text).toBe(ON_DISK)
    expect(d.current?.text).toBe(`${withC}- typed by hand\n`)
    expect(d.attributions).toEqual([
      { line: 7, sessionId: c.sessionId, timestamp: at(20), gitBranch: 'feature', cwd: f.worktree },
      { line: 10, sessionId: null, timestamp: null, gitBranch: null, cwd: null },
    ])
    expect(d.problems).toEqual([])
  })

  it('refuses to mark a file that changed since it was shown, naming it', async () => {
    const shown = hashOf(f.memoryFile)
    writeFileSync(f.memoryFile, `${ON_DISK}- more\n`)
    await expect(review.markReviewed(f.memoryFile, shown)).rejects.toThrow(
      `${f.memoryFile} changed since you looked at it`,
    )
    expect((await review.reviewDiff(f.memoryDir, f.memoryFile)).snapshot).toBeNull()
  })

  it('keeps every snapshot and diffs against the latest', async () => {
    await review.markReviewed(f.memoryFile, hashOf(f.memoryFile))
    writeFileSync(f.memoryFile, `${ON_DISK}- second\n`)
    const second = await review.markReviewed(f.memoryFile, hashOf(f.memoryFile))
    const dirs = readdirSync(join(f.stateDir, 'review-snapshots'))
    expect(dirs).toHaveLength(1)
    expect(readdirSync(join(f.stateDir, 'review-snapshots', dirs[0]))).toHaveLength(2)
    const d = await review.reviewDiff(f.memoryDir, f.memoryFile)
    expect(d.snapshot).toEqual({ text: `${ON_DISK}- second\n`, at: second.at, hash: second.hash })
    expect(d.attributions).toEqual([])
  })
})
