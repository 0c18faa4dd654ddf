/** A Claude home with no memory yet (issue 14): the window opens, says what will appear, and shows it when it does. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, expect, startServe, isolatedEnv } from './fixtures'

test('an empty Claude home opens on an empty state; a memory folder created later appears without a reload', async ({
  page,
}) => {
  const root = mkdtempSync(join(tmpdir(), 'mc-e2e-empty-'))
  const claudeHome = join(root, 'claude-home')
  mkdirSync(claudeHome, { recursive: true })
  const served = await startServe(
    [
      '--claude-home',
      claudeHome,
      '--codex-home',
      join(root, 'codex'),
      '--managed-dir',
      join(root, 'managed'),
      '--state-dir',
      join(root, 'state'),
    ],
    isolatedEnv(root),
  )
  try {
    await page.goto(served.url)
    const empty = page.getByTestId('empty-home')
    await expect(empty).toContainText('No memory written yet')
    await expect(empty).toContainText(`${claudeHome}/projects/`)
    await page.screenshot({ path: 'test-results/screens/empty-home.png' })

    const memory = join(claudeHome, 'projects', '-tmp-later-repo', 'memory')
    mkdirSync(memory, { recursive: true })
    writeFileSync(join(memory, 'MEMORY.md'), '# Memory\n\n- [Build](build.md) — how to build\n')
    await expect(
      page.getByRole('button', { name: /later-repo/ }).or(page.getByText(/later-repo/).first()),
    ).toBeVisible({ timeout: 60_000 })
    await expect(empty).toBeHidden()
  } finally {
    await served.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
