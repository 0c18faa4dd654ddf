import { describe, expect, it } from 'vitest'
import type { ProjectInfo } from '../../../../src/shared/model'
import {
  backgroundDelay,
  groupProjects,
  healthJobs,
  invalidate,
  matchesFilter,
  moveSelection,
  navigationOrder,
  nextJobs,
  projectRole,
  visibleJobs,
  type FolderHealth,
  type HealthJob,
} from '../../../../src/renderer/projects/sidebar-state'

function project(
  id: string,
  cwds: string[],
  repoRoot: string | null,
  memory = true,
  lastActivity: string | null = null,
  heading: string | null = null,
): ProjectInfo {
  const memoryDir = memory ? `/c/projects/${id}/memory` : null
  return {
    id,
    dir: `/c/projects/${id}`,
    cwds,
    repoRoot,
    sessions: lastActivity ? 1 : 0,
    memoryDir,
    memoryFiles: memoryDir
      ? [{ path: `${memoryDir}/MEMORY.md`, role: 'index', lines: 10, bytes: 100, heading }]
      : [],
    name: (cwds[0] ?? id).split('/').pop() ?? id,
    problems: [],
    lastActivity,
  }
}

const shop = project('-r-acme-shop', ['/r/acme-shop'], '/r/acme-shop', true, '2026-04-07T15:37:43Z')
const coupons = project(
  '-r-acme-shop-coupons',
  ['/r/acme-shop-coupons'],
  '/r/acme-shop',
  false,
  '2026-03-20T11:05:06Z',
)
const api = project(
  '-r-acme-shop-packages-api',
  ['/r/acme-shop/packages/api'],
  '/r/acme-shop',
  false,
  '2026-01-01T10:00:00Z',
)
const notes = project('-r-notes-site', ['/r/notes-site'], null, true, '2026-02-21T19:13:00Z')
const old = project('-root--cache-demo-code-old-prototype', [], null, true, null, 'old-prototype')
const bare = project('-r-bare', ['/r/bare'], null, false, '2026-05-01T08:00:00Z')

describe('projectRole', () => {
  it('tells the main checkout, a linked worktree, a subfolder and a project outside git apart', () => {
    expect(projectRole(shop)).toBe('main')
    expect(projectRole(coupons)).toBe('worktree')
    expect(projectRole(api)).toBe('subfolder')
    expect(projectRole(notes)).toBe('standalone')
  })
})

describe('groupProjects', () => {
  it('puts worktrees and subfolders under the project launched in the repository root', () => {
    const groups = groupProjects([coupons, notes, api, shop, old, bare])
    const acme = groups.find((g) => g.repoRoot === '/r/acme-shop')
    expect(acme?.main?.id).toBe(shop.id)
    expect(acme?.members.map((p) => p.id)).toEqual([coupons.id, api.id])
    // One group per project outside git; most recently active first, no transcripts last
    // (issue 15 item 16); a project without transcripts is named by its MEMORY.md heading.
    expect(groups.map((g) => g.label)).toEqual(['bare', 'acme-shop', 'notes-site', 'old-prototype'])
  })

  it('keeps a group whose main project was never launched, headed by the repository name', () => {
    const groups = groupProjects([coupons])
    expect(groups).toHaveLength(1)
    expect(groups[0].main).toBeNull()
    expect(groups[0].label).toBe('acme-shop')
    expect(groups[0].members.map((p) => p.id)).toEqual([coupons.id])
  })

  it('filters, keeping the main project as the parent of a matching worktree', () => {
    const groups = groupProjects([shop, coupons, api, notes], 'COUPONS')
    expect(groups).toHaveLength(1)
    expect(groups[0].main?.id).toBe(shop.id)
    expect(groups[0].members.map((p) => p.id)).toEqual([coupons.id])
    expect(groupProjects([shop, notes], 'nothing-like-this')).toEqual([])
  })
})

describe('matchesFilter', () => {
  it('matches name, folder id, launch directory and repository root; blank matches all', () => {
    expect(matchesFilter(coupons, '  ')).toBe(true)
    expect(matchesFilter(coupons, '-r-acme-shop-coupons')).toBe(true)
    expect(matchesFilter(api, 'packages/api')).toBe(true)
    expect(matchesFilter(coupons, '/r/acme-shop')).toBe(true)
    expect(matchesFilter(notes, 'acme')).toBe(false)
  })
})

