/** The review queue walked with the keyboard, in real Chromium against real `serve`. */
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { auditTest, expect } from './fixtures'

const test = auditTest

const selectedTitle = (page: Page) => page.getByTestId('note-detail').locator('h2')
const queueRows = (page: Page) => page.getByTestId('queue-list').getByTestId('note-row')

test('walks the queue with the keyboard: stale first, verify, delete with confirm, undo', async ({
  page,
  server,
  fx,
}) => {
  test.skip(
    readFileSync('src/node/edits/edit-actions.ts', 'utf8').includes('not implemented yet'),
    'the curation back end is not implemented yet',
  )
  const indexBefore = readFileSync(fx.index)
  await page.goto(server.url)
  await page.getByTestId('project-list').getByRole('option', { name: /shop/ }).click()
  await page.getByTestId('tab-queue').click()
  const progress = page.getByTestId('queue-progress')
  // Only what needs a decision (issue 15 item 9): stale first, then suspect, then the note
  // nothing can check that was never verified. The fresh notes are a filter away.
  await expect(progress).toContainText('0 of 5 reviewed')
  await expect(queueRows(page)).toHaveCount(5)
  const titles = await queueRows(page).locator('.note-row-title').allTextContents()
  expect(titles).toEqual([
    fx.notes.renamed,
    fx.notes.deletedScript,
    fx.notes.removedSymbol,
    fx.notes.editedAfter,
    fx.notes.prose,
  ])
  await page.getByTestId('queue-scope-all').click()
  await expect(queueRows(page)).toHaveCount(7)
  await expect(queueRows(page).filter({ hasText: fx.notes.fresh })).toHaveClass(/done/)
  await expect(progress).toContainText('0 of 5 reviewed')
  await page.getByTestId('queue-scope-decide').click()
  await expect(queueRows(page)).toHaveCount(5)
  await expect(page.getByTestId('queue-shortcuts')).toContainText('verify')
  await expect(selectedTitle(page)).toHaveText(fx.notes.renamed)
  await expect(page.getByTestId('note-diff')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/review-queue.png' })

  // j / k and the arrows move.
  await page.keyboard.press('j')
  await expect(selectedTitle(page)).toHaveText(fx.notes.deletedScript)
  await page.keyboard.press('k')
  await expect(selectedTitle(page)).toHaveText(fx.notes.renamed)
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown')
  await page.keyboard.press('j')
  await expect(selectedTitle(page)).toHaveText(fx.notes.prose)

  // v verifies and moves on to the next note still to review (round to the first).
  await page.keyboard.press('v')
  await expect(progress).toContainText('1 of 5 reviewed')
  await expect(selectedTitle(page)).toHaveText(fx.notes.renamed)
  await expect(queueRows(page).filter({ hasText: fx.notes.prose })).toHaveClass(/done/)

  // d asks first; Enter confirms (the Delete button has focus).
  await page.keyboard.press('j')
  await expect(selectedTitle(page)).toHaveText(fx.notes.deletedScript)
  await page.keyboard.press('d')
  await expect(page.getByTestId('delete-panel')).toBeVisible()
  await expect(page.getByTestId('confirm-delete')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('action-message')).toContainText('to the trash')
  await expect(progress).toContainText('2 of 5 reviewed')
  expect(readFileSync(fx.index, 'utf8')).not.toContain(`[${fx.notes.deletedScript}]`)

  // u undoes the delete: the bytes are back and the note is in the queue again.
  await page.keyboard.press('u')
  await expect(page.getByTestId('action-message')).toContainText('Undo')
  await expect.poll(() => readFileSync(fx.index).equals(indexBefore)).toBe(true)
  await expect(progress).toContainText('1 of 5 reviewed')

  // r opens the rewrite editor; Esc closes it, even with the focus in the editor (item 13).
  await page.keyboard.press('r')
  await expect(page.getByTestId('rewrite-panel')).toBeVisible()
  const rewriteLines = page.getByTestId('rewrite-editor').locator('.view-lines')
  await expect(rewriteLines).not.toBeEmpty()
  await rewriteLines.click()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('rewrite-panel')).toHaveCount(0)

  // A new session: the verified note has left the queue.
  await page.getByTestId('tab-notes').click()
  await page.getByTestId('tab-queue').click()
  await expect(progress).toContainText('0 of 4 reviewed')
  await expect(queueRows(page).filter({ hasText: fx.notes.prose })).toHaveCount(0)
  await page.screenshot({ path: 'test-results/screens/review-queue-after.png' })
})
