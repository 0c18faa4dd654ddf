/**
 * Rules blind sets N and O (docs/eval-audit.md) showed were missing, on real git repositories.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const fence = (lang: string, body: string): string => `\`\`\`${lang}\n${body}\n\`\`\``

describe('names the code held, written as a package path, a literal or a skill', () => {
  const { repo, mem, sha, commit } = historyCase('no-names')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'cmd/api/main.go',
      'package main\n\nimport (\n\t"log/slog"\n)\n\nfunc main() { slog.Info("up") }\n',
    )
    write(
      repo,
      'src/types.ts',
      "export type Kind = 'dissolve' | 'findthecenter'\nexport const normal = (k: string) => k === 'findthecenter' ? 'resolve' : k\nexport const row = { activityType: 'dissolve' }\n",
    )
    write(repo, 'plugins/adam/skills/pin-actions-to-sha/SKILL.md', '# pin\n')
    write(repo, 'plugins/adam/skills/keep-me/SKILL.md', '# keep\n')
    write(repo, '.claude/skills/php-pro/SKILL.md', '# php\n')
    write(repo, '.claude/skills/mysql/SKILL.md', '# mysql\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'cmd/api/main.go',
      'package main\n\nimport "go.uber.org/zap"\n\nfunc main() { zap.L().Info("up") }\n',
    )
    write(
      repo,
      'internal/logger/logger.go',
      'package logger\n\n// replaces the old log/slog style\n',
    )
    write(
      repo,
      'src/types.ts',
      "export type Kind = 'dissolve' | 'resolve'\nexport const row = { activityType: 'dissolve' }\n",
    )
    rmSync(join(repo, 'plugins/adam/skills/pin-actions-to-sha/SKILL.md'))
    rmSync(join(repo, '.claude/skills/php-pro/SKILL.md'))
    write(repo, '.claude/skills/laravel/SKILL.md', '# laravel\n')
    commit('drop', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Logging', '- `log/slog` is used throughout; no `fmt.Println` in non-test code'],
        ['Legacy', "- Old rows may have `activityType: 'findthecenter'`; normalise first"],
        ['Kept', "- Rows use `activityType: 'dissolve'`"],
        ['Invoke', '- Invoke a skill as `/adam:<skill>` (e.g. `/adam:pin-actions-to-sha`)'],
        ['Invoke kept', '- Invoke `/adam:keep-me` before a release'],
        [
          'Skills',
          '## Skills (`.claude/skills/`)\n\n| Skill | When |\n|---|---|\n| **php-pro** | PHP |\n| **mysql** | SQL |',
        ],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('checks an `owner/name`-shaped package the code imported, not in comments now', () => {
    const n = byTitle(notes, 'Logging')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    const why = n.reasons.join('\n')
    expect(why).toContain(sha.drop)
    expect(why).not.toContain('names another repository')
  })

  it('checks the quoted literal a setting is given', () => {
    const n = byTitle(notes, 'Legacy')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('`findthecenter` was in `src/types.ts`')
    expect(byTitle(notes, 'Kept').verdict).toBe('fresh')
  })

  it("checks a plugin's slash command, even given as an example", () => {
    const n = byTitle(notes, 'Invoke')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('plugins/adam/skills/pin-actions-to-sha/SKILL.md')
    expect(byTitle(notes, 'Invoke kept').verdict).toBe('fresh')
  })

  it('checks the entries a section lists under the folder its heading names', () => {
    const n = byTitle(notes, 'Skills')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('php-pro')
    expect(n.reasons.join('\n')).not.toContain('mysql')
  })
})

describe('an excerpt with the note’s own remarks, and a directory map with ports', () => {
  const { repo, mem, sha, commit } = historyCase('no-quote')
  let notes: readonly AuditNote[] = []
  const route = (sweeps: boolean): string =>
    [
      "router.get('/:id', async (req, res) => {",
      '  res.json({ ok: true });',
      '});',
      '',
      ...(sweeps
        ? [
            "router.get('/', async (req, res) => {",
            '  try {',
            '    const config = req.instance.config;',
            '    await sweepExpired(instanceId, config);',
            '    await sweepQuorum(instanceId, config);',
            '    const docs = await Topic.find({ instanceId });',
            '    res.json({ docs });',
            '  } catch (err) {',
            '    res.status(500).json({ error: err.message });',
            '  }',
            '});',
          ]
        : ["router.get('/', listTopics);"]),
      '',
    ].join('\n')

  beforeAll(async () => {
    for (const r of ['admins', 'books', 'carts', 'items', 'orders'])
      write(repo, `routes/${r}.js`, "router.get('/', async (req, res) => {\n  res.json([]);\n});\n")
    write(repo, 'routes/topics.js', route(true))
    write(
      repo,
      'apps/platform/package.json',
      '{\n  "scripts": {\n    "dev": "next dev -p 3002"\n  }\n}\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'routes/topics.js', route(false))
    write(
      repo,
      'jobs/sweeps.js',
      'export async function run(req, inst) {\n  const config = req.instance.config;\n  await sweepExpired(inst.id, config);\n  await sweepQuorum(inst.id, config);\n}\n',
    )
    write(
      repo,
      'apps/platform/package.json',
      '{\n  "scripts": {\n    "dev": "next dev -p 4002"\n  }\n}\n',
    )
    commit('job', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Sweep',
          `Topics sweep on read:\n\n${fence(
            'js',
            [
              "router.get('/', async (req, res) => {",
              '  const config = req.instance.config;',
              '  await sweepExpired(instanceId, config);  // write side effect on read',
              '  await sweepQuorum(instanceId, config);   // write side effect on read',
              '  // ...',
              '});',
            ].join('\n'),
          )}`,
        ],
        [
          'Map',
          `${fence('', 'apps/\n├── platform/    Next.js admin UI (port 3002)\n└── backend/     API server')}`,
        ],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('finds the excerpt where it was taken from, and calls it stale when its lines left', () => {
    const n = byTitle(notes, 'Sweep')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    const why = n.reasons.join('\n')
    expect(why).not.toContain('not a reference')
    expect(why).toMatch(new RegExp(`quoted code \`router\\.get[^\n]*removed in ${sha.job}`))
  })

  it('reads a value a directory map states', () => {
    const n = byTitle(notes, 'Map')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('next dev -p 4002')
  })
})

describe('TODO comments a note points at', () => {
  const { repo, mem, commit } = historyCase('no-todo')
  let notes: readonly AuditNote[] = []
  const helper = (todo: boolean): string =>
    [
      '<?php',
      'class Data {',
      '    public function applyRoleAcl($userId, $roleCode)',
      '    {',
      ...(todo
        ? [
            '        // TODO: restore per-role ACL once role permissions are configured',
            '        $group = 1;',
          ]
        : ['        $group = $this->roleGroup($roleCode);']),
      '        return $group;',
      '    }',
      '    public function keepTodo()',
      '    {',
      '        // TODO: cache this',
      '        return 2;',
      '    }',
      '}',
      '',
    ].join('\n')

  beforeAll(async () => {
    write(repo, 'app/Helper/Data.php', helper(true))
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'app/Helper/Data.php', helper(false))
    commit('acl', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Acl', '- Per-role ACL is TODO — search for `applyRoleAcl` TODO comments.'],
        ['Cache', '- Caching is TODO — see the TODO comment in `keepTodo`.'],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('calls the note suspect when the TODO beside the name is gone', () => {
    const n = byTitle(notes, 'Acl')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('no TODO comment is beside it now')
  })

  it('keeps a TODO that is still there', () => {
    const n = byTitle(notes, 'Cache')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })
})
