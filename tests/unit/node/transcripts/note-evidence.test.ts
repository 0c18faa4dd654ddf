/**
 * The session that wrote each note, live and after Claude Code deleted its transcript
 * (issue 12 items 9 and 10), on a temp Claude home whose transcript wrote the memory folder.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { noteEvidence, noteOrigin } from '../../../../src/node/transcripts/note-evidence'
import { EVIDENCE_ENTRY_MAX_BYTES } from '../../../../src/core/limits'
import {
  createEvidenceFixture,
  HAND_LINE,
  HOSTILE_RESULT,
  PERSON_WORDS,
  PERSON_WORDS_2,
  type EvidenceFixture,
} from '../../../helpers/evidence-fixture'

let fx: EvidenceFixture
beforeEach(() => {
  fx = createEvidenceFixture()
})
afterEach(() => fx.cleanup())

const opts = () => ({
  claudeHome: fx.claudeHome,
  stateDir: fx.stateDir,
  cacheDir: join(fx.stateDir, 'provenance-cache'),
  memoryDir: fx.memoryDir,
})

function archiveFiles(): string[] {
  const root = join(fx.stateDir, 'evidence', 'v1')
  if (!existsSync(root)) return []
  return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((n) => join(root, d, n)))
}

describe('noteEvidence', () => {
  it('says which notes have live evidence and which never will, and archives what it saw', async () => {
    const r = await noteEvidence(opts())
    const by = new Map(r.notes.map((n) => [n.title, n.evidence]))
    expect([...by.keys()].sort()).toEqual(
      ['CSV export', 'Deploy', 'Old habit', 'Reviews happen on Fridays (typed by hand)'].sort(),
    )
    expect(by.get('Deploy')).toMatchObject({ state: 'live', writes: 2 })
    // The topic file two folders down has its evidence too (the one listing, item 7).
    expect(by.get('CSV export')).toMatchObject({ state: 'live', writes: 1 })
    expect(by.get('Reviews happen on Fridays (typed by hand)')).toMatchObject({
      state: 'none',
      never: 'by-hand',
    })
    expect(by.get('Old habit')).toMatchObject({ state: 'none', never: 'before-transcripts' })
    // Three writes seen: three entries, none in the Claude home.
    const files = archiveFiles()
    expect(files).toHaveLength(3)
    for (const f of files) expect(f.startsWith(fx.stateDir)).toBe(true)
    for (const f of files) expect(statSync(f).size).toBeLessThanOrEqual(EVIDENCE_ENTRY_MAX_BYTES)
  })

  it('keeps the evidence after the transcript is deleted', async () => {
    await noteEvidence(opts())
    rmSync(fx.transcript)
    const r = await noteEvidence(opts())
    const by = new Map(r.notes.map((n) => [n.title, n.evidence]))
    expect(by.get('Deploy')).toMatchObject({ state: 'archived', writes: 2 })
    expect(by.get('CSV export')).toMatchObject({ state: 'archived', writes: 1 })
    expect(by.get('Reviews happen on Fridays (typed by hand)')?.state).toBe('none')
    const origin = await noteOrigin({ ...opts(), file: fx.deepTopic, line: 1 })
    expect(origin?.evidence.state).toBe('archived')
    expect(origin?.writes[0].source).toBe('archived')
    expect(origin?.writes[0].items.map((i) => i.text)).toContain(PERSON_WORDS_2)
  })

  it('without a prior look, a deleted transcript leaves nothing (the archive is what keeps it)', async () => {
    rmSync(fx.transcript)
    const r = await noteEvidence(opts())
    expect(r.notes.every((n) => n.evidence.state === 'none')).toBe(true)
    expect(archiveFiles()).toEqual([])
  })
})

describe('noteOrigin', () => {
  it("shows the person's words and the tool results before the write, as plain text", async () => {
    const o = await noteOrigin({ ...opts(), file: fx.index, line: 2 })
    expect(o).not.toBeNull()
    expect(o!.title).toBe('Deploy')
    expect([o!.line, o!.endLine]).toEqual([2, 3])
    expect(o!.evidence.state).toBe('live')
    // Newest write first: the topic file, then the index.
    expect(o!.writes.map((w) => w.toolUseId)).toEqual(['toolu_deploy', 'toolu_index'])
    const items = o!.writes[1].items
    expect(items.map((i) => i.kind)).toEqual(['person', 'agent', 'tool', 'write'])
    expect(items[0].text).toBe(PERSON_WORDS)
    expect(items[2]).toMatchObject({ tool: 'Bash', input: 'cat scripts/deploy.sh' })
    // Markup stays text; the escape sequence and the direction override are gone.
    expect(items[2].text).toContain('<script>window.__pwned=2</script>')
    expect(items[2].text).not.toMatch(/[\u001b\u202e]/)
    expect(HOSTILE_RESULT).toMatch(/[\u001b\u202e]/)
    expect(items[3]).toMatchObject({ kind: 'write', tool: 'Write', input: fx.index })
    expect(o!.writes[1].source).toBe('live')
    expect(o!.writes[1].archivedAt).not.toBeNull()
  })

  it('finds the entry from its linked topic file, and nothing where there is no note', async () => {
    const o = await noteOrigin({ ...opts(), file: fx.deployTopic, line: 5 })
    expect(o?.title).toBe('Deploy')
    expect(await noteOrigin({ ...opts(), file: fx.index, line: 99 })).toBeNull()
  })

  it('a note typed by hand has no writes and says why', async () => {
    const line = readFileSync(fx.index, 'utf8').split('\n').indexOf(HAND_LINE) + 1
    const o = await noteOrigin({ ...opts(), file: fx.index, line })
    expect(o?.writes).toEqual([])
    expect(o?.evidence).toMatchObject({ state: 'none', never: 'by-hand' })
  })
})
