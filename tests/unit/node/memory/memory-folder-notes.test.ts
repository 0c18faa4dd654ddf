/**
 * One reader of a memory folder (issue 12 item 7): on one folder, every feature — the scan the
 * window lists, cutoff, audit, provenance, curation and the evidence of notes — sees the same
 * files and the same notes, a topic file two folders down and an upper-case `OLD.MD` included.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { memoryNotes } from '../../../../src/node/edits/memory-notes'
import { memoryFolderNotes } from '../../../../src/node/memory/memory-folder-notes'
import { backendConfigFor } from '../../../helpers/backend-config'
import { createEvidenceFixture, type EvidenceFixture } from '../../../helpers/evidence-fixture'

let fx: EvidenceFixture
let api: Backend
beforeAll(async () => {
  fx = createEvidenceFixture()
  api = await createBackend(backendConfigFor(fx, { heavyWorker: null }))
})
afterAll(async () => {
  await api.dispose()
  fx.cleanup()
})

type Span = { file: string; line: number; endLine: number }
const spans = (notes: readonly Span[]): string[] =>
  notes.map((n) => `${n.file}:${n.line}-${n.endLine}`).sort()

describe('the same notes in every feature', () => {
  it('lists, audits and traces the same files and notes', async () => {
    const files = [fx.index, fx.oldTopic, fx.deployTopic, fx.deepTopic].sort()

    const scan = await api.scan()
    const project = scan.projects.find((p) => p.memoryDir === fx.memoryDir)!
    expect(project.memoryFiles.map((f) => f.path).sort()).toEqual(files)

    const cutoff = await api.cutoff(fx.index)
    const linked = cutoff.entries.flatMap((e) => (e.target ? [join(fx.memoryDir, e.target)] : []))
    expect([fx.index, ...linked, ...cutoff.orphans].sort()).toEqual(files)

    const provenance = await api.provenance(fx.memoryDir)
    expect(provenance.files.map((f) => f.path).sort()).toEqual(files)
    // The topic file two folders down has its history.
    expect(provenance.files.find((f) => f.path === fx.deepTopic)?.writes).toHaveLength(1)

    const read = await memoryFolderNotes(fx.memoryDir)
    const noteFiles = new Set(
      read.notes.flatMap((n) => [n.file, ...(n.topicFile ? [n.topicFile] : [])]),
    )
    expect([...noteFiles].sort()).toEqual(files)

    const audit = await api.audit(fx.memoryDir, fx.repo)
    const curation = await memoryNotes(fx.memoryDir)
    const evidence = await api.noteEvidence(fx.memoryDir)
    expect(spans(audit.notes)).toEqual(spans(read.notes))
    expect(spans(curation)).toEqual(spans(read.notes))
    expect(spans(evidence.notes)).toEqual(spans(read.notes))
    // The entry keeps its continuation line in every one of them; the deep topic is audited.
    expect(spans(read.notes)).toContain(`${fx.index}:2-3`)
    const deep = audit.notes.find((n) => n.file === fx.deepTopic)
    expect(deep?.references.map((r) => r.text)).toContain('src/export.ts')
    expect(read.problems).toEqual([])
  })
})
