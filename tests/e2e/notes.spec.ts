/**
 * Notes beside their code, in real Chromium against real `serve` on a home whose repository
 * has a scripted history (tests/helpers/audit-fixture.ts): verdicts, reasons, diffs, and the
 * actions Verify, Rewrite (with a conflict), Delete and Undo, checked on disk.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { auditTest, expect, type ServeHandle } from './fixtures'

const test = auditTest

async function openNotes(page: Page, server: ServeHandle): Promise<void> {
  await page.goto(server.url)
  await page.getByTestId('project-list').getByRole('option', { name: /shop/ }).click()
  await page.getByTestId('tab-notes').click()
  await expect(page.getByTestId('notes-list').getByTestId('note-row').first()).toBeVisible()
}

function row(page: Page, title: string) {
  return page.getByTestId('notes-list').getByTestId('note-row').filter({ hasText: title })
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? filesUnder(p) : [p]
  })
}

test('a stale note (renamed file) shows its verdict, the rename and a diff with both sides', async ({
  page,
  server,
  fx,
}) => {
  await openNotes(page, server)
  // Counts per verdict, worst first.
  await expect(page.getByTestId('filter-stale')).toContainText('3')
  await expect(page.getByTestId('filter-suspect')).toContainText('1')
  await expect(page.getByTestId('filter-fresh')).toContainText('2')
  await expect(page.getByTestId('filter-unverifiable')).toContainText('1')
  await row(page, fx.notes.renamed).click()
  const detail = page.getByTestId('note-detail')
  await expect(detail.getByTestId('verdict-badge')).toHaveText('stale')
  await expect(detail.getByTestId('note-reasons')).toContainText(
    '`src/auth/session.ts` was renamed to `src/auth/token-session.ts`',
  )
  // Dates in the person's locale; the machine-readable date is on the element.
  await expect(detail.getByTestId('written-at').locator('time')).toHaveAttribute(
    'datetime',
    /^2026-01-20/,
  )
  await expect(detail.getByTestId('written-at')).toContainText('frontmatter')
  // …and the words shown are not the ISO stamp (issue 15 item 14).
  await expect(detail.getByTestId('written-at').locator('time')).not.toContainText('2026-01-20')
  await expect(detail.getByTestId('written-at').locator('time')).toContainText('2026')
  await expect(detail.getByTestId('note-refs')).toContainText('moved to src/auth/token-session.ts')
  // One tab per reference; the first is the renamed path, then and now.
  await expect(page.getByTestId('diff-tab')).toHaveCount(2)
  const diff = page.getByTestId('note-diff')
  await expect(diff.getByTestId('diff-before-label')).toContainText('src/auth/session.ts @')
  await expect(diff.getByTestId('diff-after-label')).toHaveText('src/auth/token-session.ts (now)')
  await expect(diff.locator('.editor.original .view-lines')).toContainText('createSession')
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('createSession')
  await expect(page.getByTestId('diff-summary')).toHaveText('no change')
  await page.screenshot({ path: 'test-results/screens/notes-stale.png' })

  // A suspect note: the file changed after the note; the diff shows the change.
  await row(page, fx.notes.editedAfter).click()
  await expect(detail.getByTestId('verdict-badge')).toHaveText('suspect')
  await page.getByTestId('diff-tab').filter({ hasText: 'src/retry.ts' }).click()
  await expect(page.getByTestId('diff-summary')).toHaveText(/^\+\d+ −\d+ lines$/)
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('tries = 5')
  // The diff is computed (the editor worker runs): changed lines are marked on both sides.
  await expect(diff.locator('.editor.modified .line-insert').first()).toBeVisible()
  await expect(diff.locator('.editor.original .line-delete').first()).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/notes-suspect.png' })

  // Filtering by verdict; the keyboard walks the list.
  await page.getByTestId('filter-fresh').click()
  await expect(page.getByTestId('notes-list').getByTestId('note-row')).toHaveCount(2)
  await page.getByTestId('notes-list').focus()
  await page.keyboard.press('ArrowDown')
  await expect(detail).toContainText(fx.notes.fresh2)

  // The dark theme: the CSS variables and Monaco's theme follow the colour scheme.
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.getByTestId('filter-all').click()
  await row(page, fx.notes.renamed).click()
  await expect(diff.locator('.editor.original .view-lines')).toContainText('createSession')
  await page.screenshot({ path: 'test-results/screens/notes-dark.png' })
})

test('verify a note: it shows as verified', async ({ page, server, fx }) => {
  await openNotes(page, server)
  await row(page, fx.notes.fresh).click()
  await page.getByTestId('action-verify').click()
  await expect(page.getByTestId('action-message')).toContainText('Verified')
  await expect(row(page, fx.notes.fresh).getByTestId('stamp-badge')).toContainText('verified')
  await expect(page.getByTestId('note-detail').getByTestId('stamp-badge')).toContainText('verified')
})

test('delete a note: the entry line goes, the topic file goes to the trash with a backup; undo brings the bytes back', async ({
  page,
  server,
  fx,
}) => {
  const indexBefore = readFileSync(fx.index)
  const topicPath = join(fx.memoryDir, 'legacy-import.md')
  const topicBefore = readFileSync(topicPath)
  await openNotes(page, server)
  await row(page, fx.notes.deletedScript).click()
  await page.getByTestId('action-delete').click()
  const panel = page.getByTestId('delete-panel')
  await expect(panel.getByTestId('delete-topic')).toBeChecked()
  await expect(panel.getByTestId('plan-delete-file')).toContainText('legacy-import.md')
  await expect(panel.getByTestId('plan-diff')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/notes-delete-preview.png' })
  await panel.getByTestId('confirm-delete').click()
  await expect(page.getByTestId('action-message')).toContainText('to the trash')
  await expect(page.getByTestId('action-message')).toContainText('backup')
  // On disk: the entry line is gone, the topic file is in the isolated trash, a backup kept.
  const indexAfter = readFileSync(fx.index, 'utf8')
  expect(indexAfter).not.toContain('[Legacy import]')
  expect(indexAfter.split('\n').length).toBe(indexBefore.toString().split('\n').length - 1)
  expect(existsSync(topicPath)).toBe(false)
  const trashed = filesUnder(join(fx.root, 'data', 'Trash', 'files'))
  expect(trashed.some((p) => readFileSync(p).equals(topicBefore))).toBe(true)
  expect(filesUnder(fx.stateDir).some((p) => readFileSync(p).equals(topicBefore))).toBe(true)
  await expect(row(page, fx.notes.deletedScript)).toHaveCount(0)

  // Undo with Ctrl+Z (focus outside any editor): both files come back byte for byte.
  await page.getByTestId('notes-list').focus()
  await page.keyboard.press('Control+z')
  await expect(page.getByTestId('action-message')).toContainText('Undo')
  await expect
    .poll(() => existsSync(topicPath) && readFileSync(topicPath).equals(topicBefore))
    .toBe(true)
  await expect.poll(() => readFileSync(fx.index).equals(indexBefore)).toBe(true)
  await expect(row(page, fx.notes.deletedScript)).toHaveCount(1)
})

test('rewrite with a conflict: the file changed on disk while editing is not overwritten', async ({
  page,
  server,
  fx,
}) => {
  const topicPath = join(fx.memoryDir, 'session.md')
  await openNotes(page, server)
  await row(page, fx.notes.renamed).click()
  await page.getByTestId('action-rewrite').click()
  const panel = page.getByTestId('rewrite-panel')
  const editor = panel.getByTestId('rewrite-editor')
  await expect(editor.locator('.view-lines')).toContainText('Sessions are created')
  // The one-click replacement for the rename, planned by the back end, lands in the editor.
  await panel.getByTestId('follow-rename').click()
  await expect(panel.getByTestId('rewrite-notice')).toContainText('token-session.ts')
  await expect(editor.locator('.view-lines')).toContainText('src/auth/token-session.ts')
  await editor.locator('.view-lines').click()
  await page.keyboard.press('Control+End')
  await page.keyboard.type('Checked again in May.', { delay: 20 })
  // Someone else writes the file meanwhile.
  const theirs = readFileSync(topicPath, 'utf8') + 'A line from another session.\n'
  writeFileSync(topicPath, theirs)
  await panel.getByTestId('review-edit').click()
  await expect(
    panel.getByTestId('rewrite-diff').locator('.editor.modified .view-lines'),
  ).toContainText('Checked again in May.')
  await page.screenshot({ path: 'test-results/screens/notes-rewrite-diff.png' })
  await panel.getByTestId('save-edit').click()
  const conflict = panel.getByTestId('rewrite-conflict')
  await expect(conflict).toContainText('changed on disk while you were editing')
  await expect(
    conflict.getByTestId('conflict-diff').locator('.editor.original .view-lines'),
  ).toContainText('A line from another session.')
  await expect(
    conflict.getByTestId('conflict-diff').locator('.editor.modified .view-lines'),
  ).toContainText('Checked again in May.')
  await page.screenshot({ path: 'test-results/screens/notes-conflict.png' })
  expect(readFileSync(topicPath, 'utf8')).toBe(theirs)
  // Choosing mine writes it over theirs (theirs is kept as a backup).
  await conflict.getByTestId('keep-mine').click()
  await expect(page.getByTestId('action-message')).toContainText('Wrote session.md')
  const mine = readFileSync(topicPath, 'utf8')
  expect(mine).toContain('Checked again in May.')
  expect(mine).toContain('src/auth/token-session.ts')
  expect(mine).not.toContain('A line from another session.')
})
