/**
 * The window's shell in real Chromium against real `serve` (issue 15 items 12, 13, 14, 16, 18):
 * theme setting kept across restarts, Esc / Alt+digits / `?`, words not codes in the undo
 * history, the sidebar ordered by activity with real titles, the app icon. Every test fails on a
 * console error or page error.
 */
import type { Page } from '@playwright/test'
import { test, expect, openProject, serveFixture, startServe, isolatedEnv } from './fixtures'

/** Console errors and page errors of `page` (the test ends by expecting none). */
function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`))
  return errors
}

const ISO_STAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/
const OP_ID = /\d{8}T\d{6}/

test('sidebar: most recently active first, no transcripts last, real titles; opens on the most recent project', async ({
  page,
  scratch,
}) => {
  const errors = watchErrors(page)
  const served = await startServe(
    ['--demo', '--demo-dir', `${scratch}/demo`, '--state-dir', `${scratch}/state`],
    isolatedEnv(scratch),
  )
  try {
    await page.goto(served.url)
    const titles = page.getByTestId('project-list').getByTestId('project-title')
    await expect(titles).toHaveText([
      'acme-shop',
      'acme-shop-coupons',
      'notes-site',
      'old-prototype',
    ])
    // Never the encoded folder name, which the demo used to open on.
    for (const t of await page.getByTestId('project-row').allTextContents())
      expect(t).not.toMatch(/^-|--/)
    await expect(page.getByTestId('project-heading')).toHaveText('acme-shop')
    await expect(
      page.getByTestId('project-list').getByRole('option', { selected: true }),
    ).toContainText('acme-shop')
    const old = page.getByTestId('project-row').filter({ hasText: 'old-prototype' })
    await expect(old).toContainText('launch directory unknown')
    await expect(page.getByTestId('project-activity').first()).toContainText('active')
    await page.emulateMedia({ colorScheme: 'light' })
    await page.screenshot({ path: 'test-results/screens/shell-sidebar-light.png' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: 'test-results/screens/shell-sidebar-dark.png' })
    expect(errors).toEqual([])
  } finally {
    await served.stop()
  }
})

test('theme: system, light or dark from the settings panel, kept across a reload and a restart of serve', async ({
  page,
  fixture,
  served,
}) => {
  // (The first serve keeps running until the test ends: stopping it under the open page would
  // log its dropped connections as console errors.)
  const errors = watchErrors(page)
  await page.emulateMedia({ colorScheme: 'light' })
  await openProject(page, served.url)
  await expect(page.getByTestId('memory-editor').locator('.monaco-editor')).toHaveClass(/\bvs\b/)
  await page.getByTestId('open-settings').click()
  const panel = page.getByTestId('settings-panel')
  await expect(panel.getByTestId('theme-system')).toBeChecked()
  await panel.getByTestId('theme-dark').check()
  await expect(panel.getByTestId('settings-status')).toContainText('Saved')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(13, 17, 23)')
  await expect(page.getByTestId('memory-editor').locator('.monaco-editor')).toHaveClass(/vs-dark/)
  await page.screenshot({ path: 'test-results/screens/shell-settings-dark.png' })
  await page.keyboard.press('Escape')
  await expect(panel).toBeHidden()

  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  // Another serve on the same state folder: another port, so nothing from this browser's
  // storage for that origin; the theme comes from the back end.
  const again = await serveFixture(fixture)
  try {
    await page.goto(again.url)
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(13, 17, 23)')
    // Ctrl+, opens the settings; Light wins over a dark system.
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.keyboard.press('Control+,')
    // The panel shows the kept setting before anything is chosen in it.
    await expect(page.getByTestId('theme-dark')).toBeChecked()
    await page.getByTestId('theme-light').check()
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(255, 255, 255)')
    await page.screenshot({ path: 'test-results/screens/shell-settings-light.png' })
    // System follows the system again.
    await page.getByTestId('theme-system').check()
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/)
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(13, 17, 23)')
    await expect(page.getByTestId('settings-status')).toContainText('Saved')
    expect(errors).toEqual([])
    // Leave the page before its server stops (its event stream would be cut mid-response).
    await page.goto('about:blank')
  } finally {
    await again.stop()
  }
})

test('Esc closes every dialog and panel, also from inside an editor; Alt+1…5 from anywhere; ? lists the shortcuts', async ({
  page,
  workspace: ws,
}) => {
  const errors = watchErrors(page)
  // The undo history opens with its "Undo newest" disabled: Esc still closes it.
  await page.getByTestId('open-undo-history').first().click()
  await expect(ws.undoHistory).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(ws.undoHistory).toBeHidden()

  // A dialog with an editor: Esc with the focus inside the diff editor.
  await ws.unloadedEntry('Note 230').getByTestId('move-above').click()
  const diff = page.getByTestId('plan-diff').locator('.monaco-diff-editor .view-lines').last()
  await expect(diff).toBeVisible()
  await diff.click()
  await expect(page.locator('.monaco-diff-editor :focus')).toHaveCount(1)
  await page.keyboard.press('Escape')
  await expect(ws.planDialog).toBeHidden()

  // Alt+digits, with the focus in the editor and in a text field.
  await page.getByTestId('memory-editor').locator('.view-lines').click()
  await page.keyboard.press('Alt+2')
  await expect(page.getByTestId('tab-notes')).toHaveAttribute('aria-selected', 'true')
  await page.getByTestId('project-search').focus()
  await page.keyboard.press('Alt+5')
  await expect(page.getByTestId('tab-instructions')).toHaveAttribute('aria-selected', 'true')

  // A panel: the read-only viewer of an instruction file, Esc from inside its editor.
  await page.getByTestId('claude-startup').getByRole('button', { name: './CLAUDE.md' }).click()
  const viewer = page.getByTestId('instruction-viewer')
  await viewer.locator('.view-lines').click()
  await page.keyboard.press('Escape')
  await expect(viewer).toBeHidden()
  await page.keyboard.press('Alt+1')
  await expect(page.getByTestId('tab-memory')).toHaveAttribute('aria-selected', 'true')

  // ? lists the shortcuts (not while typing in a field).
  await page.getByTestId('project-search').focus()
  await page.keyboard.press('?')
  await expect(page.getByTestId('shortcuts-dialog')).toBeHidden()
  await expect(page.getByTestId('project-search')).toHaveValue('?')
  await page.getByTestId('project-search').fill('')
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('?')
  const shortcuts = page.getByTestId('shortcuts-dialog')
  await expect(shortcuts).toContainText('Alt+1 … Alt+5')
  await expect(shortcuts).toContainText('Ctrl+K')
  await page.screenshot({ path: 'test-results/screens/shell-shortcuts.png' })
  await page.keyboard.press('Escape')
  await expect(shortcuts).toBeHidden()
  expect(errors).toEqual([])
})

test('undo history says what was done, in words and local dates, never an operation id', async ({
  page,
  workspace: ws,
}) => {
  const errors = watchErrors(page)
  await ws.unloadedEntry('Note 230').getByTestId('move-above').click()
  await page.getByTestId('plan-accept-falls').check()
  await page.getByTestId('plan-apply').click()
  await expect(ws.planDialog).toBeHidden()
  await page.getByTestId('open-undo-history').first().click()
  const first = page.getByTestId('operation').first()
  await expect(first.getByTestId('operation-text')).toHaveText(
    /^Moved “Note 230” above the load cutoff.* in MEMORY\.md$/,
  )
  await expect(first).toContainText('MEMORY.md changed')
  await page.getByTestId('undo-newest').click()
  await expect(page.getByTestId('undo-message')).toContainText('MEMORY.md')
  await expect(first.getByTestId('operation-text')).toHaveText(
    /^Undid: moved “Note 230” above the load cutoff/,
  )
  const text = (await ws.undoHistory.textContent()) ?? ''
  expect(text).not.toMatch(ISO_STAMP)
  expect(text).not.toMatch(OP_ID)
  expect(text).not.toMatch(/\bundo \S*\d/)
  await page.screenshot({ path: 'test-results/screens/shell-undo-words.png' })
  expect(errors).toEqual([])
})

test('the app icon: favicon.ico and icon.svg are served and named by the page', async ({
  page,
  served,
  request,
}) => {
  const errors = watchErrors(page)
  const ico = await request.get(`${served.origin}/favicon.ico`)
  expect(ico.status()).toBe(200)
  expect(ico.headers()['content-type']).toBe('image/x-icon')
  expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0])
  const svg = await request.get(`${served.origin}/icon.svg`)
  expect(svg.status()).toBe(200)
  expect(await svg.text()).toContain('<svg')
  await page.goto(served.url)
  await expect(page.locator('link[rel="icon"][href$="favicon.ico"]')).toHaveCount(1)
  await expect(page.getByTestId('project-list').getByRole('option').first()).toBeVisible()
  expect(errors).toEqual([])
})
