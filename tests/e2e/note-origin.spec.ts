/**
 * Beside each note, the session that wrote it (issue 12 items 9 and 10), in real Chromium against
 * real `serve`: the person's words and the tool results before the write, hostile text shown as
 * text, which notes have evidence and which never will, and the archive surviving the transcript.
 */
import { rmSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, isolatedEnv, startServe, test as base, type ServeHandle } from './fixtures'
import {
  createEvidenceFixture,
  PERSON_WORDS,
  PERSON_WORDS_2,
  type EvidenceFixture,
} from '../helpers/evidence-fixture'

const test = base.extend<{ ev: EvidenceFixture; server: ServeHandle }>({
  // eslint-disable-next-line no-empty-pattern
  ev: async ({}, use) => {
    const f = createEvidenceFixture()
    await use(f)
    f.cleanup()
  },
  server: async ({ ev }, use) => {
    const s = await startServe([...ev.serveArgs()], isolatedEnv(ev.root))
    await use(s)
    await s.stop()
  },
})

/** Console errors and page errors: the spec fails on any. */
function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} at ${m.location().url}`)
  })
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`)
    void d.dismiss()
  })
  return errors
}

async function openNote(
  page: Page,
  server: ServeHandle,
  title: string,
  project: RegExp = /ledger/,
): Promise<void> {
  await page.goto(server.url)
  await page.getByTestId('project-list').getByRole('option', { name: project }).click()
  await page.getByTestId('tab-notes').click()
  await page.getByTestId('notes-list').getByTestId('note-row').filter({ hasText: title }).click()
}

test('shows the words and tool results that wrote a note, as text, in light and dark', async ({
  page,
  server,
}) => {
  const errors = watchErrors(page)
  await openNote(page, server, 'Deploy')
  const origin = page.getByTestId('note-origin')
  await expect(origin.getByTestId('origin-evidence')).toContainText('transcript on disk')
  await expect(origin.getByTestId('origin-write')).toHaveCount(2)
  // The older write (the index entry) holds the person's request and the tool's answer.
  const first = origin.getByTestId('origin-write').nth(1)
  await first.locator('summary').click()
  await expect(first).toContainText(PERSON_WORDS)
  await expect(first).toContainText('Bash: cat scripts/deploy.sh')
  // Markup in a tool result is text: it shows, and nothing of it ran or was built.
  await expect(first).toContainText('<script>window.__pwned=2</script>')
  await expect(first.locator('img, script')).toHaveCount(0)
  expect(await page.evaluate('window.__pwned')).toBeUndefined()
  await expect(origin.getByTestId('origin-summary')).toHaveText(
    'Evidence in this folder: 2 notes with the transcript on disk, 0 archived; never will: 1 written by hand, 1 written before any transcript we saw.',
  )
  await page.evaluate("document.querySelector('[data-testid=note-origin]').scrollIntoView()")
  await page.screenshot({ path: 'test-results/screens/note-origin-light.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/screens/note-origin-dark.png' })
  expect(errors).toEqual([])
})

test('says when a note never will have evidence', async ({ page, server }) => {
  const errors = watchErrors(page)
  await openNote(page, server, 'Reviews happen on Fridays')
  const origin = page.getByTestId('note-origin')
  await expect(origin.getByTestId('origin-evidence')).toContainText('no record')
  await expect(origin.getByTestId('origin-evidence')).toContainText('written by hand')
  await expect(origin.getByTestId('origin-write')).toHaveCount(0)
  expect(errors).toEqual([])
})

test('keeps the excerpt after Claude Code deletes the transcript', async ({ page, server, ev }) => {
  const errors = watchErrors(page)
  await openNote(page, server, 'CSV export')
  const origin = page.getByTestId('note-origin')
  await expect(origin.getByTestId('origin-evidence')).toContainText('transcript on disk')
  rmSync(ev.transcript)
  await page.reload()
  // With its only transcript gone the project's launch folder is unknown, and says so.
  await openNote(page, server, 'CSV export', /^Launch directory unknown/)
  await expect(origin.getByTestId('origin-evidence')).toContainText('archived')
  await expect(origin.getByTestId('origin-write')).toContainText('from the archive')
  await expect(origin.getByTestId('origin-write')).toContainText(PERSON_WORDS_2)
  await page.screenshot({ path: 'test-results/screens/note-origin-archived.png' })
  expect(errors).toEqual([])
})
