/**
 * "Check with the installed agent" (issue 13 item 4) in real Chromium against real `serve`: a
 * recording stand-in `claude` on serve's PATH (tests/helpers/fake-agent.ts) skips rule files,
 * and the Instructions view must show that difference beside the app's model.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, expect, homeArgs, isolatedEnv, openProject, startServe } from './fixtures'
import { fakeClaude } from '../helpers/fake-agent'

test('runs the installed agent on a copy and highlights what it loads differently', async ({
  page,
  fixture,
  scratch,
}) => {
  const repo = fixture.repo
  mkdirSync(join(repo, '.claude', 'rules'), { recursive: true })
  writeFileSync(join(repo, '.claude', 'rules', 'style.md'), 'Prefer small functions.\n')
  writeFileSync(join(repo, 'CLAUDE.md'), '# Acme shop\n\nRun `npm test` before committing.\n')
  const bin = join(scratch, 'bin')
  fakeClaude(bin, join(scratch, 'record.json'))
  const env = isolatedEnv(fixture.root)
  const served = await startServe([...homeArgs(fixture), '--state-dir', fixture.stateDir], {
    ...env,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
  })
  try {
    const ws = await openProject(page, served.url)
    await ws.openInstructions()
    const check = page.getByTestId('agent-check')
    await expect(check).toContainText('stand-in model server on 127.0.0.1')
    await page.getByTestId('agent-check-claude').click()
    const result = page.getByTestId('agent-check-result')
    await expect(result).toContainText('9.9.9 (Stand-in)')
    const rule = result.locator('tr[data-status="only-ours"]')
    await expect(rule).toContainText(join(repo, '.claude', 'rules', 'style.md'))
    await expect(rule).toContainText('only our model loads it')
    await expect(result.locator('tr[data-status="same"]').first()).toBeVisible()
    await page.screenshot({ path: 'test-results/screens/agent-check.png', fullPage: true })
  } finally {
    await served.stop()
  }
})
