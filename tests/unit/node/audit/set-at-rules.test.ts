/**
 * A rule blind set AT (docs/eval-audit.md) showed was missing, on a real git repository: an
 * example whose one code line (its import) the code held when the note was written, and holds
 * still in other files, lost nothing when one file stopped using it; the example is not stale.
 * A quote the code held as a whole, whose lines went, still is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const IMPORT = "import { fetchWithTimeout } from '@/lib/fetch-with-timeout'"

describe('set AT rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sat')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'lib/fetch-with-timeout.ts', 'export async function fetchWithTimeout() {}\n')
    write(
      repo,
      'app/a.ts',
      `${IMPORT}\nconst response = await fetchWithTimeout(DATA_URL, {}, 8000)\n`,
    )
    write(repo, 'app/b.ts', `${IMPORT}\nexport const POLL_MS = 500\n`)
    write(repo, 'app/c.ts', 'export function legacyLoad() {\n  return oldClient.get(url)\n}\n')
    write(
      repo,
      'src/manager.ts',
      "export function report(text: string) {\n  logger.debug({\n    iteration: this.iteration,\n    textLength: text.length,\n  }, 'Manager output received')\n}\n",
    )
    write(repo, 'src/stats.ts', 'export const stats = { iteration: 0, textLength: 0 }\n')
    write(repo, 'mobile/pubspec.yaml', 'name: app\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'app/a.ts', 'export async function load() {\n  return null\n}\n')
    write(repo, 'app/c.ts', 'export function load2() {\n  return 2\n}\n')
    write(repo, 'src/manager.ts', "export function report() {\n  logger.info('done')\n}\n")
    git(repo, 'mv', 'mobile', 'client')
    commit('a-changed', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Fetch example',
          `All fetches:\n\n\`\`\`ts\n${IMPORT}\nconst response = await fetchWithTimeout('/api/data', {}, 8000)\n\`\`\``,
        ],
        [
          'Logging rule',
          "Log content:\n\n```ts\n// ❌ Bad - only metadata\nlogger.debug({\n  iteration: this.iteration,\n  textLength: text.length,\n}, 'Manager output received')\n\n// ✅ Good - includes content\nlogger.debug({\n  iteration: this.iteration,\n  content: text,\n}, 'Manager output received')\n```",
        ],
        ['Setup', 'Install:\n\n```sh\ncd mobile && dart pub get\ncd ..\n```'],
        [
          'Legacy',
          'Loading:\n\n```ts\nexport function legacyLoad() {\n  return oldClient.get(url)\n}\n```',
        ],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it('calls an example whose code lines the code holds still not stale', () => {
    const n = byTitle(notes, 'Fetch example')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons[0]).toContain('it holds still (`app/b.ts`)')
  })

  it('calls a quote marked as a good or bad example an example, not code removed (blind set AU)', () => {
    const n = byTitle(notes, 'Logging rule')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons[0]).toContain('it is marked as an example (`❌`)')
  })

  it('reads the folder `cd` goes into as a path (blind set AT)', () => {
    const n = byTitle(notes, 'Setup')
    expect(['stale', 'suspect']).toContain(n.verdict)
    expect(n.reasons[0]).toContain('`mobile` was renamed to `client`')
  })

  it('still calls a quote whose code lines went stale', () => {
    const n = byTitle(notes, 'Legacy')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain(sha['a-changed'])
  })
})
