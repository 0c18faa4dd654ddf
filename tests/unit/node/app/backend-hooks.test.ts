/** The handler table's hook methods and memory notices on a fixture home, with the real watcher. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, memoryIndex, type FixtureHome } from '../../../helpers/fixture-home'
import { backendConfigFor } from '../../../helpers/backend-config'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { watchMemory, type MemoryWatch } from '../../../../src/node/memory/watch'
import { dispatch } from '../../../../src/shared/dispatch'

let f: FixtureHome
let backend: Backend
let watch: MemoryWatch
beforeAll(async () => {
  f = createFixtureHome()
  writeFileSync(join(f.memoryDir, 'MEMORY.md'), memoryIndex(100))
  backend = await createBackend(backendConfigFor(f, { heavyWorker: null }))
  watch = watchMemory(backend, { claudeHome: f.claudeHome, debounceMs: 50 })
  await watch.ready
})
afterAll(async () => {
  await watch.stop()
  await backend.dispose()
  f.cleanup()
})

describe('hook methods of the handler table', () => {
  it('reports the user and project settings, and refuses a launch directory outside the rules', async () => {
    const s = await backend.hooksStatus(f.repo)
    expect(s.user).toMatchObject({ path: join(f.claudeHome, 'settings.json'), installed: false })
    expect(s.project).toMatchObject({ path: join(f.repo, '.claude', 'settings.json') })
    await expect(backend.hooksStatus('/etc')).rejects.toThrow()
    await expect(
      dispatch(backend, 'planHookInstall', ['project', 'install', null]),
    ).rejects.toThrow(/launch directory/)
  })

  it('installs only the change it showed', async () => {
    const plan = await backend.planHookInstall('user', 'install', null)
    expect(plan.changed).toBe(true)
    const r = await backend.applyHookInstall(
      'user',
      'install',
      null,
      plan.expectedHash,
      plan.afterHash!,
    )
    expect(r.kind).toBe('written')
    expect((await backend.hooksStatus(null)).user.installed).toBe(true)
  })

  it('notices a session writing MEMORY.md past the cutoff', async () => {
    const heard: string[] = []
    backend.onMemoryNotice((n) => heard.push(n.kind))
    writeFileSync(join(f.memoryDir, 'MEMORY.md'), memoryIndex(195))
    await expect
      .poll(async () => (await backend.memoryNotices(0)).length, { timeout: 15_000 })
      .toBe(1)
    const [n] = await backend.memoryNotices(0)
    expect(n).toMatchObject({
      kind: 'past-cutoff',
      memoryDir: f.memoryDir,
      newest: { title: 'Note 195' },
    })
    expect(heard).toEqual(['past-cutoff'])
  })
})
