/**
 * A route a note back-ticks, on a real git repository (issue 12; blind set Z2: "`/home` →
 * EmployeeHomeView", the route table's `'/home'` removed since). Text the router's code holds:
 * held when the note was written and by no code line now, the note is stale; a route the code
 * still serves, or never served, is no finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localPorts } from '../../../../src/core/audit/stated-values'
import { routeSpans } from '../../../../src/core/audit/command-texts'
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

  it("reads a local server URL's path, in prose or a command (blind set AP)", () => {
    const text = [
      'Open http://localhost:5173/dashboard.',
      '```bash',
      'curl -s http://localhost:5050/jsonrpc -X POST',
      'curl http://127.0.0.1:8000/api/v1/items?limit=5',
      'open http://localhost:3000/ && curl http://localhost:3000/users/${id}',
      'curl https://example.com/api/other',
      '```',
    ].join('\n')
    expect(routeSpans(text)).toEqual(['/dashboard', '/jsonrpc', '/api/v1/items'])
  })

  it('reads the port of a local address, once', () => {
    const text = 'API on localhost:3000; see http://localhost:3000/x and 127.0.0.1:8000, not :80'
    expect(localPorts(text).map((p) => p.port)).toEqual(['3000', '8000'])
  })
})

describe('a route the app dropped', () => {
  const { repo, mem, commit, sha } = historyCase('routes')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const routes = (list: string[]): string =>
      `export const ROUTES = {\n${list.map((r) => `  '${r}': '${r.slice(1)}',`).join('\n')}\n}\n`
    write(repo, 'src/App.jsx', routes(['/home', '/inicio', '/ventas']))
    write(repo, 'server/http.py', '@app.post("/jsonrpc")\ndef rpc(): ...\n')
    write(repo, 'daemon/index.js', 'const PORT = process.env.PORT || 3000\nconst WS = 8080\n')
    write(repo, 'web/vite.config.js', 'export default { server: { port: 5173 } }\n')
    commit('c1', '2026-05-01T12:00:00Z')
    write(repo, 'src/App.jsx', routes(['/inicio', '/ventas', '/homepage']))
    write(repo, 'server/http.py', 'def stdio(): ...\n')
    write(repo, 'daemon/index.js', 'const PORT = process.env.PORT || 41593\nconst WS = 8080\n')
    commit('drop home', '2026-05-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Home', '- `/home` → EmployeeHomeView'],
        ['Sales', '- `/ventas` → SalesView'],
        ['Never', '- `/reports` → ReportsView (planned)'],
        ['Port', 'Flow:\n\n```\nHook  →  POST /agent/*  →  Daemon\n          localhost:3000\n```'],
        ['Port kept', '- The web app runs on http://localhost:5173 in dev.'],
        [
          'Curl',
          'Store:\n\n```bash\ncurl -s http://localhost:5050/jsonrpc -X POST -d @req.json\n```',
        ],
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

  it("calls a local URL's route the server dropped stale (blind set AP)", () => {
    const n = byTitle(notes, 'Curl')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('/jsonrpc')
  })

  it("calls a local server's port no line setting a port holds now stale (blind set AR)", () => {
    const n = byTitle(notes, 'Port')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('no line setting a port holds it now')
    expect(byTitle(notes, 'Port kept').verdict).not.toBe('stale')
  })

  it('finds nothing in a route still served or never served', () => {
    expect(byTitle(notes, 'Sales').verdict).not.toBe('stale')
    expect(byTitle(notes, 'Never').verdict).not.toBe('stale')
  })
})
