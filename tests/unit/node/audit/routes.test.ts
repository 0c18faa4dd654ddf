/**
 * A route a note back-ticks, on a real git repository (issue 12; blind set Z2: "`/home` →
 * EmployeeHomeView", the route table's `'/home'` removed since). Text the router's code holds:
 * held when the note was written and by no code line now, the note is stale; a route the code
 * still serves, or never served, is no finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routeSpans } from '../../../../src/core/audit/stated-values'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('routeSpans', () => {
  it('reads back-ticked routes, and no file path or single letter', () => {
    expect(
      routeSpans('`/home` → Home; `/users/:id/` → User; `/a`; `src/app.ts`; `/blog/[slug]`'),
    ).toEqual(['/home', '/users/:id', '/blog/[slug]'])
  })
})

describe('a route the app dropped', () => {
  const { repo, mem, commit, sha } = historyCase('routes')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const routes = (list: string[]): string =>
      `export const ROUTES = {\n${list.map((r) => `  '${r}': '${r.slice(1)}',`).join('\n')}\n}\n`
    write(repo, 'src/App.jsx', routes(['/home', '/inicio', '/ventas']))
    commit('c1', '2026-05-01T12:00:00Z')
    write(repo, 'src/App.jsx', routes(['/inicio', '/ventas', '/homepage']))
    commit('drop home', '2026-05-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Home', '- `/home` → EmployeeHomeView'],
        ['Sales', '- `/ventas` → SalesView'],
        ['Never', '- `/reports` → ReportsView (planned)'],
      ],
      '2026-05-10T12:00:00Z',
    )
  }, 120_000)

  it('calls the note stale, naming the commit', () => {
    const n = byTitle(notes, 'Home')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain(sha['drop home'].slice(0, 7))
  })

  it('finds nothing in a route still served or never served', () => {
    expect(byTitle(notes, 'Sales').verdict).not.toBe('stale')
    expect(byTitle(notes, 'Never').verdict).not.toBe('stale')
  })
})
