/**
 * Rules blind sets AV, AW, AZ, BA and BB (docs/eval-audit.md) showed were missing, on a real git repository:
 * a partial folder path whose one match now is the tests' mirror of a source folder that went;
 * a committed agent worktree (`.claude/worktrees/…`) that keeps a deleted file's copy; a folder's
 * members listed in parentheses inside a table cell; the version a `VERSION` file held; a bare
 * list of names (`database, redis, qdrant, jwt`) as the files of the folder that held them; a
 * version an install line pins (`claude-code@2.1.107`); Claude Code's `.claude.json` (set AZ);
 * `cd ~/<repository>/inventory` as the repository's `inventory` (set BA); a quoted import's
 * module (`from src.config.ssot_config import config`, set BB); a platform named in prose (`iOS`)
 * is not a name the file beside it must hold (set BC); `.migration_freeze` is a file (set BB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

/** A Swift type of some length, so git sees a moved file as a rename. */
const swift = (name: string): string =>
  `import Foundation\n\n@MainActor\nfinal class ${name} {\n${Array.from(
    { length: 12 },
    (_, i) => `  var field${i}: Int = ${i}\n`,
  ).join('')}}\n`

describe('set AV and AW rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sav')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'Sources/App/Core/Stores/WorkspaceStore.swift', swift('WorkspaceStore'))
    write(repo, 'Sources/App/Core/Stores/SessionRuntime.swift', swift('SessionRuntime'))
    write(repo, 'Tests/AppTests/Core/Stores/WorkspaceStoreTests.swift', swift('StoreTests'))
    write(repo, 'Tests/AppTests/Core/Mocks/MockStore.swift', swift('MockStore'))
    write(repo, 'app/services/orchestrator_service.py', 'def record_run(run):\n    return run\n')
    write(repo, 'app/services/run_recorder.py', 'def save(run):\n    return run\n')
    write(
      repo,
      '.claude/worktrees/agent-a1/app/services/orchestrator_service.py',
      'def record_run(run):\n    return run\n',
    )
    for (const m of ['base', 'ws_adapter', 'factory'])
      write(repo, `lib/adapters/${m}.py`, `class ${m.toUpperCase()}:\n    pass\n`)
    for (const name of ['database', 'redis', 'qdrant', 'jwt'])
      write(repo, `infra/secrets/${name}.secret.example`, `${name.toUpperCase()}_KEY=\n`)
    write(repo, 'VERSION', '0.1.1\n')
    write(
      repo,
      'docker/Dockerfile',
      'FROM node:20\nRUN npm install -g @anthropic-ai/claude-code@2.1.107\n',
    )
    write(repo, 'src/config/ssot_config.py', 'config = object()\n')
    write(repo, 'app/services/__init__.py', '')
    write(repo, 'app/services/mail.py', 'def send():\n    return 1\n')
    write(repo, 'src/components/IosWarning.tsx', 'export const IosWarning = () => "iOS only"\n')
    write(repo, 'src/platform.ts', 'export const isIOS = (ua: string) => ua.includes("iOS")\n')
    write(repo, '.migration_freeze', 'DB split in progress\n')
    write(repo, 'inventory/Cargo.toml', '[package]\nname = "inventory"\nversion = "0.1.0"\n')
    write(repo, 'install.sh', '#!/bin/sh\necho install\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'mv', 'Sources/App/Core/Stores/WorkspaceStore.swift', 'Sources/App/Core/State')
    git(repo, 'mv', 'Sources/App/Core/Stores/SessionRuntime.swift', 'Sources/App/Core/Runtime')
    git(repo, 'rm', '-q', 'app/services/orchestrator_service.py', 'lib/adapters/ws_adapter.py')
    git(repo, 'rm', '-q', 'infra/secrets/qdrant.secret.example')
    git(repo, 'mv', 'inventory', 'home-inventory')
    git(repo, 'rm', '-q', 'src/config/ssot_config.py', '.migration_freeze')
    write(repo, 'src/components/IosWarning.tsx', 'export const IosWarning = () => "ios only"\n')
    write(repo, 'VERSION', '0.8.0\n')
    write(
      repo,
      'docker/Dockerfile',
      'FROM node:20\nRUN npm install -g @anthropic-ai/claude-code@2.1.170\n',
    )
    commit('split', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Stores', '| `WorkspaceStore` | `Core/Stores/` | Canonical associations |'],
        ['Mocks', '| `MockStore` | `Core/Mocks/` | Test doubles |'],
        ['Runs', 'Runs are recorded by `orchestrator_service.py` after each step.'],
        ['Adapters', '| Transport adapters | `lib/adapters/` (base, ws_adapter, factory) |'],
        ['Layout', '- `install.sh` (installer), `VERSION` (0.1.1), `LICENSE` (MIT).'],
        ['Release', '- **Version:** 0.1.1 · **License:** MIT'],
        [
          'Secrets',
          '| Level | Secrets | Effect |\n|---|---|---|\n| CRITICAL | database, redis, qdrant, jwt | Blocks startup |',
        ],
        ['Pinned', '- **Claude Code CLI: `2.1.107`**. Do not bump without a run.'],
        ['Home file', 'Claude Code 2.1.126 requires `.claude.json` in the home.'],
        ['Image build', '- Image: `cd ~/sav-repo/inventory && docker build -t inventory:dev .`'],
        ['SSOT', '```python\n# ✅ Use SSOT config\nfrom src.config.ssot_config import config\n```'],
        ['Services', '```python\nfrom app.services import mail\nfrom django.db import models\n```'],
        ['Warning', '- `IosWarning.tsx` — shown first on problematic iOS contexts'],
        ['Freeze', '| **Migration freeze active** (`.migration_freeze`) | no new migrations |'],
        ['Attribute', 'A user is checked with `.is_active` before each step.'],
        ['Kept secrets', '| OPTIONAL | database, redis, jwt, admin | Silent |'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it('reads a partial folder path as the source folder that went, not its tests mirror (AV)', () => {
    const n = byTitle(notes, 'Stores')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`Sources/App/Core/Stores`')
    expect(n.reasons[0]).toContain(sha.split)
  })

  it('keeps a folder only the tests ever had resolved to it', () => {
    const n = byTitle(notes, 'Mocks')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })

  it('does not let a committed agent worktree keep a deleted file alive (AW)', () => {
    const n = byTitle(notes, 'Runs')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('app/services/orchestrator_service.py')
    expect(n.reasons[0]).toContain(sha.split)
  })

  it("reads a folder's members listed in parentheses in a table cell (AW)", () => {
    const n = byTitle(notes, 'Adapters')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`ws_adapter` was in `lib/adapters/`')
  })

  it('reads a bare list of names as the files of the folder that held them (AV)', () => {
    const n = byTitle(notes, 'Secrets')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`qdrant` was in `infra/secrets/`')
    expect(n.reasons[0]).toContain(sha.split)
    // A name the folder never had (`admin`) is not one that left.
    const kept = byTitle(notes, 'Kept secrets')
    expect(['fresh', 'unverifiable'], kept.reasons.join('\n')).toContain(kept.verdict)
  })

  it("reads a version an install line pinned, and Claude Code's `.claude.json` as the home's (AZ)", () => {
    const n = byTitle(notes, 'Pinned')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`2.1.107` was in `docker/Dockerfile`')
    const home = byTitle(notes, 'Home file')
    expect(home.verdict, home.reasons.join('\n')).not.toBe('never-matched')
    expect(home.reasons[0]).toContain('`.claude.json` is outside the audited repository')
  })

  it("reads a path into a home's checkout of the repository as the repository's (BA)", () => {
    const n = byTitle(notes, 'Image build')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`inventory` was renamed to `home-inventory`')
  })

  it("reads a quoted import's module as a file of the repository, even in an example (BB)", () => {
    const n = byTitle(notes, 'SSOT')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`src/config/ssot_config.py` was deleted in ' + sha.split)
    // A package folder is a module too; another package's module is not checked.
    const s2 = byTitle(notes, 'Services')
    expect(s2.references.find((r) => r.text === 'app.services')?.status).toBe('ok')
    expect(s2.reasons.join('\n')).toContain("`django.db` is another package's module")
  })

  it('does not read a platform named in prose as a name the file it names must hold (BC)', () => {
    const n = byTitle(notes, 'Warning')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })

  it('reads a dot-name of two words as a file when the repository had one (BB)', () => {
    const n = byTitle(notes, 'Freeze')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`.migration_freeze` was deleted in ' + sha.split)
    // One the repository never had is an attribute, not a file wrong from the start.
    const a = byTitle(notes, 'Attribute')
    expect(a.verdict, a.reasons.join('\n')).not.toBe('never-matched')
  })

  it('reads the version a VERSION file held, after the file name or a Version label (AW)', () => {
    for (const title of ['Layout', 'Release']) {
      const n = byTitle(notes, title)
      expect(n.verdict, `${title}: ${n.reasons.join('\n')}`).toBe('stale')
      expect(n.reasons[0]).toContain('`0.1.1` was in `VERSION`')
      expect(n.reasons[0]).toContain('no line setting a version holds it now')
    }
  })
})
