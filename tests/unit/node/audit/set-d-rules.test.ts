/**
 * Rules an unseen set (hidden set D1, docs/eval-audit.md "Hidden set D1") showed were missing, on
 * a real git repository: a quote of several lines is stale only if the code held it as a whole
 * when the note was written (one generic line of an example is not enough); a version the note
 * gives as the current one moved on when the code no longer holds it; a list item marked
 * `(pending)` is a plan state a later commit can say was done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const fence = (...lines: string[]): string => ['```zig', ...lines, '```'].join('\n')

describe('set D rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sd')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'src/layout.zig',
      'test "renders correctly" {\n    const a = 1;\n    try std.testing.expect(a == 1);\n}\n',
    )
    write(
      repo,
      'src/buffer.zig',
      'pub fn init(allocator: Allocator) !Buffer {\n    const cells = try allocator.alloc(Cell, 16);\n    return .{ .cells = cells };\n}\n',
    )
    write(repo, 'pubspec.yaml', 'name: app\nversion: 1.4.2+7\n')
    // The same number in an example a script prints: not the repository's version (blind set P).
    write(repo, 'scripts/audit.sh', 'echo "use: replace(\\"old\\", \\"new\\", \\"1.4.2+7\\")"\n')
    write(repo, 'src/main.zig', 'pub fn main() void {}\n')
    write(
      repo,
      'tests/download.zig',
      'test "download" {\n    const manager = Downloads.shared;\n}\n',
    )
    write(
      repo,
      'src/store.zig',
      'pub const Store = struct {\n    pub var global: Store = .{};\n};\n',
    )
    write(repo, 'tests/store.zig', 'test "store" {\n    const s = try Store.open(gpa);\n}\n')
    write(repo, 'web/lib/utils/currency.ts', 'export const currency = 1\n')
    write(repo, 'web/lib/utils/auto-categorize.ts', 'export const categorize = 1\n')
    write(
      repo,
      'client/package.json',
      '{\n  "dependencies": {\n    "tailwindcss": "^3.4.0",\n    "react": "^18.0.0"\n  }\n}\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/layout.zig', 'test "lays out rows" {\n    const a = 2;\n}\n')
    write(repo, 'src/buffer.zig', 'pub fn create(gpa: Allocator) !Buffer {\n    return .{};\n}\n')
    write(repo, 'pubspec.yaml', 'name: app\nversion: 1.5.0+9\n')
    write(
      repo,
      'tests/download.zig',
      'test "download" {\n    const manager = try Downloads.init(gpa);\n}\n',
    )
    write(
      repo,
      'src/store.zig',
      'pub const Store = struct {\n    pub fn init() Store { return .{}; }\n};\n',
    )
    write(repo, 'tests/store.zig', 'test "store" {\n    const s = try Store.open(allocator);\n}\n')
    git(repo, 'rm', '-q', 'web/lib/utils/auto-categorize.ts')
    write(repo, 'client/package.json', '{\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n')
    commit('bump', '2026-03-01T12:00:00Z')
    write(repo, 'src/validation.zig', 'pub fn validate() void {}\n')
    commit('feat: add input validation module', '2026-03-02T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Test example',
          `Tests capture output:\n\n${fence(
            'test "renders correctly" {',
            '    var stream = std.io.fixedBufferStream(&buf);',
            '    try myModule.render(stream.writer());',
            '    try std.testing.expectEqualStrings("expected output", stream.getWritten());',
            '}',
          )}`,
        ],
        [
          'Buffer init',
          `The buffer:\n\n${fence(
            'pub fn init(allocator: Allocator) !Buffer {',
            '    const cells = try allocator.alloc(Cell, 16);',
            '    return .{ .cells = cells };',
            '}',
          )}`,
        ],
        [
          'Download example',
          `Usage:\n\n${fence(
            'const manager = Downloads.shared;',
            'const task = try manager.fetch(url, "/tmp/file.bin");',
            'defer task.deinit();',
          )}`,
        ],
        [
          'Store example',
          `Usage:\n\n${fence(
            'const store = Store.global;',
            'const s = try Store.open(gpa);',
            'defer store.close();',
          )}`,
        ],
        [
          'Styling',
          '- Tailwind CSS is being phased out in favor of MUI sx props; React is deprecated nowhere.',
        ],
        ['Utils', '- `lib/utils/` — currency, auto-categorize, helpers'],
        ['Release', '- Current version: `1.4.2+7`, tag `v1.4.2`'],
        ['Milestones', '- The latest milestone is v3.0.0, planned for June.'],
        ['Next items', '- ⏳ Input validation (pending)\n- ⏳ Theme editor (pending)'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a quote whose one line was code, but not the quote, an example: never stale', () => {
    const n = byTitle(notes, 'Test example')
    expect(n.verdict).toBe('never-matched')
    expect(n.reasons[0]).toContain('when the note was written the closest file, `src/layout.zig`')
  })

  it('still calls a quote the code held as a whole, and lost since, stale', () => {
    const n = byTitle(notes, 'Buffer init')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain(sha.bump)
  })

  it('calls an example stale when the API its code line used left the code', () => {
    const n = byTitle(notes, 'Download example')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain(sha.bump)
  })

  it('calls an example stale when a member its type declared then is gone', () => {
    // `Store.global` was never written so in the code, but `Store`'s file declared `global`.
    const n = byTitle(notes, 'Store example')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain(sha.bump)
  })

  it('calls a folder listing stale when a member it had then is gone, and says nothing of words', () => {
    const n = byTitle(notes, 'Utils')
    expect(n.verdict).toBe('stale')
    expect(n.reasons.join('\n')).toContain('`auto-categorize` was in `lib/utils/`')
    expect(n.reasons.find((r) => r.includes('auto-categorize'))).toContain(sha.bump)
    expect(n.reasons.join('\n')).not.toMatch(/`helpers`|`currency`/)
  })

  it('calls a phase-out stale once the package left every manifest', () => {
    const n = byTitle(notes, 'Styling')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain('tailwindcss')
    expect(n.reasons[0]).toContain(sha.bump)
  })

  it('calls a current version the code no longer holds stale, and a version it never held nothing', () => {
    const n = byTitle(notes, 'Release')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain('`1.4.2+7` was in `pubspec.yaml` line 2')
    expect(n.reasons[0]).toContain('no line setting a version holds it now')
    expect(n.reasons[0]).toContain(sha.bump)
    expect(byTitle(notes, 'Milestones').verdict).not.toBe('stale')
  })

  it('calls an item marked (pending) suspect once a later commit says it was made', () => {
    const n = byTitle(notes, 'Next items')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('feat: add input validation module')
    expect(n.reasons.join('\n')).not.toMatch(/theme editor/i)
  })
})
