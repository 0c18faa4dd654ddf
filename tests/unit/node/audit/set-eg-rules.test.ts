/**
 * Rules blind sets EG to EL (docs/eval-audit.md) showed were missing, on a real git repository:
 * - "**Version**: 1.2.0" where the top `package.json` set 1.2.0 and sets 1.3.0 now, a package
 *   deeper down still at 1.2.0: stale (EL jm-t02); a version only a deeper package ever set, and
 *   still sets, holds;
 * - "**License: MIT**" where the top manifest's license is another now: stale (EJ mg-r04);
 * - `Loki:3100`, a service address the compose file dropped: stale (EH ch-t01); one it keeps holds;
 * - a tree drawn under `products/[name]/` is a layout: a product made to it since is no plan
 *   carried out (EL tc-r01);
 * - quoted code the code came closer to since says nothing (EI fy-r11);
 * - a bare file name two files had in turn names the one there when the note was written, not
 *   the namesake deleted before it (EG mb-t03);
 * - an ignore file's line is no code holding a file name (EK rb-t03);
 * - a call of a name gone with its whole file, the name kept, says nothing (EQ ah-r14);
 * - a name only a doc comment held, gone since, says nothing (ER xp-t04);
 * - a name the code dropped that only a commented-out line keeps is gone (EP pt-t02);
 * - a quoted line re-spaced in its file since (aligned with a new neighbour) is kept (EI fy-t03).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

const SCHEMA = (status: string): string =>
  [
    'CREATE TABLE patients (',
    '  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),',
    '  name TEXT NOT NULL,',
    '  ward VARCHAR(40),',
    '  assigned_doctor TEXT,',
    `  ${status}`,
    '  created_at TIMESTAMPTZ DEFAULT NOW()',
    ');',
    '',
  ].join('\n')

describe('sets EG to EL rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('seg')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const pkg = (name: string, version: string, license = 'MIT'): string =>
      `{\n  "name": "${name}",\n  "version": "${version}",\n  "license": "${license}"\n}\n`
    const compose = (services: string[]): string =>
      `services:\n  api:\n    environment:\n${services.map((s) => `      - ${s}\n`).join('')}`
    write(repo, 'src/client/useThing.ts', 'export function useThing() {\n  return 1\n}\n')
    commit('c0', '2025-12-01T12:00:00Z')
    rmSync(join(repo, 'src/client/useThing.ts'))
    write(
      repo,
      'src/client/hooks/useThing.ts',
      'import { useState } from "react"\n\nexport const useThing = () => useState(0)\n',
    )
    write(repo, 'package.json', pkg('app', '1.2.0'))
    write(repo, 'packages/sdk/package.json', pkg('sdk', '1.2.0'))
    write(repo, 'tools/cli/package.json', pkg('cli', '0.4.0'))
    write(
      repo,
      'docker-compose.yml',
      compose(['LOKI_URL=http://loki:3100', 'REDIS_URL=redis://redis:6379']),
    )
    write(repo, 'products/alpha/apps/api/index.ts', 'export const api = 1\n')
    write(repo, 'products/alpha/e2e/smoke.spec.ts', 'export const smoke = 1\n')
    write(repo, 'supabase/migrations/001_initial.sql', SCHEMA('age TEXT,'))
    write(repo, '.gitignore', 'node_modules/\ntodo.md\n')
    write(repo, 'backend/main.py', 'app = App()\napp.state.active_patient_id = None\n')
    write(
      repo,
      'hooks/lib.py',
      'import os\n\ndef is_headless():\n    return os.environ.get("HEADLESS") == "1"\n',
    )
    const hook = (name: string): string =>
      `from lib import is_headless\n\ndef ${name}():\n    if is_headless():\n        return\n    print("${name}")\n`
    write(
      repo,
      'hooks/first_prompt.py',
      hook('first_prompt').replace(
        'if is_headless():',
        'if is_headless() or os.environ.get("CI"):',
      ),
    )
    write(repo, 'hooks/tidy_stop.py', hook('tidy_stop'))
    write(
      repo,
      'src/interceptor.ts',
      '/**\n * Applies more RxJS operators to the stream.\n */\nexport const intercept = 1\n',
    )
    write(
      repo,
      'train/__init__.py',
      'class SimilarityTrainer:\n    pass\n\nTRAINERS = [SimilarityTrainer]\n',
    )
    write(repo, 'jobs/train.sbatch', '#!/bin/bash\npython -u train.py SimilarityTrainer\n')
    const overlay = (arg: string): string =>
      `export function Overlay({ actions }) {\n  const onFog = (distance) => {\n    actions.setFogDistance(${arg})\n  }\n  return onFog\n}\n`
    write(repo, 'src/ui/overlay.tsx', overlay('distance'))
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'package.json', pkg('app', '1.3.0', 'BUSL-1.1'))
    write(repo, 'docker-compose.yml', compose(['REDIS_URL=redis://redis:6379']))
    write(repo, 'products/beta/docs/ADRs/0001-start.md', '# Start\n')
    write(repo, 'products/beta/apps/api/index.ts', 'export const api = 2\n')
    write(repo, 'supabase/migrations/001_initial.sql', SCHEMA('age INTEGER,'))
    rmSync(join(repo, 'src/client/hooks/useThing.ts'))
    write(repo, '.gitignore', 'node_modules/\n')
    rmSync(join(repo, 'hooks/first_prompt.py'))
    write(
      repo,
      'backend/main.py',
      'app = App()\napp.state.active_patient_id   = None\napp.state.active_session    = None\n',
    )
    write(repo, 'src/interceptor.ts', 'export const intercept = 2\n')
    write(repo, 'train/__init__.py', 'TRAINERS = []\n')
    write(repo, 'jobs/train.sbatch', '#!/bin/bash\n# python -u train.py SimilarityTrainer\n')
    rmSync(join(repo, 'src/ui/overlay.tsx'))
    write(repo, 'apps/web/src/ui/overlay.tsx', overlay('Math.max(50, distance)'))
    commit('drop', '2026-01-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Version', '> **Generated**: 2026-01-10 | **Version**: 1.2.0 | **License**: MIT'],
        ['Cli version', '- The command line tool: **Version**: 0.4.0'],
        ['License', '| **License: MIT** | Maximum adoption |'],
        [
          'License kept',
          '- The command line tool ships under License: BSD-3-Clause (its LICENSE file).',
        ],
        ['Loki', '- `Loki:3100` — error logs of the last five minutes'],
        ['Redis', '- `Redis:6379` — the session cache'],
        [
          'Layout',
          '```\nproducts/[name]/\n├── apps/\n│   └── api/        # Backend\n├── docs/\n│   └── ADRs/       # Decisions\n└── e2e/            # End-to-end tests\n```',
        ],
        [
          'Schema',
          '```sql\nCREATE TABLE patients (\n  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),\n  name TEXT NOT NULL,\n  ward TEXT,\n  assigned_doctor TEXT,\n  age INTEGER,\n  created_at TIMESTAMPTZ DEFAULT NOW()\n);\n```',
        ],
        ['Hooks', '- Centralized state via hooks: `useThing.ts`'],
        ['Todo', '- `todo.md` — the backlog; check it before starting.'],
        [
          'Headless',
          '- `is_headless()` — true when `HEADLESS` is exactly "1"; every hook checks it first.',
        ],
        ['Rx', '- Prefer async/await over RxJS in new services.'],
        [
          'Trainer',
          '```bash\npython train.py SimilarityTrainer  # Train the similarity model\n```',
        ],
        ['Fog', '- Debug tab: range slider 10–2000 (step 10) via `setFogDistance()`.'],
        ['Respaced', '- [x] Implement `app.state.active_patient_id = None`'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it("reads a version the top manifest set as the project's (EL jm-t02)", () => {
    called(
      'Version',
      'stale',
      '1.2.0',
      'no top-level line setting a version',
      'below the top',
      sha.drop,
    )
    quiet('Cli version')
  })

  it("reads a license the top manifest set as the project's (EJ mg-r04)", () => {
    called('License', 'stale', '"MIT"', "manifest's license line holds it now", sha.drop)
    quiet('License kept')
  })

  it('reads a service address as text the code holds (EH ch-t01)', () => {
    called('Loki', 'stale', 'loki:3100', 'docker-compose.yml', sha.drop)
    quiet('Redis')
  })

  it('reads a tree under a placeholder as a layout, not a plan (EL tc-r01)', () => {
    quiet('Layout')
  })

  it('says nothing of quoted code the code came closer to (EI fy-r11)', () => {
    quiet('Schema')
  })

  it('reads a bare name as the file there when the note was written (EG mb-t03)', () => {
    called('Hooks', 'stale', 'src/client/hooks/useThing.ts', sha.drop)
  })

  it('reads a literal re-spaced in its file as kept (EI fy-t03)', () => {
    quiet('Respaced')
  })

  it("says nothing of a name's call gone with its whole file (EQ ah-r14)", () => {
    quiet('Headless')
    // Its file moved, not gone: the changed call still counts (visible set os-fog-slider).
    called('Fog', 'suspect', 'setFogDistance', 'apps/web/src/ui/overlay.tsx')
  })

  it('reads a name only a comment held as prose, not code (ER xp-t04)', () => {
    quiet('Rx')
  })

  it('reads a name left only in comments as gone from the code (EP pt-t02)', () => {
    called('Trainer', 'stale', '`SimilarityTrainer` was in the code', sha.drop)
  })

  it("reads no ignore file's line as code holding a name (EK rb-t03)", () => {
    quiet('Todo', true)
  })
})
