/**
 * The startup scan (Backend.prefetchScan) answers the window's first scan only while nothing it
 * read changed: files written to a memory folder before the watcher was ready raise no event, so
 * the back end must see them itself, from what the scan recorded as it read (scan-witness.ts).
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { createStartupScan, type WitnessedScan } from '../../../../src/node/app/startup-scan'
import { scanClaudeHome } from '../../../../src/node/memory/scan'
import {
  createScanWitness,
  scanChanges,
  type ScanWitness,
} from '../../../../src/node/memory/scan-witness'
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

/**
 * A startup scan whose scan writes to the memory folder at one moment of its reading: before it
 * lists the folder (the answer shows the file), right after it listed it, or, for the deploy
 * topic, right after it read it (the answer cannot show either, and no watcher sees them yet).
 * A scan asked for while one runs joins it, as the back end's does.
 */
type When = 'before-listing' | 'after-listing' | 'after-read' | 'topic-after-read'
const writingScan = (when: When) => {
  const written: string[] = []
  const seen: string[][] = []
  let running: Promise<WitnessedScan> | null = null
  const write = (): void => {
    const file = join(fx.memoryDir, `during-scan-${written.length}.md`)
    writeFileSync(file, '---\nname: During\n---\n')
    written.push(file)
  }
  const scanWriting = async (): Promise<WitnessedScan> => {
    const witness = createScanWitness()
    const spy: ScanWitness = {
      folder(path) {
        if (when === 'before-listing' && path === fx.memoryDir) write()
        witness.folder(path)
      },
      listed(path, names) {
        witness.listed(path, names)
        if (when === 'after-listing' && path === fx.memoryDir) write()
      },
      file(path, id) {
        witness.file(path, id)
        if (when === 'topic-after-read' && path === fx.deployTopic)
          appendFileSync(fx.deployTopic, 'Changed after the reading.\n')
      },
    }
    const scan = await scanClaudeHome(fx.claudeHome, { witness: spy })
    if (when === 'after-read') write()
    return { scan, seen: witness.seen }
  }
  const startup = createStartupScan({
    runScan: () => (running ??= scanWriting().finally(() => (running = null))),
    generation: () => 0,
    emitChange: (paths) => seen.push([...paths]),
  })
  return { startup, written, seen }
}

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

  it('is not reused once a file it read changed after the reading', async () => {
    const { startup, written } = writingScan('after-read')
    const kept = await startup.prefetchScan()
    expect(kept.projects.flatMap((p) => p.memoryFiles).some((f) => f.path === written[0])).toBe(
      false,
    )
    const again = await startup.scan()
    expect(again).not.toBe(kept)
    expect(again.projects.flatMap((p) => p.memoryFiles).map((f) => f.path)).toContain(written[0])
  })
})

describe("a scan's record", () => {
  const record = async (): Promise<WitnessedScan['seen']> => {
    const witness = createScanWitness()
    await scanClaudeHome(fx.claudeHome, { witness })
    return witness.seen
  }

  it('names nothing while the home is as the scan read it', async () => {
    expect(await scanChanges(await record())).toEqual([])
  })

  it('names a nested folder made, a file in it, a removed topic and an edited deep topic', async () => {
    const seen = await record()
    mkdirSync(join(fx.memoryDir, 'later', 'deeper'), { recursive: true })
    expect(await scanChanges(seen)).toEqual([fx.memoryDir, join(fx.memoryDir, 'later')])
    const later = await record()
    writeFileSync(join(fx.memoryDir, 'later', 'deeper', 'note.md'), 'x\n')
    rmSync(fx.deployTopic)
    appendFileSync(fx.deepTopic, 'More.\n')
    expect(await scanChanges(later)).toEqual(
      [
        fx.memoryDir,
        fx.deployTopic,
        fx.deepTopic,
        join(fx.memoryDir, 'later', 'deeper'),
        join(fx.memoryDir, 'later', 'deeper', 'note.md'),
      ].sort(),
    )
    expect(await scanChanges(later, true)).toHaveLength(1)
  })

  it('names a project folder that appeared, one that gained a transcript, and a stray file', async () => {
    const seen = await record()
    const projects = join(fx.claudeHome, 'projects')
    mkdirSync(join(projects, '-tmp-new-project'))
    writeFileSync(join(fx.projectDir, 'new-session.jsonl'), '{}\n')
    writeFileSync(join(projects, '.DS_Store'), 'x')
    expect(await scanChanges(seen)).toEqual(
      [
        projects,
        join(projects, '-tmp-new-project'),
        join(projects, '.DS_Store'),
        fx.projectDir,
      ].sort(),
    )
  })

  it('names the projects folder of a home that had none when it appears', async () => {
    rmSync(join(fx.claudeHome, 'projects'), { recursive: true })
    const seen = await record()
    expect(await scanChanges(seen)).toEqual([])
    mkdirSync(join(fx.claudeHome, 'projects'))
    expect(await scanChanges(seen)).toEqual([join(fx.claudeHome, 'projects')])
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

  it('reports a file written while the startup scan ran, after it listed the folder', async () => {
    const { startup, written, seen } = writingScan('after-listing')
    await startup.prefetchScan()
    await startup.recheckStartupScan()
    expect(seen).toEqual([[fx.memoryDir, written[0]].sort()])
  })

  it('reports a topic file changed after the startup scan read it', async () => {
    const { startup, seen } = writingScan('topic-after-read')
    const first = await startup.prefetchScan()
    const deploy = first.projects
      .flatMap((p) => p.memoryFiles)
      .find((f) => f.path === fx.deployTopic)
    await startup.recheckStartupScan()
    expect(seen).toEqual([[fx.deployTopic]])
    // The answer held the file as read, before the change.
    expect(
      (await scanClaudeHome(fx.claudeHome)).projects.flatMap((p) => p.memoryFiles),
    ).not.toContainEqual(deploy)
  })

  it("joins a window's scan asked for while the startup scan runs: one scan, the change reported", async () => {
    const { startup, written, seen } = writingScan('after-listing')
    const [first, window] = await Promise.all([startup.prefetchScan(), startup.scan()])
    expect(window).toBe(first)
    expect(written).toHaveLength(1)
    await startup.recheckStartupScan()
    expect(seen).toEqual([[fx.memoryDir, written[0]].sort()])
  })

  it('reports nothing for a file written before the startup scan read its folder: the answer has it', async () => {
    const { startup, written, seen } = writingScan('before-listing')
    const first = await startup.prefetchScan()
    expect(first.projects.flatMap((p) => p.memoryFiles).map((f) => f.path)).toContain(written[0])
    await startup.recheckStartupScan()
    expect(seen).toEqual([])
  })
})
