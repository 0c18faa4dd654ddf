/**
 * Rules blind sets BT to BY (docs/eval-audit.md) showed were missing, on a real git repository:
 * `cd executor && uv run pytest` rests on `executor/pyproject.toml` (set BX: a Python service
 * rewritten in Rust under its test command); a pytest file with a placeholder
 * (`tests/test_<name>.py::test_<case>`) stands for the files it matches (set BT); a path the
 * repository gained well after the note was a plan carried out since (set BW: a to-do list of
 * files in Chinese); a prose word the code held only inside a string is no name of the code
 * (set BY: `WebGL` read as leaving the code); "Max 3 tasks" is a limit, not a folder's count;
 * and a name now in a file named after a name the line gives beside it is where the note puts
 * it (set BY). An editor's file (`vim src/x.md`), a block's header comment (`# tests/x.py`) and
 * the names a block imports from a `src/`-layout module are the note's too, and a CSS custom
 * property set to a value (`--foreground: 0 0% 4%`) is quoted code (set BZ).
 */
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set BT to BY rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sby')
  let notes: readonly AuditNote[] = []
  const card = (use: string): string =>
    `import { ${use} } from '@dnd-kit/sortable'\nexport function SortableTaskCard() {\n  return ${use}({ id: 1 })\n}\n`

  beforeAll(async () => {
    write(repo, 'executor/pyproject.toml', '[project]\nname = "executor"\n')
    write(repo, 'executor/app.py', 'def main():\n    return 1\n')
    write(repo, 'backend/pyproject.toml', '[project]\nname = "backend"\n')
    write(repo, 'tools/run.py', 'print(1)\n')
    write(repo, 'agent/test_memory.py', 'def test_one():\n    assert True\n')
    write(repo, 'agent/test_client.py', 'def test_two():\n    assert True\n')
    write(repo, 'internal/router.go', 'package internal\n')
    write(
      repo,
      'src/Tunnel.tsx',
      "export function Tunnel() {\n  console.warn('WebGL not supported, falling back to 2D')\n  return dispose()\n}\n",
    )
    for (const f of ['Now', 'Next', 'Later'])
      write(repo, `src/features/tasks/${f}.tsx`, `export const ${f} = 1\n`)
    write(repo, 'src/features/board/TasksPage.tsx', `${card('useSortable')}export const page = 1\n`)
    write(repo, 'docs/templates/implement.md', '# Implement\n')
    write(repo, 'tests/test_mig.py', 'def test_mig():\n    assert True\n')
    write(repo, 'src/acme_cli/merge/__init__.py', 'def run_preflight():\n    return 1\n')
    write(repo, 'src/acme_cli/merge/state.py', 'class State:\n    pass\n')
    write(
      repo,
      'src/index.css',
      ':root {\n  --foreground: 0 0% 4%;\n  --background: 0 0% 100%;\n}\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    // A day after the note: the session's own work, committed late.
    write(repo, 'internal/handler/late.go', 'package handler\n')
    commit('late', '2026-01-11T12:00:00Z')
    rmSync(join(repo, 'executor/pyproject.toml'))
    rmSync(join(repo, 'executor/app.py'))
    write(repo, 'executor/Cargo.toml', '[package]\nname = "executor"\n')
    rmSync(join(repo, 'agent'), { recursive: true })
    write(repo, 'agent/main.rs', 'fn main() {}\n')
    write(repo, 'internal/handler/portal/auth.go', 'package portal\n')
    write(repo, 'web/out/index.html', '<html></html>\n')
    write(repo, 'examples/demo/project.yml', 'name: demo\n')
    rmSync(join(repo, 'src/Tunnel.tsx'))
    write(
      repo,
      'src/shell/tunnel.tsx',
      "export function Tunnel() {\n  console.warn('WebGL unavailable')\n  return dispose()\n}\n",
    )
    write(repo, 'src/features/tasks/Done.tsx', 'export const Done = 1\n')
    write(
      repo,
      'src/features/board/TasksPage.tsx',
      "import { SortableTaskCard } from './SortableTaskCard'\nexport const page = SortableTaskCard\n",
    )
    write(repo, 'src/features/board/SortableTaskCard.tsx', card('useSortable'))
    rmSync(join(repo, 'docs/templates/implement.md'))
    rmSync(join(repo, 'tests/test_mig.py'))
    write(repo, 'src/acme_cli/merge/__init__.py', 'from .state import State\n')
    write(repo, 'src/acme_cli/sync/preflight.py', 'def run_preflight():\n    return 2\n')
    write(
      repo,
      'src/index.css',
      ':root {\n  --foreground: 0 0% 6.7%;\n  --background: 0 0% 100%;\n}\n',
    )
    commit('change', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Tests',
          'Run the tests:\n\n```bash\ncd backend && uv run pytest\ncd executor && uv run pytest\n```',
        ],
        ['Backend', 'Run the tests:\n\n```bash\ncd backend && uv run pytest\n```'],
        ['Tools', 'Run it:\n\n```bash\ncd tools && uv run python run.py\n```'],
        ['One test', 'One test: `uv run pytest agent/test_<name>.py::test_<case>`.'],
        [
          'Portal',
          '`internal/handler/portal/` 目录未实现，需要创建：`internal/handler/portal/auth.go`',
        ],
        ['Late', 'The late handler: `internal/handler/late.go`.'],
        ['Export', 'The static export lands in `web/out/`, embedded by Go.'],
        ['Config', 'All configuration of a project goes in its `project.yml`.'],
        ['GPU', 'WebGL components MUST implement dispose() and call it in cleanup.'],
        ['Pool', '| **NOW pool** | Max 3 tasks — what the user does right now |'],
        [
          'Drag',
          '`TasksPage.tsx` — `SortableTaskCard` uses `useSortable` from `@dnd-kit/sortable`.',
        ],
        ['Template', 'Edit the source:\n\n```bash\nvim docs/templates/implement.md\n```'],
        ['Header', '```python\n# tests/test_mig.py\ndef test_mig():\n    ...\n```'],
        ['Preflight', '```python\nfrom acme_cli.merge import run_preflight, State\n```'],
        [
          'Theme',
          'Strict monochrome: black `--foreground: 0 0% 4%`, white `--background: 0 0% 100%`.',
        ],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it("reads `cd X && uv run` as resting on X's pyproject.toml (BX)", () => {
    const tests = byTitle(notes, 'Tests')
    expect(tests.verdict, tests.reasons.join('\n')).toBe('stale')
    expect(tests.reasons.join('\n')).toContain('`executor/pyproject.toml`')
    expect(tests.reasons.join('\n')).toContain(sha.change)
    expect(byTitle(notes, 'Backend').verdict).toBe('fresh')
    // A folder that never had one says nothing: `uv run` finds the project above it.
    const tools = byTitle(notes, 'Tools')
    expect(tools.verdict, tools.reasons.join('\n')).toBe('fresh')
    expect(tools.reasons.join('\n')).not.toContain('pyproject')
  })

  it("reads a pytest file's placeholder as the files it matches (BT)", () => {
    const n = byTitle(notes, 'One test')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('matched 2 files')
  })

  it("reads an editor's file, a block's header file and a `src/` module's names (BZ)", () => {
    for (const [title, gone] of [
      ['Template', '`docs/templates/implement.md`'],
      ['Header', '`tests/test_mig.py`'],
      ['Preflight', '`run_preflight` was in `src/acme_cli/merge/__init__.py`'],
    ]) {
      const n = byTitle(notes, title)
      expect(n.verdict, n.reasons.join('\n')).toBe('stale')
      expect(n.reasons.join('\n')).toContain(gone)
    }
  })

  it("reads a CSS custom property's value as quoted code (BZ)", () => {
    const n = byTitle(notes, 'Theme')
    // The value changed in place: the line is there with another value.
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('`--foreground: 0 0% 4%`')
  })

  it('reads a path gained well after the note as a plan carried out since (BW)', () => {
    const portal = byTitle(notes, 'Portal')
    expect(portal.verdict, portal.reasons.join('\n')).toBe('suspect')
    expect(portal.reasons.join('\n')).toContain(`came in ${sha.change}`)
    // A day later is the session's own work committed late.
    const late = byTitle(notes, 'Late')
    expect(late.verdict, late.reasons.join('\n')).toBe('fresh')
    // A build's output committed later is not a plan (blind set BS).
    const out = byTitle(notes, 'Export')
    expect(out.verdict, out.reasons.join('\n')).toBe('fresh')
    // A bare file name names a kind of file as often as one (blind set BP).
    const config = byTitle(notes, 'Config')
    expect(config.reasons.join('\n')).not.toContain('was not in the repository')
  })

  it('reads a word the code held only in a string as no name of the code (BY)', () => {
    const n = byTitle(notes, 'GPU')
    expect(n.reasons.join('\n')).not.toContain('`WebGL` left every code file')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('suspect')
  })

  it('reads a limit ("Max 3 tasks") as no count of a folder\'s files (BY)', () => {
    const n = byTitle(notes, 'Pool')
    expect(n.reasons.join('\n')).not.toContain('the note counts')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('suspect')
  })

  it('reads a name now in a file named after a name beside it as where the note puts it (BY)', () => {
    const n = byTitle(notes, 'Drag')
    expect(n.reasons.join('\n')).not.toContain('`useSortable` was in')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })
})
