/** The instruction files view in real Chromium against real `serve` (issue 6). */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, expect, openProject } from './fixtures'

test('shows the load order with a globs: warning, the import tree and the Codex budget', async ({
  page,
  served,
  fixture,
}) => {
  const repo = fixture.repo
  mkdirSync(join(repo, '.claude', 'rules'), { recursive: true })
  mkdirSync(join(repo, 'docs'), { recursive: true })
  writeFileSync(
    join(repo, '.claude', 'rules', 'testing.md'),
    '---\nglobs: tests/**/*.test.ts\n---\nNever mock the database.\n',
  )
  writeFileSync(
    join(repo, '.claude', 'rules', 'api.md'),
    '---\npaths:\n  - "packages/api/**"\n---\nHandlers stay thin.\n',
  )
  writeFileSync(
    join(repo, 'CLAUDE.md'),
    '# Acme shop\n\nRun `npm test` before committing.\n\n@docs/architecture.md\n',
  )
  writeFileSync(join(repo, 'docs', 'architecture.md'), '# Architecture\n\nData flows one way.\n')
  // Over Codex's 32 KiB budget: cut, and marked so.
  writeFileSync(
    join(repo, 'AGENTS.md'),
    '# Agents\n\n' + 'Keep handlers thin and call into src.\n'.repeat(1000),
  )
  writeFileSync(join(fixture.codexHome, 'AGENTS.md'), '# Global\nBe brief.\n')

  const ws = await openProject(page, served.url)
  await ws.openInstructions()
  const claude = page.getByTestId('claude-load-order')
  // Words, not codes (issue 15 item 14): the sentence shows, the code is in the tooltip.
  await expect(page.getByTestId('claude-warnings')).toContainText('Claude Code reads only `paths:`')
  await expect(page.getByTestId('claude-warnings')).not.toContainText('globs-not-paths')
  await expect(page.locator('[data-code="globs-not-paths"]')).toHaveAttribute(
    'title',
    /code: globs-not-paths/,
  )
  await expect(page.getByTestId('claude-warnings')).toContainText('testing.md')
  const startup = page.getByTestId('claude-startup')
  await expect(startup).toContainText('./CLAUDE.md')
  await expect(startup).toContainText('./docs/architecture.md')
  await expect(startup).toContainText('import')
  await expect(page.getByTestId('claude-on-demand')).toContainText('api.md')
  await expect(claude).toContainText('Lines')

  const budget = page.getByTestId('codex-budget')
  await expect(budget).toContainText('32,768')
  await expect(page.getByTestId('codex-truncated')).toBeVisible()
  await expect(page.getByTestId('codex-files')).toContainText('global (outside the budget)')
  await page.screenshot({ path: 'test-results/screens/instructions.png' })

  await page
    .getByTestId('claude-startup')
    .getByRole('button', { name: './docs/architecture.md' })
    .click()
  await expect(page.getByTestId('instruction-viewer').locator('.view-lines')).toContainText(
    'Data flows one way.',
  )
  await page.screenshot({ path: 'test-results/screens/instructions-viewer.png' })

  // A launch directory typed under the project; one outside is refused with a clear message.
  await page.getByTestId('launch-path').fill('/etc')
  await page.getByTestId('launch-path').press('Enter')
  await expect(page.getByTestId('instructions-error')).toContainText('/etc is not under')
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true })
  await page.getByTestId('launch-path').fill(join(repo, 'src', 'deep'))
  await page.getByTestId('launch-path').press('Enter')
  await expect(page.getByTestId('claude-startup')).toContainText(join(repo, 'CLAUDE.md'))
})
