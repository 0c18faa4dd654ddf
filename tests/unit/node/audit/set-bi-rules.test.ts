/**
 * Rules blind sets BI to BL (docs/eval-audit.md) showed were missing, on a real git repository:
 * a bare file name no commit ever tracked that a code line holds now is a file the code makes at
 * run time, not "wrong from the start" (`registry.json` in the user's home; set BJ); held then and
 * by no code now, the name went. A deploy's settings file (`type = "requests"` in fly.toml) lists no
 * dependencies (set BL). A back-ticked scoped package a manifest dropped (`@ngrok/ngrok`, set BK).
 * A command and its alias (`gpson/gon`, set BI), each a value the code quoted, gone since (the
 * commit named the one that changed it, not the one that moved its folder before); a
 * container image at a tag (`pgvector/pgvector:pg17`, set BL) is another repository. A back-ticked
 * word of three letters the code quoted (`sse` in `z.enum(['stream', 'sse'])`, set BK). A version in
 * parentheses after a product and a word ("Prisma ORM (v7, pg adapter)") and two capitalised
 * words as the package that joins them ("Mercado Pago", `mercadopago`; set BN). A list's pinned
 * package (`- vite: ^5.0.0`, set BM), its caret range held by the manifest's `^5.0.8` then; a slash
 * command whose skill is a loose file in a root `skills/` folder (set BM).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set BI to BL rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sbi')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'src/config/paths.ts',
      "import path from 'node:path'\nexport const registryPath = (home: string) => path.join(home, 'registry.json')\nexport const latestPath = (dir: string) => path.join(dir, 'LATEST.json')\n",
    )
    write(repo, 'src/index.ts', "export { registryPath } from './config/paths'\n")
    write(
      repo,
      'apps/web/fly.toml',
      '[http_service.concurrency]\n  type = "requests"\n  hard_limit = 250\n',
    )
    write(
      repo,
      'package.json',
      '{\n  "name": "omada",\n  "dependencies": {\n    "@acme/tunnel": "^1.5.2",\n    "mercadopago": "^2.12.0",\n    "prisma": "^7.4.1",\n    "vite": "^5.0.8",\n    "zod": "^3.0.0"\n  }\n}\n',
    )
    write(
      repo,
      'fw/commands.cpp',
      'void setup() {\n  registerCommand("gpson", "gon", runGpsOn);\n  registerCommand("help", "hlp", runHelp);\n}\n',
    )
    write(repo, 'src/transport.ts', "export const Transport = z.enum(['stream', 'sse'])\n")
    write(repo, 'skills/sync-knowledge.md', '# Sync knowledge\nRead the player repo.\n')
    write(repo, 'skills/session-review.md', '# Session review\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // The firmware folder moves (an exact rename) before the command changes.
    const cmds =
      'void setup() {\n  registerCommand("gpson", "gon", runGpsOn);\n  registerCommand("help", "hlp", runHelp);\n}\n'
    write(repo, 'firmware/commands.cpp', cmds)
    rmSync(join(repo, 'fw'), { recursive: true })
    commit('move', '2026-01-20T12:00:00Z')
    write(
      repo,
      'src/config/paths.ts',
      "import path from 'node:path'\nexport const registryPath = (home: string) => path.join(home, 'registry.json')\nexport const latestPath = (dir: string) => path.join(dir, 'analyses', 'latest')\n",
    )
    rmSync(join(repo, 'apps'), { recursive: true })
    rmSync(join(repo, 'skills', 'sync-knowledge.md'))
    write(repo, 'src/transport.ts', "export const Transport = z.enum(['stream'])\n")
    write(
      repo,
      'firmware/commands.cpp',
      'void setup() {\n  registerCommand("gps", "g", runGps);\n  registerCommand("help", "hlp", runHelp);\n}\n',
    )
    write(
      repo,
      'package.json',
      '{\n  "name": "omada",\n  "dependencies": {\n    "prisma": "^6.19.2",\n    "vite": "^8.0.0",\n    "zod": "^3.0.0"\n  }\n}\n',
    )
    commit('store', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Registry', '- `registry.json` — known project paths and when each was analyzed'],
        ['Latest', '- `LATEST.json` — the current view the dashboard reads'],
        ['Never', '- `settings.toml` — where the app keeps its options'],
        ['Sync', '- `/sync-knowledge` — reads the player repo and finds what changed'],
        ['Review', '- `/session-review` — closes a session'],
        ['Orm', '- Supabase (Postgres) + Prisma ORM (v7, pg adapter)'],
        ['Pins', '- vite: ^5.0.0'],
        ['Kept', '- zod: ^3.0.0'],
        ['Payments', '- Payments: Stripe (intl), Mercado Pago (LATAM)'],
        ['Parity', '- New HTTP transports are built for both `sse` and `stream`.'],
        ['Diagnostics', 'Diagnostics: `gpson/gon` (GPS on)'],
        ['Help', 'System: `help/hlp` prints the commands'],
        ['Image', '- CI starts the database from `pgvector/pgvector:pg17`'],
        ['Tunnel', '- `@acme/tunnel` — optional public tunnel\n- `zod` — validation'],
        [
          'Names',
          "- **Metadata Type Names:** `singular` — e.g., `'agent'`, `'tool'` (NOT `'agents'`).",
        ],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it('reads a file name the code holds now as a file made at run time (BJ)', () => {
    const n = byTitle(notes, 'Registry')
    expect(['fresh', 'unverifiable'], n.reasons.join('\n')).toContain(n.verdict)
    expect(n.reasons.join('\n')).toContain(
      '`registry.json` is no tracked file: a file the code makes at run time (`src/config/paths.ts` names it)',
    )
  })

  it('reads one the code held then and holds nowhere now as gone (BJ)', () => {
    const n = byTitle(notes, 'Latest')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain(sha.store)
  })

  it("reads no dependency in a deploy's settings (BL)", () => {
    const n = byTitle(notes, 'Names')
    expect(n.reasons.join('\n')).not.toContain('fly.toml')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })

  it('reads a back-ticked scoped package a manifest dropped (BK)', () => {
    const n = byTitle(notes, 'Tunnel')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`@acme/tunnel` was a dependency')
    expect(n.reasons[0]).toContain(sha.store)
    expect(n.reasons.join('\n')).not.toContain('`zod`')
  })

  it('reads a command and its alias the code quoted then and quotes nowhere now (BI)', () => {
    const n = byTitle(notes, 'Diagnostics')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('`gpson` was in `fw/commands.cpp` line 2')
    // Removed by the commit that changed the command, not by the one that moved its folder.
    expect(n.reasons.join('\n')).toContain(`removed in ${sha.store}`)
    expect(n.reasons.join('\n')).not.toContain(sha.move)
    const kept = byTitle(notes, 'Help')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('stale')
  })

  it('reads a container image at a tag as another repository (BL)', () => {
    const n = byTitle(notes, 'Image')
    expect(n.verdict, n.reasons.join('\n')).toBe('unverifiable')
    expect(n.reasons[0]).toContain('`pgvector/pgvector:pg17` names another repository')
  })

  it('reads a back-ticked three-letter word the code quoted then and quotes nowhere now (BK)', () => {
    const n = byTitle(notes, 'Parity')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`sse` was in `src/transport.ts` line 1')
    expect(n.reasons.join('\n')).not.toContain('`stream`')
  })

  it('reads a version in parentheses after a product and a word (BN)', () => {
    const n = byTitle(notes, 'Orm')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons[0]).toContain('Prisma ORM v7')
    expect(n.reasons[0]).toContain('^6.19.2')
  })

  it('reads two capitalised words as the package that joins them (BN)', () => {
    const n = byTitle(notes, 'Payments')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`mercadopago` was a dependency')
  })

  it("reads a list's pinned package as a range the manifest held then (BM)", () => {
    const n = byTitle(notes, 'Pins')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons[0]).toContain('the note gives vite ^5.0.0')
    expect(n.reasons[0]).toContain('^8.0.0')
    const kept = byTitle(notes, 'Kept')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('suspect')
  })

  it("reads a slash command as a loose skill at the repository's root (BM)", () => {
    const n = byTitle(notes, 'Sync')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`skills/sync-knowledge.md` was deleted in')
    const kept = byTitle(notes, 'Review')
    expect(kept.verdict, kept.reasons.join('\n')).toBe('fresh')
  })

  it('keeps a name no code ever held wrong from the start', () => {
    const n = byTitle(notes, 'Never')
    expect(n.verdict, n.reasons.join('\n')).toBe('never-matched')
  })
})
