/**
 * The rules blind set AH asked for (issue 12): a bare file name that matched one file when the
 * note was written and matches several now (AH nr-t05: `page.tsx` before the app's routes split
 * into `create/page.tsx`, `play/page.tsx`…) names the one that was there; a change in the note's
 * own second is no earlier than the note (the pure rule is in verdict.test.ts); a back-ticked
 * key the code stopped using (AH nr-r10: a store's persist key renamed); and from blind set AJ,
 * a constant a shell script reads as `"$SKIP_LINT"` is still in the code (AJ xa-t08). Real git
 * repositories in temp folders.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { keySpans } from '../../../../src/core/audit/command-texts'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('a bare name that had one namesake when the note was written (blind set AH)', () => {
  const { repo, mem, commit } = historyCase('set-ah-namesakes')

  it('checks the file that was there, not "one of several"', async () => {
    const page = (body: string): string =>
      `export default function Page() {\n  const url = sceneImageUrl(prompt)\n  ${body}\n}\n`
    write(repo, 'src/app/page.tsx', page("return render('menu')"))
    write(repo, 'src/lib/text.ts', 'export const tone = 1\n')
    commit('c1', '2026-06-01T12:00:00Z')
    // After the note: routes split, and the image URL left the first page.
    write(repo, 'src/app/create/page.tsx', 'export default function Page() {\n  return null\n}\n')
    write(
      repo,
      'src/app/play/page.tsx',
      page("return render('play')").replace('(prompt)', '(prompt, style)'),
    )
    write(
      repo,
      'src/app/page.tsx',
      "export default function Page() {\n  return render('menu')\n}\n",
    )
    commit('split', '2026-06-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        ['Image', '- `page.tsx` builds the image with `sceneImageUrl` from the prompt'],
        ['Tone', '- `text.ts` exports `tone`'],
      ],
      '2026-06-10T12:00:00Z',
    )
    const n = byTitle(notes, 'Image')
    const text = n.reasons.join('\n')
    expect(text).toContain(
      '`page.tsx` resolved to `src/app/page.tsx`, the one of its 3 namesakes there when the note was written',
    )
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('sceneImageUrl')
    expect(byTitle(notes, 'Tone').verdict).toBe('fresh')
  }, 60_000)

  it('leaves a name that had several namesakes then unresolved', async () => {
    const notes = await auditTopics(
      repo,
      `${mem}-later`,
      [['Later', '- `page.tsx` builds the image with `sceneImageUrl` from the prompt']],
      '2026-06-25T12:00:00Z',
    )
    expect(byTitle(notes, 'Later').reasons.join('\n')).toContain(
      '`page.tsx` matches 3 tracked files',
    )
  }, 60_000)
})

describe('keySpans (blind set AH)', () => {
  it('reads back-ticked keys of three or more hyphenated words', () => {
    expect(
      keySpans(
        'Saved as `ai-realm-save`; emits `agent-run-started`; `dark-mode`, `--dry-run`, `a-b-c`',
      ),
    ).toEqual(['ai-realm-save', 'agent-run-started'])
  })
})

describe('a key the code stopped using, on a real repository (blind set AH)', () => {
  const { repo, mem, sha, commit } = historyCase('set-ah-keys')

  it('calls a renamed key stale, and says nothing of one the code never held', async () => {
    const store = (key: string): string =>
      `export const useStore = create(persist(() => ({}), { name: '${key}' }))\n`
    write(repo, 'src/store.ts', store('ai-realm-save'))
    write(repo, 'src/events.ts', "export const started = 'agent-run-started'\n")
    commit('c1', '2026-06-01T12:00:00Z')
    write(repo, 'src/store.ts', store('storyweave-save'))
    commit('renamed', '2026-06-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        ['Store', '- One store, persisted to localStorage as `ai-realm-save`'],
        ['Event', '- The runner emits `agent-run-started` first'],
        ['Never', '- Sessions are cached under `some-other-key` in Redis'],
      ],
      '2026-06-10T12:00:00Z',
    )
    const n = byTitle(notes, 'Store')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`ai-realm-save` was in `src/store.ts`')
    expect(text).toContain(sha.renamed)
    // A key still held says nothing on its own, as any prose candidate.
    expect(byTitle(notes, 'Event').verdict).toBe('unverifiable')
    const never = byTitle(notes, 'Never')
    expect(never.verdict).toBe('unverifiable')
    expect(never.reasons.join('\n')).not.toContain('some-other-key')
  }, 60_000)
})

describe('a constant a shell script reads after its `$` (blind set AJ)', () => {
  const { repo, mem, commit } = historyCase('set-aj-sigil')

  it('is still in the code, and gone once no line holds it', async () => {
    const hook = (extra: string): string =>
      `#!/bin/sh\n${extra}if [ "$SKIP_LINT" != "1" ]; then\n  npx eslint .\nfi\n`
    write(
      repo,
      '.githooks/pre-commit',
      hook('# SKIP_LINT=1 skips eslint; SKIP_TYPES=1 skips tsc\n'),
    )
    write(repo, 'scripts/types.sh', 'if [ "$SKIP_TYPES" != "1" ]; then tsc; fi\n')
    commit('c1', '2026-06-01T12:00:00Z')
    write(repo, '.githooks/pre-commit', hook(''))
    write(repo, 'scripts/types.sh', 'tsc\n')
    commit('later', '2026-06-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        ['Lint', '- Skip the lint with SKIP_LINT=1 before committing'],
        ['Types', '- Skip the type check with SKIP_TYPES=1 before committing'],
      ],
      '2026-06-10T12:00:00Z',
    )
    const lint = byTitle(notes, 'Lint')
    expect(lint.reasons.join('\n'), lint.reasons.join('\n')).not.toContain('not found now')
    expect(lint.verdict, lint.reasons.join('\n')).not.toBe('stale')
    const types = byTitle(notes, 'Types')
    expect(types.verdict, types.reasons.join('\n')).toBe('stale')
  }, 60_000)
})
