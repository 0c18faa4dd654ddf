/**
 * Search across every project's notes and memory files (issue 15 item 11), in real Chromium
 * against real `serve`: `/` and Ctrl+K open it, results name project, file and line, with the
 * verdict once the folder was audited, and Enter opens the result's project.
 */
import type { Page } from '@playwright/test'
import { test, expect } from './fixtures'

function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`))
  return errors
}

test('/ and Ctrl+K search all memory files; a result shows project, file, line and verdict; Enter opens it', async ({
  page,
  workspace: ws,
}) => {
  const errors = watchErrors(page)
  // The sidebar audits the folder in the background: its verdicts then reach search.
  const shop = page.getByTestId('project-row').filter({ hasText: 'acme-shop' })
  await expect(shop.getByTestId('project-health')).toContainText('stale', { timeout: 30_000 })
  await ws.selectProject(/broken-app/)
  await expect(page.getByTestId('project-heading')).toHaveText('broken-app')

  await page.locator('body').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('/')
  const palette = page.getByTestId('search-palette')
  await expect(page.getByTestId('search-input')).toBeFocused()
  await page.keyboard.type('computetotal')
  const hits = page.getByTestId('search-hit')
  await expect(hits).toHaveCount(5)
  await expect(hits.first()).toContainText('acme-shop')
  await expect(hits.first()).toContainText(/note-\d\.md:7/)
  await expect(hits.first().locator('mark')).toHaveText('computeTotal')
  await expect(hits.first().getByTestId('search-verdict')).toBeVisible()
  await expect(page.getByTestId('search-summary')).toContainText('5 results')
  // The lines around the active result, the result's own line marked.
  const preview = page.getByTestId('search-preview')
  await expect(preview.locator('.preview-line.hit')).toContainText('computeTotal')
  await expect(preview).toContainText('type: project')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.screenshot({ path: 'test-results/screens/search-light.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/screens/search-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })

  // ↓ then Enter opens the second result: its project, in the Memory tab.
  await page.keyboard.press('ArrowDown')
  await expect(hits.nth(1)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(palette).toBeHidden()
  await expect(page.getByTestId('project-heading')).toHaveText('acme-shop')
  await expect(page.getByTestId('tab-memory')).toHaveAttribute('aria-selected', 'true')

  // Ctrl+K from inside the editor; a verdict filter; Esc closes.
  await page.getByTestId('memory-editor').locator('.view-lines').click()
  await page.keyboard.press('Control+k')
  await expect(palette).toBeVisible()
  const verdict = (await page.getByTestId('search-input').inputValue()) === '' ? 'fresh' : ''
  await page.getByTestId('search-input').fill(`verdict:${verdict} project:acme`)
  await expect(hits.first()).toBeVisible()
  for (const v of await page.getByTestId('search-verdict').allTextContents())
    expect(v).toBe('fresh')
  await page.getByTestId('search-input').fill('no such text anywhere')
  await expect(page.getByTestId('search-empty')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(palette).toBeHidden()
  expect(errors).toEqual([])
})