describe('navigation', () => {
  const order = navigationOrder(groupProjects([shop, coupons, api, notes]))
  it('walks groups in display order, main before its members', () => {
    expect(order.map((p) => p.id)).toEqual([shop.id, coupons.id, api.id, notes.id])
  })
  it('moves with arrows, Home and End, and stops at the ends', () => {
    expect(moveSelection(order, shop.id, 'ArrowDown')).toBe(coupons.id)
    expect(moveSelection(order, coupons.id, 'ArrowUp')).toBe(shop.id)
    expect(moveSelection(order, shop.id, 'ArrowUp')).toBeNull()
    expect(moveSelection(order, notes.id, 'ArrowDown')).toBeNull()
    expect(moveSelection(order, api.id, 'Home')).toBe(shop.id)
    expect(moveSelection(order, shop.id, 'End')).toBe(notes.id)
    expect(moveSelection(order, null, 'ArrowDown')).toBe(shop.id)
    expect(moveSelection(order, shop.id, 'a')).toBeNull()
    expect(moveSelection([], null, 'ArrowDown')).toBeNull()
  })
})

describe('background health checks', () => {
  const order = navigationOrder(groupProjects([shop, coupons, notes, old]))
  const jobs = healthJobs(order)
  it('checks each memory folder once, with its repository and index', () => {
    expect(jobs.map((j) => j.memoryDir)).toEqual([shop.memoryDir, notes.memoryDir, old.memoryDir])
    expect(jobs[0]).toEqual({
      memoryDir: shop.memoryDir,
      repo: '/r/acme-shop',
      indexPath: `${shop.memoryDir}/MEMORY.md`,
    })
  })
  it('starts only a few at a time and never one that is known or running', () => {
    const known = new Map<string, FolderHealth>([
      [notes.memoryDir as string, { state: 'done', stale: 0, suspect: 0, overflows: false }],
    ])
    expect(nextJobs(jobs, known, new Set(), 1).map((j) => j.memoryDir)).toEqual([shop.memoryDir])
    expect(
      nextJobs(jobs, known, new Set([shop.memoryDir as string]), 2).map((j) => j.memoryDir),
    ).toEqual([old.memoryDir])
    expect(nextJobs(jobs, known, new Set(['a', 'b']), 2)).toEqual([])
  })
  it('forgets folders a change touched, and everything on an unspecific change', () => {
    const done: FolderHealth = { state: 'done', stale: 1, suspect: 2, overflows: true }
    const known = new Map<string, FolderHealth>([
      [shop.memoryDir as string, done],
      [notes.memoryDir as string, done],
    ])
    const after = invalidate(known, [`${shop.memoryDir}/MEMORY.md`])
    expect([...after.keys()]).toEqual([notes.memoryDir])
    // A sibling folder whose name starts the same is not inside.
    expect(invalidate(known, [`${shop.memoryDir}-other/x.md`]).size).toBe(2)
    expect(invalidate(known, []).size).toBe(0)
  })
})

describe('background checks (issue 7)', () => {
  const job = (dir: string): HealthJob => ({ memoryDir: dir, repo: null, indexPath: null })
  const jobs = [job('/a'), job('/b'), job('/c')]

  it('keeps only folders on screen, in order; all of them before the first report', () => {
    expect(visibleJobs(jobs, new Set(['/c', '/a'])).map((j) => j.memoryDir)).toEqual(['/a', '/c'])
    expect(visibleJobs(jobs, new Set())).toEqual([])
    expect(visibleJobs(jobs, null)).toEqual(jobs)
  })

  it('waits for the list to settle and for the user to be quiet', () => {
    expect(backgroundDelay(100, null, 0, 1500, 1000)).toBe(1500)
    expect(backgroundDelay(1000, 0, 0, 1500, 1000)).toBe(500)
    expect(backgroundDelay(2000, 0, 0, 1500, 1000)).toBe(0)
    expect(backgroundDelay(5000, 0, 4800, 1500, 1000)).toBe(800)
    expect(backgroundDelay(6000, 0, 4800, 1500, 1000)).toBe(0)
  })
})
