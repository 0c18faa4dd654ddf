/** The History tab in real Chromium against real `serve` on two worktrees sharing one memory folder (issue 5). */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
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

  // Keyboard: focus the button and press Enter. First it says where the line goes and that it loads.
  await lost.getByTestId('restore-line').focus()
  await page.keyboard.press('Enter')
  await expect(lost.getByTestId('restore-where')).toHaveText(
    'Goes back at line 5, after “- Run `npm test` before committing”.',
  )
  await expect(lost.getByTestId('restore-loads')).toHaveText('It will load at session start.')
  await lost.getByTestId('restore-here').click()
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
  await page.route('**/api/applyPlan', async (route) => {
    if (!raced) {
      raced = true
      appendFileSync(wf.memoryFile, '- written meanwhile\n')
    }
    await route.continue()
  })
  await page.getByTestId('restore-line').click()
  await page.getByTestId('restore-here').click()
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

test('a line that would go back below the MEMORY.md cutoff says so, and restores above it on request', async ({
  page,
}) => {
  // The file grew since: 230 entries now stand above the lost line's neighbour.
  const filler = Array.from({ length: 230 }, (_, i) => `- [Old ${i + 1}](old-${i + 1}.md) — filler`)
  writeFileSync(wf.memoryFile, ON_DISK.replace('## Build\n', `## Build\n${filler.join('\n')}\n`))
  await openHistory(page)
  const lost = page.getByTestId('lost-line')
  await lost.getByTestId('restore-line').click()
  await expect(lost.getByTestId('restore-where')).toContainText('Goes back at line 235')
  await expect(lost.getByTestId('restore-loads')).toContainText(
    'Line 235 is below the load cutoff (nothing from line 201 on loads): restored there, it will not load at session start.',
  )
  await page.screenshot({ path: `${SCREENS}/history-restore-below-cutoff.png` })
  await lost.getByTestId('restore-above').click()
  await expect(lost.getByTestId('restore-where')).toHaveText(
    'Goes above the load cutoff, at line 200.',
  )
  await expect(lost.getByTestId('restore-loads')).toHaveText('It will load at session start.')
  await expect(lost.getByTestId('restore-falls')).toContainText('Old 197')
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: `${SCREENS}/history-restore-above-dark.png` })
  await page.emulateMedia({ colorScheme: 'light' })
  await lost.getByTestId('restore-here').click()
  await expect(page.getByText(/Restored .* into /)).toBeVisible()
  const lines = readFileSync(wf.memoryFile, 'utf8').split('\n')
  expect(lines.indexOf(LOST_LINE) + 1).toBe(200)
})

test('files with writes come first; the ones no transcript wrote are folded away', async ({
  page,
}) => {
  // A real folder: a hundred topic files no recorded write touched.
  for (let i = 1; i <= 111; i++) {
    writeFileSync(join(dirname(wf.memoryFile), `quiet-${i}.md`), `# Quiet ${i}\n`)
  }
  await openHistory(page)
  const chips = page.getByTestId('history-file')
  await expect(chips.first()).toContainText('MEMORY.md')
  await expect(chips).toHaveCount(1)
  await expect(page.getByTestId('history-quiet-toggle')).toHaveText(
    '▸ 111 files without recorded writes',
  )
  await page.screenshot({ path: `${SCREENS}/history-folded.png` })
  await page.getByTestId('history-quiet-toggle').click()
  const list = page.getByTestId('history-quiet-list')
  await expect(list).toHaveAttribute('data-rows', '111')
  // Drawn a window at a time: far fewer rows in the page than files.
  expect(await page.getByTestId('history-quiet-file').count()).toBeLessThan(40)
  await page.getByTestId('history-quiet-file').filter({ hasText: 'quiet-10.md' }).click()
  await expect(chips.filter({ hasText: 'quiet-10.md' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('history-no-writes')).toBeVisible()
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: `${SCREENS}/history-folded-open-dark.png` })
})
