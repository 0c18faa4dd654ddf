/** The MEMORY.md workspace in real Chromium against real `serve` (issue 6). */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, expect, openProject, startServe, isolatedEnv } from './fixtures'
import { lineOf } from '../helpers/memory-workspace-page'

test('moves an unloaded entry above the cutoff: preview, apply, and the cutoff view follows', async ({
  page,
  workspace: ws,
  memoryIndex: index,
}) => {
  // Newest first: the last entry of the file heads the list of what does not load.
  await expect(page.getByTestId('unloaded-entry').first()).toContainText('Note 230')
  expect(lineOf(readFileSync(index, 'utf8'), '[Note 230]')).toBeGreaterThan(200)
  // Words, not codes; numbers with thousands separators (issue 15 item 14).
  await expect(page.getByTestId('cutoff-verdict')).toContainText('the 200-line limit cuts it')
  await expect(page.getByTestId('cutoff-summary')).toContainText(
    /Characters: [\d,]+ \/ \d{1,3},\d{3}/,
  )
  await page.screenshot({ path: 'test-results/screens/memory-cutoff-view.png' })

  await ws.unloadedEntry('Note 230').getByTestId('move-above').click()
  await expect(ws.planDialog).toBeVisible()
  await expect(page.getByTestId('plan-diff').locator('.monaco-diff-editor')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/memory-move-preview.png' })
  // The entry it pushes below the cutoff is named; applying takes an explicit tick (issue 15 item 8).
  await expect(page.getByTestId('plan-falls')).toBeVisible()
  await page.getByTestId('plan-accept-falls').check()
  await page.getByTestId('plan-apply').click()
  await expect(ws.planDialog).toBeHidden()

  const after = readFileSync(index, 'utf8')
  const moved = lineOf(after, '[Note 230]')
  expect(moved).toBeGreaterThan(0)
  expect(moved).toBeLessThanOrEqual(200)
  // The view reloads from disk: the moved entry no longer appears among those that do not load.
  await expect(ws.unloadedEntries).not.toContainText('Note 230')
  await expect(page.getByTestId('unloaded-entry').first()).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/memory-after-move.png' })
})

test('a file changed between preview and apply is not written, and both versions are shown', async ({
  page,
  workspace: ws,
  memoryIndex: index,
}) => {
  await ws.unloadedEntry('Note 229').getByTestId('move-above').click()
  await page.getByTestId('plan-accept-falls').check()
  await expect(page.getByTestId('plan-apply')).toBeEnabled()
  // A Claude session appends a note while the preview is open.
  appendFileSync(index, '- [Written meanwhile](meanwhile.md) — by another session\n')
  const disk = readFileSync(index, 'utf8')
  await page.getByTestId('plan-apply').click()
  await expect(page.getByTestId('plan-conflict')).toContainText('changed on disk')
  await expect(page.getByTestId('plan-conflict')).toContainText(index)
  // Nothing lost: the other session's line is still there, untouched.
  expect(readFileSync(index, 'utf8')).toBe(disk)
  await page.screenshot({ path: 'test-results/screens/memory-conflict.png' })
  // Planning again works on the current file.
  await page.getByTestId('plan-again').click()
  await page.getByTestId('plan-apply').click()
  await expect(ws.planDialog).toBeHidden()
  const after = readFileSync(index, 'utf8')
  expect(after).toContain('Written meanwhile')
  expect(lineOf(after, '[Note 229]')).toBeLessThanOrEqual(200)
})

test('moves the detail of an entry into a new topic file, named by default from its title', async ({
  page,
  served,
  fixture,
}) => {
  const index = join(fixture.memoryDir, 'MEMORY.md')
  appendFileSync(
    index,
    '- Payments retry transport errors only — declines are results; the idempotency key comes from the order id\n',
  )
  const ws = await openProject(page, served.url)
  const entry = page.getByTestId('unloaded-entry').first()
  await expect(entry).toContainText('Payments retry')
  await entry.getByTestId('extract-topic').click()
  const name = page.getByTestId('topic-name')
  await expect(name).toHaveValue(/^payments-retry.*\.md$/)
  await name.fill('payments-retry.md')
  await name.press('Enter')
  await expect(page.getByTestId('plan-apply')).toBeEnabled()
  await page.getByTestId('plan-apply').click()
  await expect(ws.planDialog).toBeHidden()
  expect(readFileSync(join(fixture.memoryDir, 'payments-retry.md'), 'utf8')).toContain(
    'idempotency key',
  )
  expect(readFileSync(index, 'utf8')).toContain('(payments-retry.md)')
  // The new topic file appears in the list (the folder is rescanned on change).
  await expect(ws.fileList).toContainText('payments-retry.md')
})

test('lists topic files with their frontmatter and flags orphans and dangling links', async ({
  page,
  served,
}) => {
  const ws = await openProject(page, served.url)
  await expect(ws.fileList).toContainText('note-1.md')
  // Frontmatter as fields (issue 15 item 17): name, type and description, each on its own.
  const first = page.getByTestId('frontmatter').first()
  await expect(first.getByTestId('fm-name')).toHaveText('Note 1')
  await expect(first.getByTestId('fm-type')).toHaveText('project')
  await expect(first.getByTestId('fm-description')).toHaveText('test note 1')
  await expect(
    page
      .getByTestId('memory-file-item')
      .filter({ hasText: 'orphan-topic.md' })
      .getByTestId('orphan-badge'),
  ).toBeVisible()
  await expect(page.getByTestId('dangling-list')).toContainText('note-6.md')
  await ws.openFile('note-2.md')
  await expect(ws.editor.locator('.view-lines')).toContainText('computeTotal')
  // Dark theme: the same view through the dark CSS variables and Monaco's dark theme.
  await page.emulateMedia({ colorScheme: 'dark' })
  await ws.openFile('MEMORY.md')
  await expect(page.getByTestId('cutoff-summary')).toBeVisible()
  await expect(ws.editor.locator('.monaco-editor.vs-dark')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/memory-dark.png' })
})

test('the sidebar groups a worktree under its main repository, with note counts and the overflow marker', async ({
  page,
  scratch,
}) => {
  const served = await startServe(
    ['--demo', '--demo-dir', `${scratch}/demo`, '--state-dir', `${scratch}/state`],
    isolatedEnv(scratch),
  )
  try {
    await page.goto(served.url)
    const list = page.getByTestId('project-list')
    const group = list.getByRole('group', { name: 'acme-shop', exact: true })
    await expect(group.getByRole('option')).toHaveCount(2)
    await expect(group.getByRole('option').nth(1)).toContainText('acme-shop-coupons')
    await expect(group.getByRole('option').nth(1)).toContainText('worktree')
    const main = group.getByRole('option').first()
    await expect(main.getByTestId('project-health')).toContainText('stale', { timeout: 30_000 })
    await expect(main.getByTestId('overflows')).toBeVisible()
    // The search box filters; ↓ moves into the list, ↑/↓ walk it.
    const search = page.getByTestId('project-search')
    await search.fill('notes')
    await expect(list.getByRole('option')).toHaveCount(1)
    await search.fill('')
    await search.press('ArrowDown')
    const first = list.getByRole('option', { selected: true })
    const before = await first.textContent()
    await page.keyboard.press('ArrowDown')
    await expect(list.getByRole('option', { selected: true })).not.toHaveText(before ?? '')
    await page.screenshot({ path: 'test-results/screens/sidebar-demo.png' })
  } finally {
    await served.stop()
  }
})

test('a folder of 400 topic files: drawn a window at a time, each with its fields, none cut mid-line', async ({
  page,
  served,
  fixture,
}) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const long =
    'A description long enough to need two lines in the narrow list, and then some more words that a person can still read in full in the tooltip'
  for (let i = 1; i <= 400; i++) {
    const name = `topic-${String(i).padStart(3, '0')}.md`
    writeFileSync(
      join(fixture.memoryDir, name),
      `---\nname: Topic ${i}\ndescription: ${long} (${i})\ntype: ${i % 2 ? 'reference' : 'feedback'}\n---\n\nBody ${i}.\n`,
    )
  }
  const ws = await openProject(page, served.url)
  const list = page.getByTestId('topic-list')
  await expect(list).toHaveAttribute('data-rows', '406')
  expect(await page.getByTestId('memory-file-item').count()).toBeLessThan(60)
  const row = page.getByTestId('memory-file-item').filter({ hasText: 'topic-001.md' })
  await expect(row.getByTestId('fm-name')).toHaveText('Topic 1')
  await expect(row.getByTestId('fm-type')).toHaveText('reference')
  await expect(row.getByTestId('fm-description')).toHaveAttribute(
    'title',
    `description: ${long} (1)`,
  )
  await page.screenshot({ path: 'test-results/screens/memory-topics-fields.png' })
  // The last file is reached by scrolling the list, and opens.
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight))
  await ws.openFile('topic-400.md')
  await expect(ws.editor.locator('.view-lines')).toContainText('Body 400.')
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/screens/memory-topics-fields-dark.png' })
  expect(errors).toEqual([])
})
