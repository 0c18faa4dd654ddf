/**
 * A file the note names, mostly rewritten since (issue 12 item 5: names intact, behaviour
 * changed): on a real git repository the note is suspect and the reason counts the lines gone;
 * a light edit, a short file or a document says nothing (src/core/audit/rewritten-files.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import {
  linesGone,
  mostlyRewritten,
  namesHeldThrough,
} from '../../../../src/core/audit/rewritten-files'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const numbered = (prefix: string, n: number, from = 0): string =>
  Array.from({ length: n }, (_, i) => `export const ${prefix}${i + from} = ${i + from}`).join(
    '\n',
  ) + '\n'

describe('lines gone since the note (pure)', () => {
  it('counts each line then that is gone now, as often as it appeared, ignoring indentation and blank lines', () => {
    expect(linesGone('a\n  b\nb\n\nc\n', 'b\n\na\nd\n')).toEqual({ linesThen: 4, gone: 2 })
  })
  it('needs 20 lines then and 60% of them gone, and leaves documents out', () => {
    const then = numbered('x', 30)
    const most = numbered('x', 11) + numbered('y', 19)
    const some = numbered('x', 13) + numbered('y', 17)
    expect(mostlyRewritten('src/a.ts', then, most)).toEqual({ linesThen: 30, gone: 19 })
    expect(mostlyRewritten('src/a.ts', then, some)).toBeNull()
    expect(mostlyRewritten('src/a.ts', numbered('x', 19), numbered('y', 19))).toBeNull()
    expect(mostlyRewritten('docs/guide.ts', then, most)).toBeNull()
    expect(mostlyRewritten('README.md', then, most)).toBeNull()
  })
  it('leaves package manifests out: their lines are checked one by one (blind set EY ak-r09)', () => {
    const then = numbered('x', 30)
    const most = numbered('x', 11) + numbered('y', 19)
    for (const m of ['package.json', 'packages/a/package.json', 'pyproject.toml', 'Cargo.toml'])
      expect(mostlyRewritten(m, then, most)).toBeNull()
    expect(mostlyRewritten('tsconfig.json', then, most)).not.toBeNull()
  })
  it('names the note ties to the file hold through a rewrite only when each is there then and now', () => {
    const then = 'final currentUid = 1;\nexport "service_providers.dart";\n'
    const now = 'final currentUidX = 2;\nexport "service_providers.dart";\nfinal currentUid = 3;\n'
    expect(namesHeldThrough([{ text: 'currentUid', word: true }], then, now)).toBe(true)
    expect(namesHeldThrough([{ text: 'service_providers.dart', word: false }], then, now)).toBe(
      true,
    )
    expect(namesHeldThrough([{ text: 'currentUid', word: true }], then, 'currentUidX')).toBe(false)
    expect(namesHeldThrough([{ text: 'gone', word: true }], 'no', 'gone')).toBe(false)
    expect(namesHeldThrough([], then, now)).toBe(false)
  })
})

describe('a named file rewritten since the note, on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('rw')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/engine.ts', numbered('step', 40))
    write(
      repo,
      'src/auth.ts',
      numbered('step', 37) +
        'export function signIn() {}\nexport const currentUid = 1\nexport * from "./services"\n',
    )
    write(repo, 'src/services.ts', 'export const services = 1\nexport function startEngine() {}\n')
    write(repo, 'src/tweak.ts', numbered('knob', 40))
    write(repo, 'src/short.ts', numbered('tiny', 10))
    write(repo, 'docs/guide.ts', numbered('page', 40))
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/engine.ts', numbered('step', 10) + numbered('phase', 30))
    write(
      repo,
      'src/auth.ts',
      numbered('phase', 38) + 'export const currentUid = 1\nexport * from "./services"\n',
    )
    write(repo, 'src/tweak.ts', numbered('knob', 36) + numbered('dial', 4))
    write(repo, 'src/short.ts', numbered('wee', 10))
    write(repo, 'docs/guide.ts', numbered('chapter', 40))
    commit('later', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['engine', 'The tick loop lives in `src/engine.ts`: one exported step per phase.'],
        ['tweak', 'Tuning knobs are in `src/tweak.ts`.'],
        ['short', 'Small helpers are in `src/short.ts`.'],
        ['doc', 'The guide pages are listed in `docs/guide.ts`.'],
        ['uid', '`currentUid` is in `src/auth.ts`.'],
        [
          'reexport',
          '`src/auth.ts` re-exports `services` from `src/services.ts`; it is where sign-in steps live.',
        ],
        ['uidstep', '`currentUid` is in `src/auth.ts`, beside `startEngine`.'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls the note suspect and counts the lines gone, naming the note’s commit', () => {
    const n = byTitle(notes, 'engine')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toBe(
      `most of \`src/engine.ts\` was rewritten since the note: 30 of the 40 lines it had when the note was written (${sha.c1}) are gone now`,
    )
  })

  it('a light edit, a short file and a document are not rewrites', () => {
    for (const t of ['tweak', 'short', 'doc'])
      expect(byTitle(notes, t).reasons.join('\n')).not.toContain('was rewritten')
    expect(byTitle(notes, 'tweak').verdict).toBe('fresh')
  })

  it('a rewrite says nothing when every other name the note ties to the file is in it then and now', () => {
    for (const t of ['uid', 'reexport']) {
      expect(byTitle(notes, t).reasons.join('\n')).not.toContain('was rewritten')
      expect(byTitle(notes, t).verdict, byTitle(notes, t).reasons.join('\n')).toBe('fresh')
    }
    // `startEngine` is in another file: the rewrite still counts.
    expect(byTitle(notes, 'uidstep').reasons.join('\n')).toContain(
      'most of `src/auth.ts` was rewritten',
    )
  })
})
