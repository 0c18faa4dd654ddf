import { describe, expect, it } from 'vitest'
import type { ProjectInfo, ScanResult } from '../../../../src/shared/model'
import { initialState, reduce } from '../../../../src/renderer/state/app-state'

const project = (id: string, lastActivity: string | null, memory = true): ProjectInfo => ({
  id,
  dir: `/c/projects/${id}`,
  cwds: lastActivity ? [`/r/${id}`] : [],
  repoRoot: null,
  sessions: lastActivity ? 1 : 0,
  memoryDir: memory ? `/c/projects/${id}/memory` : null,
  memoryFiles: [],
  name: id,
  problems: [],
  lastActivity,
})
const scan = (projects: ProjectInfo[]): ScanResult => ({ claudeHome: '/c', projects, problems: [] })

describe('app state', () => {
  it('opens on the most recently active project with memory, and keeps a choice across rescans', () => {
    const s = reduce(initialState, {
      type: 'scan-done',
      scan: scan([
        project('old', null),
        project('recent-no-memory', '2026-05-01T00:00:00Z', false),
        project('recent', '2026-04-01T00:00:00Z'),
        project('older', '2026-01-01T00:00:00Z'),
      ]),
    })
    expect(s.selectedId).toBe('recent')
    const chosen = reduce(s, { type: 'select', id: 'older' })
    const rescanned = reduce(chosen, { type: 'scan-done', scan: scan([project('older', null)]) })
    expect(rescanned.selectedId).toBe('older')
  })

  it('a reveal selects its project and counts up', () => {
    const a = reduce(initialState, { type: 'reveal', projectId: 'p', file: '/m/x.md', line: 7 })
    expect(a.selectedId).toBe('p')
    expect(a.reveal).toEqual({ projectId: 'p', file: '/m/x.md', line: 7, nonce: 1 })
    const b = reduce(a, { type: 'reveal', projectId: 'p', file: '/m/x.md', line: 7 })
    expect(b.reveal?.nonce).toBe(2)
  })
})
