/**
 * Rules blind sets BO and BP (docs/eval-audit.md) showed were missing, on a real git repository:
 * a fenced block that paraphrases a signature or a config section is no quote, yet its quoted
 * values are the code's (a default model, a service worker's glob; set BO): held then and by no
 * code now, they changed. A TOML key whose string is no version (`path = "src/…"`) is a setting,
 * not a dependency, and a manifest a vendored skill keeps under `.claude/` is not the
 * repository's (set BO). A name the note gives as disabled, commented out when it was written and
 * code now, was switched back on; a back-ticked name that was a folder's then and names no folder or
 * file now, went (set BO). A word of an env file's comment is no code name
 * ("GitHub"; set BP). A URL's fixed part (up to its placeholders) the code held then and holds
 * nowhere now moved (set BP). An inline quote that left out its last argument's qualifier
 * (`_finalize(lg, [], [], mode)` for `args.mode`), held so then and by no code now; a quote found
 * now only in a document written after the note is no change of code (set BO).
 */
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set BO and BP rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sbo')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'agent/run_agent.py',
      'class AIAgent:\n    def __init__(self, model: str = "anthropic/claude-opus-4.6", max_iterations: int = 90):\n        self.model = model\n',
    )
    write(
      repo,
      'vite.config.ts',
      'export default {\n  workbox: {\n    globPatterns: ["**/*.{js,css,ico,png,svg,woff,woff2}"],\n    globIgnores: ["**/index.html"],\n  },\n}\n',
    )
    write(
      repo,
      '.claude/skills/markitdown/pyproject.toml',
      '[project]\nname = "markitdown"\n[tool.hatch.version]\npath = "src/markitdown/__about__.py"\n',
    )
    // A vendored skill's own dependency, gone with the skill: not the repository's.
    write(
      repo,
      '.claude/skills/markitdown/package.json',
      '{\n  "dependencies": {\n    "path": "^0.12.7"\n  }\n}\n',
    )
    write(repo, 'tools/pyproject.toml', '[tool.hatch.version]\npath = "src/tools/__about__.py"\n')
    write(repo, '.env.local.example', '# GitHub token for the sync job\nSYNC_TOKEN=\n')
    write(repo, 'scripts/sync.py', 'def sync():\n    return fetch_cards()\n')
    write(repo, 'src/providers.py', 'ESPN_PATHS = {"nba": {"path": "basketball/nba"}}\n')
    const index = (players: string): string =>
      `export const sitemaps = [\n  "/sitemap-main.xml",\n  ${players}\n  // "/sitemap-venues.xml",\n]\n`
    write(repo, 'functions/sitemap.xml.ts', index('// "/sitemap-players.xml",'))
    // The legacy function still lists the players' sitemap as code; the note names the index.
    write(
      repo,
      'supabase/functions/sitemap/index.ts',
      'const maps = [\n  "/sitemap-players.xml",\n]\nserve(() => new Response(maps.join()))\n',
    )
    write(repo, 'public/sitemap.xml', '<urlset/>\n') // no function's new home
    write(
      repo,
      'agents/web.py',
      'from agents.registry import registry\nregistry.register(\n    name="web",\n    toolset="web",\n    handler=run_web,\n)\n',
    )
    write(repo, 'skills/hermes/SKILL.md', '# Tools\n\nEach tool registers itself.\n')
    const runAll = (onError: string): string =>
      `def main(args):\n    for lg in leagues:\n        try:\n            run(lg)\n        except Exception:\n            ${onError}\n        _archive(lg, args.mode)\n`
    write(repo, 'scripts/run_all.py', runAll('_finalize(lg, [], [], args.mode)'))
    const middleware = (v: string): string =>
      `export function key(url: URL) {\n  const cacheKey = \`pr:${v}:\${url.pathname}\`\n  return cacheKey\n}\n`
    write(repo, 'functions/_middleware.ts', middleware('v6'))
    write(
      repo,
      'scripts/sync_cards.py',
      'IMAGE_BASE_URL = "https://images.example.io/images/cards"\nALT_IMAGE_BASE_URL = "https://images.example.io/images/cards/alt"\n',
    )
    write(repo, 'supabase/functions/geo-check/index.ts', 'serve(() => new Response("geo"))\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'agent/run_agent.py',
      'class AIAgent:\n    def __init__(self, model: str = "", max_iterations: int = 90):\n        self.model = model\n',
    )
    write(
      repo,
      'vite.config.ts',
      'export default {\n  workbox: {\n    globPatterns: ["assets/index-*.js", "assets/vendor-*.js"],\n    globIgnores: ["**/index.html"],\n  },\n}\n',
    )
    write(repo, 'functions/sitemap.xml.ts', index('"/sitemap-players.xml",'))
    rmSync(join(repo, 'supabase/functions/sitemap'), { recursive: true })
    write(repo, 'scripts/run_all.py', runAll('keep_prior(lg)'))
    // A skill's page copies the registration example after the note.
    write(
      repo,
      'skills/hermes/SKILL.md',
      '# Tools\n\n```python\nfrom agents.registry import registry\nregistry.register(\n    name="my_tool",\n    toolset="example",\n    handler=run_my_tool,\n)\n```\n',
    )
    write(repo, 'functions/_middleware.ts', middleware('v7'))
    write(
      repo,
      'scripts/sync_cards.py',
      'IMAGE_BASE_URL = "https://images.example.io/images/cards"\nALT_IMAGE_BASE_URL = "https://world.example.com/images/cardlist/card"\n',
    )
    rmSync(join(repo, '.claude'), { recursive: true })
    rmSync(join(repo, 'tools'), { recursive: true })
    write(repo, '.env.local.example', 'SYNC_TOKEN=\n')
    commit('change', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Agent',
          '```python\nclass AIAgent:\n    def __init__(self,\n        model: str = "anthropic/claude-opus-4.6",\n        max_iterations: int = 90,\n        # ... plus callbacks\n    ): ...\n```',
        ],
        [
          'Workbox',
          '```ts\n// vite.config.ts workbox section\nglobPatterns: ["**/*.{js,css,ico,png,svg,woff,woff2}"],  // NO html\nskipWaiting: true,\n```',
        ],
        ['Ignores', '```ts\n// the workbox section\nglobIgnores: ["**/index.html"],\n```'],
        [
          'Paths',
          '`ESPN_PATHS` maps each league to a dict with `path`, `day_by_day` and `params`.',
        ],
        ['Sync', '- Data sync: Python scripts (sync.py) run via GitHub Actions'],
        [
          'Sitemaps',
          '- `sitemap-players.xml` exists but is **currently disabled** in the index (`sitemap.xml.ts`)',
        ],
        ['Public', '- **Public (no auth):** `geo-check`, `sitemap` (legacy)'],
        [
          'Cdn',
          '- Alt art images: `https://images.example.io/images/cards/alt/{card_number}-set-{set_id}.webp`',
        ],
        ['Cards', '- Card images: `https://images.example.io/images/cards/{card_number}.jpg`'],
        ['Docs', '- See `https://docs.python.org/3/library/asyncio-task.html` for the task API'],
        [
          'Failure',
          '- On a league failure `run_all.py` calls `_finalize(lg, [], [], mode)` in the `except`.',
        ],
        ['Cache', '- Cache key: **`pr:v6:${pathname}`** in the KV namespace'],
        ['Archive', '- Every league ends with `_archive(lg, mode)` in `run_all.py`.'],
        [
          'Example',
          '```python\nfrom agents.registry import registry\nregistry.register(\n    name="my_tool",\n    toolset="demo",\n    handler=run_my_tool,\n)\n```',
        ],
        ['Geo', '- **Public (no auth):** `geo-check`'],
        ['Venues', '- `sitemap-venues.xml` is commented out in the index until venues ship'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it("reads a paraphrased block's quoted values the code held then and holds nowhere now (BO)", () => {
    for (const title of ['Agent', 'Workbox']) {
      const n = byTitle(notes, title)
      expect(n.verdict, `${title}: ${n.reasons.join('\n')}`).toBe('stale')
      expect(n.reasons.join('\n')).toContain(sha.change)
    }
    expect(byTitle(notes, 'Agent').reasons.join('\n')).toContain(
      '`anthropic/claude-opus-4.6` was in `agent/run_agent.py` line 2',
    )
    const kept = byTitle(notes, 'Ignores')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('stale')
  })

  it("reads no dependency in a TOML setting nor in a vendored skill's manifest (BO)", () => {
    const n = byTitle(notes, 'Paths')
    expect(n.reasons.join('\n')).not.toContain('was a dependency')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })

  it('reads a name the note gives as switched off that the code switched back on (BO)', () => {
    const n = byTitle(notes, 'Sitemaps')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('the note gives `sitemap-players.xml` as switched off')
    expect(n.reasons.join('\n')).toContain('`functions/sitemap.xml.ts`:3 holds it as code now')
    const kept = byTitle(notes, 'Venues')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('suspect')
  })

  it('reads a back-ticked name that was a folder then and names nothing now (BO)', () => {
    const n = byTitle(notes, 'Public')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain(
      '`sitemap` was the folder `supabase/functions/sitemap/` when the note was written',
    )
    expect(n.reasons.join('\n')).toContain(`deleted in ${sha.change}`)
    const kept = byTitle(notes, 'Geo')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('suspect')
  })

  it("reads a URL's fixed part the code held then and holds nowhere now (BP)", () => {
    const n = byTitle(notes, 'Cdn')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`images.example.io/images/cards/alt` was in')
    expect(n.reasons[0]).toContain(sha.change)
    for (const title of ['Cards', 'Docs']) {
      const kept = byTitle(notes, title)
      expect(kept.verdict, `${title}: ${kept.reasons.join('\n')}`).not.toBe('stale')
    }
  })

  it('reads an inline quote that left out a qualifier, as the code held it then (BO)', () => {
    for (const title of ['Failure', 'Cache']) {
      const n = byTitle(notes, title)
      expect(n.verdict, `${title}: ${n.reasons.join('\n')}`).toBe('stale')
      expect(n.reasons[0]).toContain(sha.change)
    }
    expect(byTitle(notes, 'Failure').reasons[0]).toContain(
      '`_finalize(lg, [], [], mode)` (`_finalize(lg, [], [], args.mode)`) was in `scripts/run_all.py` line 6',
    )
    const kept = byTitle(notes, 'Archive')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('stale')
  })

  it('reads a quote a document copied after the note as no change of code (BO)', () => {
    const n = byTitle(notes, 'Example')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('suspect')
    expect(n.reasons.join('\n')).toContain('a later copy, not the code it quoted')
  })

  it("reads no code name in an env file's comment (BP)", () => {
    const n = byTitle(notes, 'Sync')
    expect(n.reasons.join('\n')).not.toContain('`GitHub`')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })
})
