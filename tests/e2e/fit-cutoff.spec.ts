/**
 * "Fit under the cutoff" in real Chromium against real `serve` (issue 15 item 8), on a
 * MEMORY.md shaped like a real 249-line one (tests/helpers/real-memory.ts), and the two fixed
 * actions: a move that would push entries out asks first; extract never lengthens a line.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { test, expect, openProject } from './fixtures'
import { realMemory } from '../helpers/real-memory'

/**
 * Console errors and page errors of the test: each test ends with none.
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = []
  const missing: string[] = []
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url())
  })
  page.on('console', (m) => {
    if (m.type() !== 'error') return
    if (m.text().includes('status of 404') && missing.length === 0) return
    errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}

const real = realMemory()

test('fits a real-shaped MEMORY.md under the cutoff: ticks, gauges, one diff, apply, undo', async ({
  page,
  served,
  fixture,
}) => {
  const errors = watchErrors(page)
  const index = join(fixture.memoryDir, 'MEMORY.md')
  for (let i = 1; i <= 5; i++) rmSync(join(fixture.memoryDir, `note-${i}.md`))
  writeFileSync(index, real.text)
  for (const [name, text] of real.topics) writeFileSync(join(fixture.memoryDir, name), text)
  await openProject(page, served.url)
  await expect(page.getByTestId('cutoff-verdict')).toContainText('From line 201 on')

  await page.getByTestId('fit-open').click()
  const dialog = page.getByTestId('fit-dialog')
  await expect(dialog).toBeVisible()
  // Defaults: blank lines, empty headings, exact duplicates and missing topic files ticked.
  await expect(dialog.getByTestId('fit-gauge-lines')).toContainText('Lines: 200 →')
  await expect(dialog.getByTestId('fit-gauge-entries')).toContainText('after: everything loads')
  await expect(dialog.getByTestId('fit-cat-blank').getByTestId('fit-cat-count')).toHaveText(
    '101 of 101 ticked',
  )
  await expect(dialog.getByTestId('fit-cat-dangling').getByTestId('fit-cat-count')).toHaveText(
    '6 of 6 ticked',
  )
  // Judged notes come from the audit (the sidebar's, when it finished): it says which.
  await expect(dialog.getByTestId('fit-cat-judged').getByTestId('fit-cat-note')).toContainText(
    /audit/,
  )
  await expect(dialog.getByTestId('fit-diff').locator('.monaco-diff-editor')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/fit-dialog-light.png' })

  // Unticking the blank lines: the gauges follow (fewer lines freed, entries cut again).
  await dialog.getByTestId('fit-tick-blank').uncheck()
  await expect(dialog.getByTestId('fit-cat-blank').getByTestId('fit-cat-count')).toHaveText(
    '0 of 101 ticked',
  )
  await expect(dialog.getByTestId('fit-gauge-entries')).toContainText('after: cut at line')
  // One entry that still does not load, moved above the cut into the freed room.
  const lastMove = dialog.getByTestId('fit-move').first()
  await lastMove.getByTestId('fit-move-tick').check()
  await expect(lastMove.getByTestId('fit-move-state')).toHaveText('moves above the cut')
  await dialog.getByTestId('fit-tick-blank').check()
  await expect(dialog.getByTestId('fit-gauge-entries')).toContainText('after: everything loads')

  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/screens/fit-dialog-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })

  await dialog.getByTestId('fit-apply').click()
  await expect(dialog.getByTestId('fit-applied')).toContainText('Applied')
  const after = readFileSync(index, 'utf8')
  expect(after).not.toContain('\n\n')
  for (const name of real.missing) expect(after).not.toContain(`(${name})`)
  expect(after).toContain('결제 재시도는 전송 오류에만 적용한다')
  await page.screenshot({ path: 'test-results/screens/fit-applied.png' })

  // Undo puts every byte back.
  await dialog.getByTestId('fit-undo').click()
  await expect(dialog.getByTestId('fit-applied')).toContainText('Undone')
  expect(readFileSync(index, 'utf8')).toBe(real.text)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('cutoff-verdict')).toContainText('From line 201 on')
  expect(errors).toEqual([])
})

test('a move that would push an entry out names it and asks first, or offers the fit', async ({
  page,
  workspace: ws,
  memoryIndex: index,
}) => {
  const errors = watchErrors(page)
  const before = readFileSync(index, 'utf8')
  await ws.unloadedEntry('Note 230').getByTestId('move-above').click()
  const falls = page.getByTestId('plan-falls')
  await expect(falls).toContainText('stop loading at session start')
  await expect(falls).toContainText(/Note 18\d/)
  await expect(page.getByTestId('plan-apply')).toBeDisabled()
  await page.screenshot({ path: 'test-results/screens/move-falls.png' })
  // The fit instead: the plan dialog gives way to the fit dialog; nothing was written.
  await page.getByTestId('plan-fit-instead').click()
  await expect(page.getByTestId('fit-dialog')).toBeVisible()
  expect(readFileSync(index, 'utf8')).toBe(before)
  await page.keyboard.press('Escape')
  // Accepting the loss is an explicit tick.
  await ws.unloadedEntry('Note 230').getByTestId('move-above').click()
  await page.getByTestId('plan-accept-falls').check()
  await page.getByTestId('plan-apply').click()
  await expect(ws.planDialog).toBeHidden()
  expect(readFileSync(index, 'utf8')).not.toBe(before)
  expect(errors).toEqual([])
})

test('moving the detail of a short one-line entry is refused rather than lengthening it', async ({
  page,
  served,
  fixture,
}) => {
  const errors = watchErrors(page)
  const index = join(fixture.memoryDir, 'MEMORY.md')
  writeFileSync(index, `${readFileSync(index, 'utf8')}- Use pnpm\n`)
  await openProject(page, served.url)
  const entry = page.getByTestId('unloaded-entry').first()
  await expect(entry).toContainText('Use pnpm')
  await entry.getByTestId('extract-topic').click()
  await page.getByTestId('topic-name').press('Enter')
  await expect(page.getByTestId('plan-problems')).toContainText('frees no room')
  await expect(page.getByTestId('plan-apply')).toBeDisabled()
  expect(errors).toEqual([])
})
