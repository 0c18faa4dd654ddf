/**
 * Rules blind set AP (docs/eval-audit.md) showed were missing, on a real git repository: a
 * quote that names its thing `Foo` is an example of a pattern, not code that was removed when
 * the function it resembled changed; a committed session transcript (`.jsonl`) is not code, so
 * a name only a transcript held is no name the code lost; a folder a shell block's command
 * names (`pytest tests/api/`) is a path the repository held, and one git deleted after the note
 * and ignores since is gone, not "ignored, not checked".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const readFn = (thing: string, Thing: string): string[] => [
  '//goland:noinspection GoUnhandledErrorResult',
  `func resource${Thing}Read(_ context.Context, d *schema.ResourceData, m interface{}) diag.Diagnostics {`,
  '    c := getClient(m)',
  '    var diags diag.Diagnostics',
  `    ${thing}, err := c.Get${Thing}(d.Id())`,
  '    if err != nil {',
  '        return handleReadError(d, err, diags)',
  '    }',
  '    return diags',
  '}',
]

describe('set AP rules on a real repository', () => {
  const { repo, mem, commit } = historyCase('sap')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'provider/aks.go', `package provider\n\n${readFn('aks', 'Aks').join('\n')}\n`)
    write(
      repo,
      'provider/util.go',
      'package provider\n\n//goland:noinspection GoUnhandledErrorResult\nfunc closeAll(m interface{}) {\n    c := getClient(m)\n    handleReadError(nil, nil, c)\n}\n',
    )
    write(repo, 'ltms/config.py', 'LOG_LEVEL = "INFO"\n')
    write(repo, '.claude/projects/-home-x/s1.jsonl', '{"text": "DB_PATH=ltmc.db"}\n')
    write(repo, 'tests/api/test_rpc.py', 'def test_rpc():\n    assert True\n')
    write(repo, '.claude/handoff/pm-output.md', '# PM output\n')
    write(repo, '.claude/docs/erd.md', '# ERD\n')
    // Local assets, ignored when the note was written; committed for a while after it.
    write(repo, '.gitignore', 'static/\n')
    write(repo, 'static/models/city.img', 'img\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note: one resource's read function is rewritten, the other keeps the pattern;
    // the transcript goes and the config starts reading DB_PATH.
    write(
      repo,
      'provider/aks.go',
      'package provider\n\nfunc resourceAksRead(ctx context.Context, d *schema.ResourceData) error {\n    return readAks(ctx, d)\n}\n',
    )
    write(repo, '.claude/projects/-home-x/s1.jsonl', '{"text": "done"}\n')
    write(repo, 'ltms/config.py', 'LOG_LEVEL = "INFO"\nDB_PATH = os.getenv("DB_PATH", "ltmc.db")\n')
    // The suite is deleted and its folder ignored from then on.
    git(repo, 'rm', '-q', '-r', 'tests')
    git(repo, 'rm', '-q', '-r', '.claude/handoff', '.claude/docs')
    write(repo, '.gitignore', 'static/\ntests/\n.claude/handoff/\n.claude/docs/\n')
    commit('rewrite', '2026-03-01T12:00:00Z')
    git(repo, 'add', '-f', 'static/models/city.img')
    commit('assets-in', '2026-03-02T12:00:00Z')
    git(repo, 'rm', '-q', '-r', 'static')
    commit('assets-out', '2026-03-03T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Read template',
          `Read functions look like:\n\n\`\`\`go\n${readFn('foo', 'Foo').join('\n')}\n\`\`\``,
        ],
        [
          'Tests',
          'Run:\n\n```bash\npytest tests/api/          # API endpoint tests\nmypy ltms/\n```',
        ],
        ['Handoff', '- [ ] Requirements → .claude/handoff/pm-output.md'],
        ['Docs', '- [ERD](.claude/docs/erd.md) — the models and their relations'],
        ['Assets', '- The tests read `static/models/city.img`.'],
        [
          'Config',
          'Environment:\n\n```bash\nDB_PATH=ltmc.db      # SQLite database path\nLOG_LEVEL=INFO       # Logging verbosity\n```',
        ],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a quote naming `Foo` an example, not code removed since', () => {
    const n = byTitle(notes, 'Read template')
    expect(n.verdict).not.toBe('stale')
    expect(n.reasons[0]).toContain('a placeholder')
  })

  it("calls a folder a shell block's command names, deleted since and ignored, stale", () => {
    const n = byTitle(notes, 'Tests')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`tests/api` was deleted in')
  })

  it("leaves an agent's session file, deleted and ignored since, unchecked", () => {
    const n = byTitle(notes, 'Handoff')
    expect(n.verdict).not.toBe('stale')
    expect(n.reasons[0]).toBe('`.claude/handoff/pm-output.md` is ignored by git; not checked')
  })

  it('leaves a path ignored when the note was written, committed and removed since, unchecked', () => {
    const n = byTitle(notes, 'Assets')
    expect(n.verdict).not.toBe('stale')
    expect(n.verdict).not.toBe('never-matched')
  })

  it("calls a shared file of the agent's folder, deleted and ignored since, stale (blind set AU)", () => {
    const n = byTitle(notes, 'Docs')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
  })

  it('reads no committed transcript as code that held a name', () => {
    const n = byTitle(notes, 'Config')
    expect(n.reasons.join('\n')).not.toContain('left every code file')
    expect(['fresh', 'unverifiable']).toContain(n.verdict)
  })
})
