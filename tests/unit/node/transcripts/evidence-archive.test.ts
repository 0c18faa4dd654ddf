/** The evidence archive: one immutable file per write, bounded per entry and in total, damage skipped. */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EvidenceArchive } from '../../../../src/node/transcripts/evidence-archive'
import {
  EVIDENCE_ARCHIVE_MAX_BYTES,
  EVIDENCE_ENTRY_MAX_BYTES,
  EXCERPT_ITEM_MAX_CHARS,
} from '../../../../src/core/limits'
import type { ExcerptItem } from '../../../../src/shared/evidence-model'

let state: string
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'mc-archive-'))
})
afterEach(() => rmSync(state, { recursive: true, force: true }))

const it_ = (kind: ExcerptItem['kind'], text: string): ExcerptItem => ({
  kind,
  timestamp: '2026-03-01T10:00:00.000Z',
  tool: kind === 'write' ? 'Write' : null,
  input: null,
  text,
  truncated: false,
  failed: false,
})

const entry = (
  id: string,
  items: ExcerptItem[] = [it_('person', 'remember'), it_('write', 'x')],
) => ({
  memoryFile: '/m/memory/MEMORY.md',
  sessionId: 's1',
  toolUseId: id,
  timestamp: '2026-03-01T10:00:00.000Z',
  tool: 'Write',
  transcript: '/c/projects/p/s1.jsonl',
  lines: ['- a note'],
  excerpt: { items, omitted: 0 },
})

function files(root: string): string[] {
  return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((n) => join(root, d, n)))
}

describe('EvidenceArchive', () => {
  it("keeps an entry once, reads it back, and lists a file's entries", async () => {
    const a = new EvidenceArchive(state)
    const put = await a.put(entry('w1'), new Date('2026-03-02T00:00:00Z'))
    expect(put.ok).toBe(true)
    // A second put of the same write keeps the first entry (created once, never rewritten).
    const again = await a.put(
      { ...entry('w1'), lines: ['changed'] },
      new Date('2026-03-03T00:00:00Z'),
    )
    expect(again.ok && again.entry.archivedAt).toBe('2026-03-02T00:00:00.000Z')
    expect(again.ok && again.entry.lines).toEqual(['- a note'])
    await a.put(entry('w2'))
    expect((await a.list('/m/memory/MEMORY.md')).map((e) => e.toolUseId).sort()).toEqual([
      'w1',
      'w2',
    ])
    expect(await a.list('/m/memory/other.md')).toEqual([])
    expect(files(a.root)).toHaveLength(2)
    expect(a.root.startsWith(state)).toBe(true)
  })

  it('two archives putting the same write at once leave one entry, both answered', async () => {
    const [x, y] = await Promise.all([
      new EvidenceArchive(state).put(entry('w')),
      new EvidenceArchive(state).put(entry('w')),
    ])
    expect(x.ok && y.ok).toBe(true)
    expect(files(new EvidenceArchive(state).root)).toHaveLength(1)
  })

  it('fits a large excerpt into the entry bound, dropping the oldest items, keeping the write', async () => {
    const big = Array.from({ length: 80 }, (_, i) =>
      it_('tool', `${i}`.padEnd(EXCERPT_ITEM_MAX_CHARS, '\u0001')),
    )
    const a = new EvidenceArchive(state)
    const put = await a.put(entry('w', [...big, it_('write', 'the note')]))
    expect(put.ok).toBe(true)
    const [file] = files(a.root)
    expect(statSync(file).size).toBeLessThanOrEqual(EVIDENCE_ENTRY_MAX_BYTES)
    const back = await a.get('/m/memory/MEMORY.md', 's1', 'w')
    expect(back?.excerpt.items.at(-1)?.text).toBe('the note')
    expect(back!.excerpt.omitted).toBeGreaterThan(0)
    expect(back!.excerpt.omitted + back!.excerpt.items.length).toBe(81)
  })

  it('refuses new entries when the archive is full, and keeps the old ones', async () => {
    const a = new EvidenceArchive(state)
    expect((await a.put(entry('old'))).ok).toBe(true)
    const filler = join(a.root, 'ffffffffffffffff')
    mkdirSync(filler, { recursive: true })
    writeFileSync(join(filler, 'filler'), '')
    truncateSync(join(filler, 'filler'), EVIDENCE_ARCHIVE_MAX_BYTES) // sparse
    const fresh = new EvidenceArchive(state)
    const put = await fresh.put(entry('new'))
    expect(put).toEqual({
      ok: false,
      reason: 'not archived: the evidence archive is full (64 MiB)',
    })
    expect((await fresh.list('/m/memory/MEMORY.md')).map((e) => e.toolUseId)).toEqual(['old'])
  })

  it('skips damaged, foreign and hostile entries', async () => {
    const a = new EvidenceArchive(state)
    await a.put(entry('good'))
    const dir = a.dirFor('/m/memory/MEMORY.md')
    writeFileSync(join(dir, `${'a'.repeat(24)}.json`), '{not json')
    writeFileSync(
      join(dir, `${'b'.repeat(24)}.json`),
      JSON.stringify({
        ...entry('x'),
        layout: 'v1',
        archivedAt: 'now',
        memoryFile: '/elsewhere.md',
      }),
    )
    const hostile = { ...entry('h'), layout: 'v1', archivedAt: 'now' }
    ;(hostile.excerpt.items as unknown[]).push({
      kind: 'person',
      timestamp: 't',
      text: 'ok',
      tool: { evil: 1 },
    })
    writeFileSync(join(dir, `${'c'.repeat(24)}.json`), JSON.stringify(hostile))
    const list = await a.list('/m/memory/MEMORY.md')
    expect(list.map((e) => e.toolUseId).sort()).toEqual(['good', 'h'])
    const h = list.find((e) => e.toolUseId === 'h')!
    expect(h.excerpt.items.at(-1)).toEqual({
      kind: 'person',
      timestamp: 't',
      tool: null,
      input: null,
      text: 'ok',
      truncated: false,
      failed: false,
    })
  })
})
