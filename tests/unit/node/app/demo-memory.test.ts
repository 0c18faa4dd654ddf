/** materializeDemo: the memory folder and the transcripts that replay to it. */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../../../src/core/limits'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { countLines, splitLines } from '../../../../src/core/text'
import {
  filesUnder,
  readJsonl,
  memoryOps,
  buildDemo,
  removeDemo,
  demo,
  memoryDir,
  type MemOp,
} from './demo-fixture'

beforeAll(buildDemo)
afterAll(removeDemo)

describe('materializeDemo: memory and transcripts', () => {
  it('has a MEMORY.md that runs past the line cutoff but not the character cutoff', async () => {
    const text = await readFile(join(memoryDir, 'MEMORY.md'), 'utf8')
    expect(countLines(text)).toBe(230)
    expect(countLines(text)).toBeGreaterThan(MEMORY_MAX_LINES)
    expect(text.length).toBeLessThan(MEMORY_MAX_CHARS)
    const tail = splitLines(text).slice(MEMORY_MAX_LINES)
    expect(tail.filter((l) => l.startsWith('- ['))).toEqual([
      '- [Payments retry](payments-retry.md) — chargeCard retries transport errors with one idempotency key per order',
      '- [Coupons](coupons.md) — percent and fixed discounts, applied before tax (branch feature/coupons)',
      '- [API conventions](api-conventions.md) — rate limit per client address, error shape, where routes live',
      '- [Payment webhooks](payment-webhooks.md) — how gateway events will reach the orders table',
    ])
  })

  it('has exactly one orphan topic file and one dangling entry', async () => {
    const text = await readFile(join(memoryDir, 'MEMORY.md'), 'utf8')
    const linked = [...text.matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => m[1])
    const topics = (await readdir(memoryDir)).filter((n) => n !== 'MEMORY.md')
    expect(topics).toHaveLength(10)
    expect(topics.filter((t) => !linked.includes(t))).toEqual(['deploy-checklist.md'])
    expect(linked.filter((l) => !topics.includes(l))).toEqual(['payment-webhooks.md'])
  })

  it('gives topic files frontmatter, and one note Korean and emoji', async () => {
    for (const t of (await readdir(memoryDir)).filter((n) => n !== 'MEMORY.md')) {
      const text = await readFile(join(memoryDir, t), 'utf8')
      expect(text, t).toMatch(
        /^---\nname: .+\ndescription: .+\ntype: (user|feedback|project|reference)\noriginSessionId: [0-9a-f-]{36}\n/,
      )
      expect(text, t).toContain('**Why:**')
      expect(text, t).toContain('**How to apply:**')
    }
    const prefs = await readFile(join(memoryDir, 'team-preferences.md'), 'utf8')
    expect(prefs).toMatch(/[\uac00-\ud7a3]/)
    expect(prefs).toContain('🙏')
    expect(prefs).not.toContain('`')
  })

  it('writes only valid JSON lines whose cwd is a materialised folder', async () => {
    const cwds = new Set([demo.repoRoot, demo.worktreeRoot, join(demo.root, 'code', 'notes-site')])
    const transcripts = (await filesUnder(join(demo.claudeHome, 'projects'))).filter((f) =>
      f.endsWith('.jsonl'),
    )
    expect(transcripts).toHaveLength(7)
    for (const f of transcripts) {
      const folder = f.slice(join(demo.claudeHome, 'projects').length + 1).split(/[/\\]/)[0]
      for (const line of await readJsonl(f)) {
        if (line.cwd === undefined) continue
        expect(cwds.has(line.cwd as string), `${f}: ${String(line.cwd)}`).toBe(true)
        expect(encodeProjectDir(line.cwd as string)).toBe(folder)
        expect(
          typeof line.timestamp === 'string' && !Number.isNaN(Date.parse(line.timestamp)),
        ).toBe(true)
      }
    }
  })

  it('replays to the memory files on disk, and records the lost line', async () => {
    const ops = await memoryOps(demo)
    const byFile = new Map<string, MemOp[]>()
    for (const op of ops.filter((o) => o.ok))
      byFile.set(op.path, [...(byFile.get(op.path) ?? []), op])
    expect(byFile.size).toBe(13) // all 11 acme-shop memory files + 2 of notes-site
    for (const [path, list] of byFile) {
      const ok = [...list].sort((a, b) => a.timestamp.localeCompare(b.timestamp))
      const lastWrite = ok.map((o) => o.tool).lastIndexOf('Write')
      expect(lastWrite, path).toBeGreaterThanOrEqual(0)
      let content = ok[lastWrite].content ?? ''
      for (const e of ok.slice(lastWrite + 1)) {
        expect(content.split(e.oldString ?? '').length, path).toBe(2)
        content = content.replace(e.oldString ?? '', e.newString ?? '')
      }
      expect(content, path).toBe(await readFile(path, 'utf8'))
      // The file's mtime is the time of its last successful write.
      const mtime = (await stat(path)).mtimeMs
      expect(Math.abs(mtime - Date.parse(ok[ok.length - 1].timestamp)), path).toBeLessThan(2)
    }
    const index = join(memoryDir, 'MEMORY.md')
    const deploy = '- [Deploy checklist](deploy-checklist.md)'
    const adder = ops.find((o) => o.path === index && o.ok && o.newString?.includes(deploy))
    const dropper = ops.find(
      (o) =>
        o.path === index && o.ok && o.tool === 'Write' && o.timestamp > (adder?.timestamp ?? ''),
    )
    expect(adder?.cwd).toBe(demo.repoRoot)
    expect(dropper?.cwd).toBe(demo.worktreeRoot)
    expect(dropper?.sessionId).not.toBe(adder?.sessionId)
    expect(dropper?.content).not.toContain(deploy)
    expect(
      ops
        .filter((o) => !o.ok)
        .map((o) => `${o.tool} ${o.path.split(/[/\\]/).pop()}`)
        .sort(),
    ).toEqual(['Edit testing.md', 'Write payment-webhooks.md'])
  })

  it('dates transcripts by their last line', async () => {
    const transcripts = (await filesUnder(join(demo.claudeHome, 'projects'))).filter((f) =>
      f.endsWith('.jsonl'),
    )
    for (const f of transcripts) {
      const lines = await readJsonl(f)
      const last = [...lines].reverse().find((l) => typeof l.timestamp === 'string')
      expect(
        Math.abs((await stat(f)).mtimeMs - Date.parse(last?.timestamp as string)),
        f,
      ).toBeLessThan(2)
    }
  })
})
