/**
 * The startup scan (Backend.prefetchScan) answers the window's first scan only while nothing it
 * read changed: files written to a memory folder before the watcher was ready raise no event, so
 * the back end must see them itself (projects-stamp.ts).
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { changedPaths, projectsStamp } from '../../../../src/node/app/projects-stamp'
import { createStartupScan } from '../../../../src/node/app/startup-scan'
import { scanClaudeHome } from '../../../../src/node/memory/scan'
import type { ScanResult } from '../../../../src/shared/model'
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
    expect(await projectsStamp(fx.claudeHome)).toContain('-tmp-new-project\u0001')
    // A stray file among the project folders: stamped by its time, its `memory` never read.
    writeFileSync(join(fx.claudeHome, 'projects', '.DS_Store'), 'x')
    expect(await projectsStamp(fx.claudeHome)).toMatch(/^\.DS_Store\u0001\d/m)
  })
})

describe('the recheck once the watcher is ready', () => {
  const changes = (): string[][] => {
    const seen: string[][] = []
    api.onDidChange((e) => seen.push([...e.paths]))
    return seen
  }

  it('reports nothing when the memory folders are as the startup scan found them', async () => {
    const seen = changes()
    await api.prefetchScan()
    await api.recheckStartupScan()
    expect(seen).toEqual([])
  })

  it('reports the files written before the watcher was ready, once', async () => {
    const seen = changes()
    await api.prefetchScan()
    writeFileSync(join(fx.memoryDir, 'early.md'), '---\nname: Early\n---\n')
    appendFileSync(fx.index, '- [Early](early.md) — written before the watcher\n')
    await api.recheckStartupScan()
    // The new file, the index it changed, and their folder (it gained an entry).
    expect(seen).toEqual([[fx.memoryDir, fx.index, join(fx.memoryDir, 'early.md')].sort()])
    await api.recheckStartupScan()
    expect(seen).toHaveLength(1)
  })

  it('tells the watcher when the first scan was answered', async () => {
    let answered = false
    const waiting = api.firstScanAnswered().then(() => (answered = true))
    await api.prefetchScan()
    await new Promise((r) => setTimeout(r, 50))
    expect(answered).toBe(false)
    await api.scan()
    await waiting
    expect(answered).toBe(true)
  })

  // The scan below writes a topic file after it was asked for and before it reads: a change made
  // while the startup scan runs, which its answer cannot show and no watcher sees yet. A scan
  // asked for while one runs joins it, as the back end's does.
  const writingScan = () => {
    const written: string[] = []
    const seen: string[][] = []
    let running: Promise<ScanResult> | null = null
    const scanWriting = async (): Promise<ScanResult> => {
      const file = join(fx.memoryDir, `during-scan-${written.length}.md`)
      writeFileSync(file, '---\nname: During\n---\n')
      written.push(file)
      return scanClaudeHome(fx.claudeHome)
    }
    const startup = createStartupScan({
      claudeHome: fx.claudeHome,
      runScan: () => (running ??= scanWriting().finally(() => (running = null))),
      generation: () => 0,
      emitChange: (paths) => seen.push([...paths]),
    })
    return { startup, written, seen }
  }

  it('reports a file written while the startup scan ran', async () => {
    const { startup, written, seen } = writingScan()
    await startup.prefetchScan()
    await startup.recheckStartupScan()
    expect(seen).toEqual([[fx.memoryDir, written[0]].sort()])
  })

  it("starts a window's scan asked for while the stamp is taken only once the stamp is done", async () => {
    const { startup, written, seen } = writingScan()
    // Asked in the same turn: the window's scan must not read (or here, write) before the stamp.
    const [first, window] = await Promise.all([startup.prefetchScan(), startup.scan()])
    expect(window).toBe(first)
    expect(written).toHaveLength(1)
    await startup.recheckStartupScan()
    expect(seen).toEqual([[fx.memoryDir, written[0]].sort()])
  })

  it('names a project folder that appeared, a changed file, and the projects folder for an unstamped home', () => {
    const home = '/h'
    const a = 'p1\u00011\np1/memory\u00011:4\np1/memory/a.md\u00011:9\np2\u00011'
    const b = 'p1\u00011\np1/memory\u00011:4\np1/memory/a.md\u00012:12\np2\u00011\np3\u00011'
    expect(changedPaths(home, a, b)).toEqual(['/h/projects/p1/memory/a.md', '/h/projects/p3'])
    expect(changedPaths(home, a, a)).toEqual([])
    expect(changedPaths(home, a, 'unstamped 1')).toEqual(['/h/projects'])
  })
})
