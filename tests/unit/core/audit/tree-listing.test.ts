/**
 * Folder trees drawn by indentation in a fenced block (note-fences.ts `treeListing`), as blind set
 * BK wrote them: a glob entry (`*.json  # per-tag specs`), several files on one line
 * (`auth.test.ts, client.test.ts`) and a remark in parentheses made the whole block quoted code,
 * so the files it named were never checked; so did a route's folder (`[id]/page.tsx`, set BI).
 */
import { describe, expect, it } from 'vitest'
import { treeListing } from '../../../../src/core/audit/note-fences'

describe('treeListing', () => {
  it('reads a glob entry as a path of the tree', () => {
    const t = treeListing(
      'src/\n  server/          # transports\n    sse.ts         # HTTP+SSE\ndocs/\n  openapi/\n    *.json         # per-tag specs\n',
    )
    expect(t?.paths).toEqual([
      'src/',
      'src/server/',
      'src/server/sse.ts',
      'docs/',
      'docs/openapi/',
      'docs/openapi/*.json',
    ])
  })

  it('reads several files on one line, and skips a remark in parentheses', () => {
    const t = treeListing(
      'tests/\n  server/\n    common.test.ts, http.test.ts\n    sse.test.ts, stdio.test.ts\n  utils/\n    (config tests are here)\n',
    )
    expect(t?.top).toBe('tests/')
    expect(t?.paths).toEqual([
      'server/',
      'server/common.test.ts',
      'server/http.test.ts',
      'server/sse.test.ts',
      'server/stdio.test.ts',
      'utils/',
    ])
  })

  it('reads two files given as alternatives on one line as two entries (set CD)', () => {
    const t = treeListing(
      'src/                  # the app\n  db/                 # schema.sql, migrate.ts\nwrangler.jsonc        # Worker config\nworker.mjs / agent-edge.mjs   # generated (do not hand-edit)\n',
    )
    expect(t?.paths).toEqual(['src/', 'src/db/', 'wrangler.jsonc', 'worker.mjs', 'agent-edge.mjs'])
    expect(t?.comments.at(-1)).toBe('# generated (do not hand-edit)')
  })

  it("reads a route's folders (`[id]/`, `(auth)/`) as entries (set BI)", () => {
    const t = treeListing(
      'app/\n  evals/\n    [id]/page.tsx     — eval detail\n  (auth)/\n    login/page.tsx\n',
    )
    expect(t?.paths).toEqual(['evals/', 'evals/[id]/page.tsx', '(auth)/', '(auth)/login/page.tsx'])
  })

  it("reads a comment right after a folder's slash, and a lone folder line with its comment (sets DU, DW)", () => {
    const t = treeListing(
      'packages/\n  auth/         # auth-schema store\n  claude-plugin/# Claude Code plugin\n  cli/          # the CLI\ndocs/\n',
    )
    expect(t?.paths).toEqual([
      'packages/',
      'packages/auth/',
      'packages/claude-plugin/',
      'packages/cli/',
      'docs/',
    ])
    expect(treeListing('  auth/         # auth-schema store: users, sessions\n')?.paths).toEqual([
      'auth/',
    ])
    expect(treeListing('supabase/functions/     # Supabase Edge Functions\n')?.paths).toEqual([
      'supabase/functions/',
    ])
    // A folder without a comment, or a file, on its own is no tree.
    expect(treeListing('auth/\n')).toBeNull()
    expect(treeListing('index.ts   # entry\n')).toBeNull()
  })

  it('is no tree for quoted code', () => {
    expect(treeListing('const a = [1, 2]\nfoo(a, b)\nreturn a\n')).toBeNull()
    expect(treeListing('* one\n* two\n* three/\n')).toBeNull()
  })
})
