/**
 * Issue 18 in real Chromium against real `serve`: the window adds our SessionStart hook to the
 * user's settings after showing the diff (and removes it again, byte for byte), and a session
 * writing MEMORY.md past the cutoff brings a notice with its fix.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { test, expect, openProject } from './fixtures'
import { memoryIndex } from '../helpers/fixture-home'

/** Console errors and page errors, which must stay empty. */
function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`)
  })
  return errors
}

test('adds and removes the SessionStart hook in the user settings, diff first', async ({
  page,
  served,
  fixture,
}) => {
  const errors = watchErrors(page)
  const settings = join(fixture.claudeHome, 'settings.json')
  const before = '{\n  "model": "opus"\n}\n'
  writeFileSync(settings, before)
  const ws = await openProject(page, served.url)
  await ws.openInstructions()
  const hooks = page.getByTestId('hooks-settings')
  await expect(page.getByRole('heading', { name: 'Claude Code hooks' })).toBeVisible()
  const user = hooks.getByTestId('hook-user')
  await expect(user).toContainText('not installed')
  await expect(hooks.getByTestId('hook-project')).toContainText(
    join(fixture.repo, '.claude', 'settings.json'),
  )
  await user.getByRole('button', { name: 'Add the hook…' }).click()
  const diff = hooks.getByTestId('hook-diff')
  await expect(diff).toContainText('"hooks": {')
  await expect(diff).toContainText('hook session-start')
  // Nothing is written before Apply.
  expect(readFileSync(settings, 'utf8')).toBe(before)
  await hooks.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/screens/hooks-settings-diff.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/screens/hooks-settings-diff-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })
  await hooks.getByRole('button', { name: 'Apply' }).click()
  await expect(hooks.getByRole('status')).toContainText('Hook added to')
  await expect(user).toContainText('installed')
  const after = JSON.parse(readFileSync(settings, 'utf8')) as {
    model: string
    hooks: { SessionStart: unknown[] }
  }
  expect(after.model).toBe('opus')
  expect(after.hooks.SessionStart).toHaveLength(1)

  await user.getByRole('button', { name: 'Remove the hook…' }).click()
  await expect(hooks.getByTestId('hook-diff')).toContainText('-  "hooks": {')
  await hooks.getByRole('button', { name: 'Apply' }).click()
  await expect(hooks.getByRole('status')).toContainText('Hook removed from')
  expect(readFileSync(settings, 'utf8')).toBe(before)
  expect(errors).toEqual([])
})

test('a session writing MEMORY.md past the cutoff brings a notice with its fix', async ({
  page,
  served,
  fixture,
}) => {
  const errors = watchErrors(page)
  const index = join(fixture.memoryDir, 'MEMORY.md')
  writeFileSync(index, memoryIndex(120))
  const ws = await openProject(page, served.url)
  await expect(ws.fileList).toBeVisible()
  // A "session" appends entries until the newest fall past the cutoff.
  writeFileSync(index, memoryIndex(195))
  const notice = page.getByTestId('memory-notice')
  await expect(notice).toContainText('no longer load at session start')
  await expect(notice).toContainText('“Note 195”')
  await page.screenshot({ path: 'test-results/screens/memory-notice.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/screens/memory-notice-dark.png' })
  await notice.getByRole('button', { name: 'Move above the cutoff…' }).click()
  await expect(ws.planDialog).toBeVisible()
  // It pushes the entry above the cut out: applying takes the explicit tick (issue 15 item 8).
  await page.getByTestId('plan-accept-falls').check()
  await ws.planDialog.getByRole('button', { name: /^Apply/ }).click()
  await expect(notice).toHaveCount(0)
  const text = readFileSync(index, 'utf8').split('\n')
  const line = text.findIndex((l) => l.includes('[Note 195]')) + 1
  expect(line).toBeGreaterThan(0)
  expect(line).toBeLessThanOrEqual(200)
  expect(errors).toEqual([])
})
