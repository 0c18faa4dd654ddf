/**
 * Rules hidden set K (docs/eval-audit.md) showed were missing, on a real git repository: a file
 * named after a type the note names (`ContentView` → `ContentView.swift`) is a file the note
 * names, so a call refactored elsewhere says nothing of it; an access modifier dropped
 * (`private(set) var` → `var`) is not a change of what the note says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set K rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sk')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'App/ThemeSync.swift', 'enum ThemeSync {\n  static func apply(_ m: Mode) {}\n}\n')
    write(
      repo,
      'App/ContentView.swift',
      'struct ContentView: View {\n  func changed() {\n    ThemeSync.apply(.system)\n  }\n}\n',
    )
    write(
      repo,
      'App/Settings.swift',
      'final class Settings {\n  var mode: Mode = .dark {\n    didSet { ThemeSync.apply(mode) }\n  }\n}\n',
    )
    write(
      repo,
      'App/ViewModel.swift',
      'final class ViewModel {\n  private(set) var selectedSession: Session?\n}\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'App/Settings.swift',
      'final class Settings {\n  let sync: Syncing\n  init(sync: Syncing = Syncer()) { self.sync = sync }\n}\n',
    )
    write(
      repo,
      'App/ViewModel.swift',
      'final class ViewModel {\n  var selectedSession: Session?\n}\n',
    )
    commit('refactor', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['View', '- `ContentView` re-syncs `ThemeSync` on a system appearance change'],
        ['Sync', '- `ThemeSync` is applied whenever the settings mode changes'],
        ['Session', '- **`selectedSession`** tracks the focused pane'],
        ['Session access', '- `selectedSession` is `private(set)`: only the model sets it'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('reads only the file named after a type the note names', () => {
    expect(byTitle(notes, 'View').verdict).toBe('fresh')
    const sync = byTitle(notes, 'Sync')
    expect(sync.verdict).toBe('suspect')
    expect(sync.reasons[0]).toContain(sha.refactor)
  })

  it('keeps a line whose only change is an access modifier the note does not write', () => {
    expect(byTitle(notes, 'Session').verdict).toBe('fresh')
    expect(['suspect', 'stale']).toContain(byTitle(notes, 'Session access').verdict)
  })
})
