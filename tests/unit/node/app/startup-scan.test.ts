/**
 * The startup scan (Backend.prefetchScan) answers the window's first scan only while nothing it
 * read changed: files written to a memory folder before the watcher was ready raise no event, so
 * the back end must see them itself (projects-stamp.ts).
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { projectsStamp } from '../../../../src/node/app/projects-stamp'
import { backendConfigFor } from '../../../helpers/backend-config'
import { createEvidenceFixture, type EvidenceFixture } from '../../../helpers/evidence-fixture'

let fx: EvidenceFixture
let api: Backend
beforeEach(async () => {
  fx = createEvidenceFixture()
  api = await createBackend(backendConfigFor(fx, { heavyWorker: null }))
})
afterEach(async () => {
  await api.dispose()
  fx.cleanup()
})

const topics = async (): Promise<string[]> =>
  (await api.scan()).projects
    .find((p) => p.memoryDir === fx.memoryDir)!
    .memoryFiles.map((f) => f.path)
    .sort()

describe('the startup scan', () => {
  it('is reused while the memory folders are as it found them', async () => {
    const first = await api.prefetchScan()
    expect(await api.scan()).toBe(first)
  })

  it('is not reused once a topic file was added, changed or removed with no watcher event', async () => {
    await api.prefetchScan()
    const added = join(fx.memoryDir, 'added-after-start.md')
    writeFileSync(added, '---\nname: Added\n---\n\nBody.\n')
    expect(await topics()).toContain(added)

    const kept = await api.prefetchScan()
    appendFileSync(fx.deployTopic, '\nOne more line.\n')
    expect(await api.scan()).not.toBe(kept)
    await api.prefetchScan()
    rmSync(added)
    expect(await topics()).not.toContain(added)
  })

  it('stamps a folder nested in the memory folder and a project with no memory folder yet', async () => {
    const a = await projectsStamp(fx.claudeHome)
    mkdirSync(join(fx.memoryDir, 'later', 'deeper'), { recursive: true })
    const b = await projectsStamp(fx.claudeHome)
    expect(b).not.toBe(a)
    writeFileSync(join(fx.memoryDir, 'later', 'deeper', 'note.md'), 'x\n')
    expect(await projectsStamp(fx.claudeHome)).not.toBe(b)
    mkdirSync(join(fx.claudeHome, 'projects', '-tmp-new-project'))
    expect(await projectsStamp(fx.claudeHome)).toContain('-tmp-new-project\u0000')
  })
})
