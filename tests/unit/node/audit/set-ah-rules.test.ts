/**
 * The rules blind set AH asked for (issue 12): a bare file name that matched one file when the
 * note was written and matches several now (AH nr-t05: `page.tsx` before the app's routes split
 * into `create/page.tsx`, `play/page.tsx`…) names the one that was there; a change in the note's
 * own second is no earlier than the note (the pure rule is in verdict.test.ts). Real git
 * repositories in temp folders.
 */
import { afterAll, describe, expect, it } from 'vitest'
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
