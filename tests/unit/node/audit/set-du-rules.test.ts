/**
 * Rules blind sets DU to DZ (docs/eval-audit.md) showed were missing, on a real git repository:
 * - a folder tree whose entry has its comment right after the slash (`claude-plugin/# hooks`), and
 *   a tree's lone line (`auth/   # auth-schema store`), list paths: `packages/auth/` deleted
 *   since, the note is stale (DW me-r01, me-t07);
 * - a link in another case (`cheatsheet.md` for `CHEATSHEET.md`) is that file, deleted since
 *   (DV tm-r05);
 * - a Windows relative path in a PowerShell block (`.\Tools\Run.ps1`) is a path (DV pb-r07);
 * - a skill kept in `.agents/skills/` is the skill, though `.claude/skills/` lost it (DX da-r04);
 * - an issue form is no code: a URL it dropped says nothing (DX da-r11);
 * - `py -m streamlit run apps/app_main.py` runs that file (DZ te-t04);
 * - a bare file name whose matches now are copies in a backups folder names the file that left
 *   (DZ te-t02);
 * - `./node_modules/.bin/eslint` runs a dependency, dropped since (DZ sc-r07);
 * - a folder in capitals (`LEGACY/`) the repository had is a path (DY jk-t04);
 * - "there is no separate build step" says the repository has no `build` script: one added since,
 *   the note needs a look (DW gm-r11).
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

describe('sets DU to DZ rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sdu')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'packages/auth/index.ts', 'export const auth = 1\n')
    write(repo, 'packages/cli/index.ts', 'export const cli = 1\n')
    write(repo, 'packages/claude-plugin/hooks.ts', 'export const hooks = 1\n')
    write(repo, 'docs/reference/CHEATSHEET.md', '# Cheatsheet\n')
    write(repo, 'Tools/Run.ps1', 'Write-Host run\n')
    write(repo, '.claude/skills/flash-board/SKILL.md', '# Flash\n')
    write(repo, '.agents/skills/flash-board/SKILL.md', '# Flash\n')
    write(
      repo,
      '.github/ISSUE_TEMPLATE/bug_report.yml',
      'body:\n  - label: "Values from http://board.local/values"\n',
    )
    write(repo, 'apps/app_main.py', 'def main():\n    pass\n')
    write(repo, 'design/backups/ui-1/app_main.py', 'def main():\n    pass\n')
    write(repo, 'design/backups/ui-2/app_main.py', 'def main():\n    pass\n')
    write(repo, 'package.json', '{\n  "devDependencies": {\n    "eslint": "^9.0.0"\n  }\n}\n')
    write(repo, 'LEGACY/old.py', 'x = 1\n')
    write(repo, 'scripts/old_batch.py', 'def run():\n    return 1\n')
    write(repo, 'scripts/old_pipeline.py', 'def go():\n    return 2\n')
    write(repo, 'scripts/standup.py', 'def plan():\n    return 3\n')
    commit('c1', '2026-01-01T12:00:00Z')
    rmSync(join(repo, 'scripts/old_batch.py'))
    write(repo, 'scripts/deprecated/old_batch.py', 'def run():\n    return 1\n')
    rmSync(join(repo, 'scripts/old_pipeline.py'))
    write(repo, 'scripts/deprecated/old_pipeline.py', 'def go():\n    return 2\n')
    commit('deprecate', '2026-01-05T12:00:00Z')
    rmSync(join(repo, 'packages/auth'), { recursive: true })
    rmSync(join(repo, 'docs/reference/CHEATSHEET.md'))
    rmSync(join(repo, 'Tools/Run.ps1'))
    rmSync(join(repo, '.claude/skills'), { recursive: true })
    write(repo, '.github/ISSUE_TEMPLATE/bug_report.yml', 'body:\n  - label: "Steps"\n')
    rmSync(join(repo, 'apps'), { recursive: true })
    write(
      repo,
      'package.json',
      '{\n  "scripts": {\n    "build": "tsc"\n  },\n  "devDependencies": {\n    "@biomejs/biome": "^2.0.0"\n  }\n}\n',
    )
    rmSync(join(repo, 'LEGACY'), { recursive: true })
    commit('drop', '2026-01-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Tree',
          '```\npackages/\n  auth/         # auth store\n  claude-plugin/# plugin hooks\n  cli/          # the CLI\n```',
        ],
        ['Tree line', '```\n  auth/         # auth-schema store: users, sessions\n```'],
        ['Tree kept', '```\n  cli/          # the CLI\n```'],
        ['Cheatsheet', '- [docs/reference/cheatsheet.md](docs/reference/cheatsheet.md) — commands'],
        ['Bench', '```powershell\n# Benchmarks\n.\\Tools\\Run.ps1\n```'],
        ['Skill', 'Flash with the `flash-board` skill.'],
        ['Values', '```bash\ncurl http://board.local/values | jq\n```'],
        ['Streamlit', '```bash\npy -m streamlit run apps/app_main.py --server.port 8501\n```'],
        ['Entry', '| `app_main.py` | the app entry |'],
        ['Lint', '- Run `./node_modules/.bin/eslint <changed files>` before finishing.'],
        ['Legacy', '- IGNORE completely any code in LEGACY/'],
        [
          'Deprecated',
          '- `old_batch.py` and `old_pipeline.py` are deprecated (moved to `scripts/deprecated/`). Use `standup.py --section plan` instead',
        ],
        ['Build step', 'There is no separate build step today; work against the sources.'],
        ['Lint step', 'There is no lint step yet.'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it("reads a tree's entries, a comment after the slash and a lone line too (DW me-r01, me-t07)", () => {
    called('Tree', 'stale', 'packages/auth', sha.drop)
    called('Tree line', 'stale', 'auth', sha.drop)
    quiet('Tree kept')
  })

  it('reads a link in another case as the file, deleted since (DV tm-r05)', () => {
    called('Cheatsheet', 'stale', 'docs/reference/CHEATSHEET.md', sha.drop)
  })

  it('reads a Windows relative path as a path (DV pb-r07)', () => {
    called('Bench', 'stale', 'Tools/Run.ps1', sha.drop)
  })

  it('keeps a skill that lives on in .agents/skills (DX da-r04)', () => {
    quiet('Skill')
  })

  it('reads an issue form as no code (DX da-r11)', () => {
    quiet('Values')
  })

  it("runs the file `py -m` is given, and reads a backups folder's copies as no namesake (DZ te-t02, te-t04)", () => {
    called('Streamlit', 'stale', 'apps/app_main.py', sha.drop)
    called('Entry', 'stale', 'apps/app_main.py', sha.drop)
    // Retired before the note was written: the copy kept is the file it means.
    quiet('Deprecated')
  })

  it('reads a program in node_modules/.bin as its package (DZ sc-r07)', () => {
    called('Lint', 'stale', 'eslint', sha.drop)
  })

  it('reads a folder in capitals the repository had as a path (DY jk-t04)', () => {
    called('Legacy', 'stale', 'LEGACY', sha.drop)
  })

  it('reads "no separate build step" as no build script, added since (DW gm-r11)', () => {
    called('Build step', 'suspect', '`build`')
    quiet('Lint step')
  })
})
