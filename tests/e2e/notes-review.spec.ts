/**
 * Issue 15, the Notes and Review queue part, in real Chromium against real `serve` on the
 * audit fixture (tests/helpers/audit-fixture.ts). Every test also fails on any console or page
 * error (fixtures.ts): switching notes must not throw Monaco's "TextModel got disposed".
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { auditTest, expect, type ServeHandle } from './fixtures'

const test = auditTest

async function openProject(page: Page, server: ServeHandle): Promise<void> {
  await page.goto(server.url)
  await page.getByTestId('project-list').getByRole('option', { name: /shop/ }).click()
}

async function openNotes(page: Page, server: ServeHandle): Promise<void> {
  await openProject(page, server)
  await page.getByTestId('tab-notes').click()
  await expect(page.getByTestId('notes-list').getByTestId('note-row').first()).toBeVisible()
}

const row = (page: Page, title: string) =>
  page.getByTestId('notes-list').getByTestId('note-row').filter({ hasText: title })
const count = (page: Page, filter: string) => page.getByTestId(`filter-${filter}`).locator('.count')

test('switching notes and tabs many times logs no error (item 5)', async ({ page, server }) => {
  await openNotes(page, server)
  const rows = page.getByTestId('notes-list').getByTestId('note-row')
  const n = await rows.count()
  expect(n).toBe(7)
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < n; i++) {
      await rows.nth(i).click()
      // Half the time the diff is shown before moving on, half the time it is still loading.
      if (i % 2 === 0)
        await expect(page.getByTestId('note-diffs').or(page.getByTestId('no-diffs'))).toBeVisible()
    }
    await page.getByTestId('tab-queue').click()
    await page.keyboard.press('j')
    await page.keyboard.press('j')
    await page.getByTestId('tab-notes').click()
  }
  await expect(rows.first()).toBeVisible()
})

test('verifying a stale note overrides the verdict until the code moves; every count agrees (items 3, 4)', async ({
  page,
  server,
  fx,
}) => {
  await openNotes(page, server)
  const sidebar = page.getByTestId('project-list').getByRole('option', { name: /shop/ })
  await expect(count(page, 'stale')).toHaveText('3')
  await expect(sidebar.getByTestId('project-health')).toContainText('3 stale')
  await row(page, fx.notes.renamed).click()
  await page.getByTestId('action-verify').click()
  await expect(page.getByTestId('action-message')).toContainText('Verified')
  // The person said the note is right: it is verified, not "stale ✓ verified".
  const badge = row(page, fx.notes.renamed).getByTestId('verdict-badge')
  await expect(badge).toHaveText('verified')
  await expect(row(page, fx.notes.renamed).getByTestId('stamp-badge')).toHaveCount(0)
  await expect(page.getByTestId('note-detail').getByTestId('verified-line')).toContainText(
    'the audit says stale',
  )
  await expect(count(page, 'stale')).toHaveText('2')
  await expect(count(page, 'verified')).toHaveText('1')
  await expect(sidebar.getByTestId('project-health')).toContainText('2 stale')
  await page.getByTestId('tab-queue').click()
  await expect(page.getByTestId('queue-progress')).toContainText('of 4 reviewed')
  await expect(
    page.getByTestId('queue-list').getByTestId('note-row').filter({ hasText: fx.notes.renamed }),
  ).toHaveCount(0)
  await page.screenshot({ path: 'test-results/screens/issue15-verified-queue.png' })

  // The code the note rests on moves again: the old path comes back. The verification lapses.
  writeFileSync(join(fx.repo, 'src/auth/session.ts'), 'export const back = 1\n')
  await page.getByTestId('tab-notes').click()
  await page.getByTestId('rerun-audit').click()
  await expect(row(page, fx.notes.renamed).getByTestId('stamp-badge')).toHaveText(
    'verification lapsed',
  )
  await expect(row(page, fx.notes.renamed).getByTestId('verdict-badge')).not.toHaveText('verified')
  await expect(count(page, 'verified')).toHaveText('0')
  // The sidebar counts what the Notes tab counts, from the same audit.
  const stale = await count(page, 'stale').textContent()
  await expect(sidebar.getByTestId('project-health')).toContainText(`${stale} stale`)
})

test('one audit per change: switching tabs does not audit again (item 7)', async ({
  page,
  server,
}) => {
  const started: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/startAudit')) started.push(r.url())
  })
  await openNotes(page, server)
  await expect(page.getByTestId('audit-state')).toContainText('Checked against')
  const before = started.length
  expect(before).toBeGreaterThan(0)
  for (let i = 0; i < 3; i++) {
    await page.getByTestId('tab-queue').click()
    await expect(page.getByTestId('queue-list').getByTestId('note-row').first()).toBeVisible()
    await page.getByTestId('tab-notes').click()
    await expect(page.getByTestId('notes-list').getByTestId('note-row').first()).toBeVisible()
  }
  expect(started.length).toBe(before)
  await expect(page.getByTestId('auditing')).toHaveCount(0)
})

test('an unsaved rewrite survives another note, another tab and a reload, and is discarded only when asked (item 1)', async ({
  page,
  server,
  fx,
}) => {
  const topic = join(fx.memoryDir, 'session.md')
  const onDisk = readFileSync(topic, 'utf8')
  await openNotes(page, server)
  await row(page, fx.notes.renamed).click()
  await page.getByTestId('action-rewrite').click()
  const editor = page.getByTestId('rewrite-editor')
  await expect(editor.locator('.view-lines')).toContainText('Sessions are created')
  await editor.locator('.view-lines').click()
  await page.keyboard.press('Control+End')
  await page.keyboard.type('A draft line.', { delay: 10 })
  // Another note, then another tab: nothing asked, nothing lost.
  await row(page, fx.notes.fresh).click()
  await expect(page.getByTestId('rewrite-panel')).toHaveCount(0)
  await expect(row(page, fx.notes.renamed).getByTestId('draft-mark')).toBeVisible()
  await page.getByTestId('tab-history').click()
  await page.reload()
  await openNotes(page, server)
  await expect(row(page, fx.notes.renamed).getByTestId('draft-mark')).toBeVisible()
  await row(page, fx.notes.renamed).click()
  await expect(page.getByTestId('rewrite-notice')).toContainText('Restored your unsaved rewrite')
  await expect(editor.locator('.view-lines')).toContainText('A draft line.')
  expect(readFileSync(topic, 'utf8')).toBe(onDisk)
  // Esc with the focus in the editor asks too (item 13); Esc again goes back to the editor.
  await editor.locator('.view-lines').click()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('discard-dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('discard-dialog')).toHaveCount(0)
  await expect(page.getByTestId('rewrite-panel')).toBeVisible()
  // Cancel asks; keeping it closes the editor with the draft kept.
  await page.getByTestId('cancel-rewrite').click()
  await expect(page.getByTestId('discard-dialog')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/issue15-discard-dialog.png' })
  await page.getByTestId('keep-draft').click()
  await expect(page.getByTestId('rewrite-panel')).toHaveCount(0)
  await expect(row(page, fx.notes.renamed).getByTestId('draft-mark')).toBeVisible()
  // Discarding drops it for good; the file was never touched.
  await page.getByTestId('action-rewrite').click()
  await expect(editor.locator('.view-lines')).toContainText('A draft line.')
  await page.getByTestId('cancel-rewrite').click()
  await page.getByTestId('discard-draft').click()
  await expect(row(page, fx.notes.renamed).getByTestId('draft-mark')).toHaveCount(0)
  await page.getByTestId('action-rewrite').click()
  await expect(editor.locator('.view-lines')).toContainText('Sessions are created')
  await expect(editor.locator('.view-lines')).not.toContainText('A draft line.')
  expect(readFileSync(topic, 'utf8')).toBe(onDisk)
})

test("the note's own text beside its diff, and the diff kept while rewriting (item 10)", async ({
  page,
  server,
  fx,
}) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await openNotes(page, server)
    await row(page, fx.notes.renamed).click()
    await expect(page.getByTestId('note-text')).toContainText('Sessions are created')
    await expect(page.getByTestId('note-diff')).toBeVisible()
    await page.screenshot({ path: `test-results/screens/issue15-note-beside-diff-${scheme}.png` })
    await page.getByTestId('action-rewrite').click()
    await expect(page.getByTestId('rewrite-editor')).toBeVisible()
    await expect(page.getByTestId('note-diff')).toBeVisible()
    const ed = await page.getByTestId('rewrite-editor').boundingBox()
    const diff = await page.getByTestId('note-diff').boundingBox()
    // Side by side: the editor on the left, the diff on the right, at the same height.
    expect(ed && diff && ed.x + ed.width <= diff.x + 1).toBe(true)
    await page.screenshot({
      path: `test-results/screens/issue15-rewrite-beside-diff-${scheme}.png`,
    })
    await page.getByTestId('cancel-rewrite').click()
  }
})
