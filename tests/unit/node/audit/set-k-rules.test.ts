/**
 * Rules hidden set K (docs/eval-audit.md) showed were missing, on a real git repository: a file
 * named after a type the note names (`ContentView` → `ContentView.swift`) is a file the note
 * names, so a call refactored elsewhere says nothing of it; an access modifier dropped
 * (`private(set) var` → `var`) is not a change of what the note says; a phrase the note quotes
 * ("Open Plain Terminal") that a code line held and none holds now is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
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
    write(
      repo,
      'App/NoGitView.swift',
      'struct NoGitView: View {\n  // "Ask the user first" before any change\n  var body: some View {\n    Button("Open Plain Terminal") {}\n    Button("Initialize Git & Create Worktree") {}\n  }\n}\n',
    )
    write(repo, 'App/Menu.swift', 'let quit = Button("Quit Tenvy Now") {}\n')
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
    git(repo, 'rm', '-q', 'App/NoGitView.swift')
    commit('refactor', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['View', '- `ContentView` re-syncs `ThemeSync` on a system appearance change'],
        ['Sync', '- `ThemeSync` is applied whenever the settings mode changes'],
        ['Session', '- **`selectedSession`** tracks the focused pane'],
        ['Session access', '- `selectedSession` is `private(set)`: only the model sets it'],
        ['Dialog', '- Non-git dirs: "Initialize Git & Create Worktree" or "Open Plain Terminal"'],
        ['Menu', '- The app menu ends with "Quit Tenvy Now".'],
        ['Asking', '- Always "Ask the user first" before a change.'],
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

  it('calls a phrase a code line held when the note was written and none holds now stale', () => {
    const n = byTitle(notes, 'Dialog')
    expect(n.verdict).toBe('stale')
    expect(n.reasons.join('\n')).toContain('App/NoGitView.swift')
    expect(n.reasons.join('\n')).toContain(sha.refactor)
    // Still held: it says nothing (the note keeps its verdict).
    expect(['fresh', 'unverifiable']).toContain(byTitle(notes, 'Menu').verdict)
    // A phrase only a comment held is no code's.
    expect(byTitle(notes, 'Asking').verdict).not.toBe('stale')
  })
})
