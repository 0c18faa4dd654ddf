/** The History tab in real Chromium against real `serve` on two worktrees sharing one memory folder (issue 5). */
import { appendFileSync, readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { test, expect, startServe, isolatedEnv, type ServeHandle } from './fixtures'
import {
  AFTER_RESTORE,
  LOST_LINE,
  ON_DISK,
  SESSION_A,
  SESSION_B,
  createWorktreeFixture,
  type WorktreeFixture,
} from '../helpers/worktree-fixture'

const SCREENS = 'test-results/screens'

let wf: WorktreeFixture
let served: ServeHandle

test.beforeEach(async () => {
  wf = createWorktreeFixture()
  served = await startServe(
    [
      '--claude-home',
      wf.claudeHome,
      '--codex-home',
      wf.codexHome,
      '--managed-dir',
      wf.managedDir,
      '--state-dir',
      wf.stateDir,
    ],
    isolatedEnv(wf.root),
  )
})

test.afterEach(async () => {
  await served.stop()
  wf.cleanup()
})

async function openHistory(page: Page): Promise<void> {
  await page.goto(served.url)
  await page
    .getByTestId('project-list')
    .getByRole('option', { name: /acme-api/ })
    .click()
  await page.getByTestId('tab-history').click()
  await expect(page.getByTestId('history-timeline')).toBeVisible()
}

test('shows both worktree sessions’ writes in order, the failed edit, and restores the lost line', async ({
  page,
}) => {
  await openHistory(page)
  const rows = page.getByTestId('history-write')
  await expect(rows).toHaveCount(5)
  const sessions = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-session')))
  expect(sessions).toEqual([SESSION_A, SESSION_A, SESSION_B, SESSION_B, SESSION_A])
  await expect(page.getByTestId('history-branch')).toHaveText([
    'main',
    'main',
    'feature',
    'feature',
    'main',
  ])
  // B's edit whose old_string was not found changed nothing: marked failed.
  await expect(rows.nth(2)).toHaveAttribute('data-ok', 'false')
  await expect(rows.nth(2).getByTestId('history-result')).toContainText('failed')
  await expect(rows.nth(3).getByTestId('history-result')).toHaveText('ok')
  await expect(rows.nth(3)).toHaveAttribute('title', `Transcript: ${wf.transcriptB}`)

  const lost = page.getByTestId('lost-line')
  await expect(lost).toHaveCount(1)
  await expect(lost.getByTestId('lost-text')).toHaveText(LOST_LINE)
  await expect(lost).toContainText('added by')
  await expect(lost).toContainText(SESSION_A.slice(0, 8))
  await expect(lost).toContainText(SESSION_B.slice(0, 8))
  await page.screenshot({ path: `${SCREENS}/history-timeline.png` })

  // Keyboard: focus the button and press Enter.
  await lost.getByTestId('restore-line').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByText(/Restored .* into /)).toBeVisible()
  // The file on disk is the old content plus exactly that line, where it stood.
  await expect.poll(() => readFileSync(wf.memoryFile, 'utf8')).toBe(AFTER_RESTORE)
  // Once the history is read again the line is no longer lost.
  await expect(page.getByTestId('history-no-lost')).toBeVisible()
  await page.screenshot({ path: `${SCREENS}/history-restored.png` })
})

test('mark reviewed, then a change on disk shows in the diff', async ({ page }) => {
  await openHistory(page)
  await expect(page.getByTestId('review-status')).toContainText('Never reviewed')
  await expect(page.getByTestId('review-attribution')).toHaveCount(8)
  await page.getByTestId('mark-reviewed').click()
  await expect(page.getByTestId('review-status')).toContainText(
    'No change since you marked it reviewed',
  )
  await expect(page.getByTestId('review-attribution')).toHaveCount(0)

  appendFileSync(wf.memoryFile, '- Added from the test while nobody looked\n')
  // The watcher reports the change and the diff follows without a reload.
  await expect(page.getByTestId('review-status')).toContainText('1 line added since')
  const attribution = page.getByTestId('review-attribution')
  await expect(attribution).toHaveCount(1)
  await expect(attribution).toContainText('line 9')
  await expect(attribution).toContainText('no transcript records it')
  await expect(
    page.getByTestId('review-diff').locator('.modified-in-monaco-diff-editor .view-lines'),
  ).toContainText('Added from the test')
  // Wait for the diff worker to colour the inserted line before looking.
  await expect(page.getByTestId('review-diff').locator('.line-insert').first()).toBeVisible()
  await page.screenshot({ path: `${SCREENS}/history-review-diff.png` })

  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: `${SCREENS}/history-review-diff-dark.png` })

  // Marking again from the keyboard (Alt+M) clears the diff.
  await page.keyboard.press('Alt+m')
  await expect(page.getByTestId('review-status')).toContainText(
    'No change since you marked it reviewed',
  )
})

test('a restore that meets a changed file shows both versions and retries on the new one', async ({
  page,
}) => {
  await openHistory(page)
  // Another program writes the file between the window's read and its restore.
  let raced = false
  await page.route('**/api/restoreLostLine', async (route) => {
    if (!raced) {
      raced = true
      appendFileSync(wf.memoryFile, '- written meanwhile\n')
    }
    await route.continue()
  })
  await page.getByTestId('restore-line').click()
  const outcome = page.getByTestId('restore-outcome')
  await expect(outcome).toContainText('changed after it was read, so nothing was written')
  await expect(outcome.locator('.modified-in-monaco-diff-editor .view-lines')).toContainText(
    'written meanwhile',
  )
  expect(readFileSync(wf.memoryFile, 'utf8')).toBe(`${ON_DISK}- written meanwhile\n`)
  await outcome.scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENS}/history-restore-conflict.png` })

  await page.getByTestId('restore-retry').click()
  await expect
    .poll(() => readFileSync(wf.memoryFile, 'utf8'))
    .toBe(`${AFTER_RESTORE}- written meanwhile\n`)
  await expect(page.getByText(/Restored .* into /)).toBeVisible()
})
