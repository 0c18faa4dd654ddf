import { describe, expect, it } from 'vitest'
import type { ProjectInfo } from '../../../../src/shared/model'
import {
  byActivity,
  initialProject,
  projectTitle,
} from '../../../../src/renderer/projects/project-title'

function project(over: Partial<ProjectInfo> & { id: string }): ProjectInfo {
  return {
    dir: `/c/projects/${over.id}`,
    cwds: [],
    repoRoot: null,
    sessions: 0,
    memoryDir: null,
    memoryFiles: [],
    name: over.id,
    problems: [],
    ...over,
  }
}
const index = (heading: string | null) => [
  { path: '/m/MEMORY.md', role: 'index' as const, lines: 3, bytes: 30, heading },
]

describe('a project title is never the encoded folder name', () => {
  it('is the launch directory name, else the MEMORY.md heading, else says it is unknown', () => {
    const launched = project({ id: '-r-acme-shop', cwds: ['/r/acme-shop/', '/r/x'] })
    expect(projectTitle(launched)).toEqual({ title: 'acme-shop', source: 'launch-dir' })
    const windows = project({ id: 'C--w-app', cwds: ['C:\\w\\app'] })
    expect(projectTitle(windows).title).toBe('app')
    const old = project({
      id: '-root--cache-memory-curator-demo-code-old-prototype',
      memoryDir: '/m',
      memoryFiles: index('old-prototype'),
    })
    expect(projectTitle(old)).toEqual({ title: 'old-prototype', source: 'memory-heading' })
    const generic = project({ id: '-a-b', memoryDir: '/m', memoryFiles: index('Memory') })
    expect(projectTitle(generic).source).toBe('unknown')
    expect(projectTitle(generic).title).not.toContain('-a-b')
  })
})

describe('order by last activity', () => {
  const recent = project({
    id: 'r',
    cwds: ['/r'],
    lastActivity: '2026-04-07T15:37:43Z',
    sessions: 2,
  })
  const older = project({
    id: 'o',
    cwds: ['/o'],
    lastActivity: '2026-02-21T19:13:00Z',
    memoryDir: '/o/m',
    sessions: 1,
  })
  const none = project({ id: 'n', memoryDir: '/n/m', memoryFiles: index('aaa first by name') })
  it('puts the most recently active first and projects without transcripts last', () => {
    expect([none, older, recent].sort(byActivity).map((p) => p.id)).toEqual(['r', 'o', 'n'])
  })
  it('opens on the most recently active project with a memory folder', () => {
    expect(initialProject([none, older, recent])?.id).toBe('o')
    expect(initialProject([recent])?.id).toBe('r')
    expect(initialProject([])).toBeNull()
  })
})
