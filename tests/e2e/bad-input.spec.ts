/**
 * Bad input through the window (issue 8): a Claude home whose projects hold a FIFO, a folder
 * named MEMORY.md, a 10 MB single line, UTF-16, invalid UTF-8, a symlink loop, an alias bomb
 * and pathological markdown. The window still lists every project, shows each problem next
 * to its item (path and reason), stays responsive, and throws no page error.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import { aliasBomb, PATHOLOGICAL_TEXTS } from '../helpers/bad-inputs/pathological-texts'
import { transcriptLine } from '../helpers/fixture-home'
import { test, expect } from './fixtures'

interface BadProject {
  readonly name: string
  readonly plant: (memoryDir: string) => void
  /** What the window must say about MEMORY.md (null: it opens as text). */
  readonly problem: RegExp | null
}

const byId = new Map(PATHOLOGICAL_TEXTS.map((p) => [p.id, p.text]))

const PROJECTS: readonly BadProject[] = [
  {
    name: 'fifo-app',
    plant: (m) => execFileSync('mkfifo', [join(m, 'MEMORY.md')]),
    problem: /not a regular file/,
  },
  { name: 'folder-app', plant: (m) => mkdirSync(join(m, 'MEMORY.md')), problem: /directory/ },
  {
    name: 'huge-line-app',
    plant: (m) => writeFileSync(join(m, 'MEMORY.md'), 'x'.repeat(10 * 1024 * 1024)),
    problem: /read limit|too large|bytes/,
  },
  {
    name: 'loop-app',
    plant: (m) => symlinkSync('MEMORY.md', join(m, 'MEMORY.md')),
    problem: /loop/,
  },
  {
    name: 'latin1-app',
    plant: (m) =>
      writeFileSync(
        join(m, 'MEMORY.md'),
        Buffer.from([0x23, 0x20, 0xe9, 0xe8, 0x0a, 0xff, 0xfe, 0x0a]),
      ),
    problem: /UTF-8/,
  },
  {
    name: 'utf16-app',
    plant: (m) =>
      writeFileSync(
        join(m, 'MEMORY.md'),
        Buffer.concat([
          Buffer.from([0xff, 0xfe]),
          Buffer.from('# UTF-16 memory\n- [a](a.md)\n', 'utf16le'),
        ]),
      ),
    problem: null,
  },
  {
    name: 'bomb-app',
    plant: (m) => {
      writeFileSync(
        join(m, 'MEMORY.md'),
        '# Bomb\n- [Bomb](bomb.md) — aliases\n' + byId.get('nested-brackets-lines')!,
      )
      writeFileSync(join(m, 'bomb.md'), `---\n${aliasBomb()}\n---\nbody\n`)
    },
    problem: null,
  },
  {
    name: 'markdown-app',
    plant: (m) => {
      writeFileSync(join(m, 'MEMORY.md'), byId.get('open-comment')!)
      writeFileSync(
        join(m, 'brackets.md'),
        byId.get('nested-brackets-50k')! + byId.get('emphasis-50k')! + byId.get('backticks-50k')!,
      )
    },
    problem: null,
  },
]

test('lists every project, shows each problem beside its item, and stays responsive', async ({
  page,
  fixture,
  served,
}) => {
  test.setTimeout(180_000)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`)
    void d.dismiss()
  })
  for (const p of PROJECTS) {
    const cwd = join(fixture.root, 'elsewhere', p.name)
    const dir = join(fixture.claudeHome, 'projects', encodeProjectDir(cwd))
    mkdirSync(join(dir, 'memory'), { recursive: true })
    writeFileSync(
      join(dir, '77777777-7777-4777-8777-777777777777.jsonl'),
      transcriptLine({ cwd, sessionId: '77777777-7777-4777-8777-777777777777' }) + '\n',
    )
    p.plant(join(dir, 'memory'))
  }
  // A click on a tab that did not take (once in CI; not reproduced here in 30 runs, under load
  // or with the page's CPU throttled) is said with what the window showed, and clicked once more;
  // a second miss fails the test. The likely cause is the test's, not the window's: the projects
  // are planted after serve started, so a rescan can still grow a project's head (its problems)
  // and move the tabs between the press and the release, and a click split that way goes to
  // neither button.
  const openTab = async (project: string, tab: string): Promise<void> => {
    const button = page.getByTestId(`tab-${tab}`)
    await button.click()
    try {
      await expect(button).toHaveAttribute('aria-selected', 'true', { timeout: 7_500 })
      return
    } catch {
      const shown = {
        heading: await page.locator('h1').first().textContent({ timeout: 1000 }),
        tab: await page
          .locator('[role=tab][aria-selected=true]')
          .first()
          .textContent({ timeout: 1000 }),
      }
      console.log(
        `${project}: the ${tab} tab did not open on a click; shown: ${JSON.stringify(shown)}`,
      )
    }
    await button.click()
    await expect(button).toHaveAttribute('aria-selected', 'true', { timeout: 7_500 })
  }
  await page.goto(served.url)
  const list = page.getByTestId('project-list')
  await expect(list.getByRole('option', { name: /acme-shop/ })).toBeVisible()
  for (const p of PROJECTS)
    await expect(list.getByRole('option', { name: new RegExp(p.name) })).toBeVisible()

  for (const p of PROJECTS) {
    const t0 = Date.now()
    await list.getByRole('option', { name: new RegExp(p.name) }).click()
    await expect(page.getByRole('heading', { level: 1 })).toContainText(p.name)
    const memoryViewShown = async (): Promise<void> => {
      if (p.problem) {
        // The problem names the file and the reason, beside the item (the MEMORY.md view).
        const problem = page
          .getByTestId('file-problem')
          .or(page.getByTestId('project-problems'))
          .first()
        await expect(problem).toContainText('MEMORY.md')
        await expect(problem).toContainText(p.problem)
      } else {
        await expect(page.getByTestId('memory-editor').locator('.view-lines')).toBeVisible()
      }
    }
    await memoryViewShown()
    if (p.name === 'markdown-app') {
      // 4,800 entries past the cutoff are drawn a window at a time (issue 15 item 6) and 5,000
      // dangling links come a page at a time: the whole lists at once froze the window for 15 s.
      await expect(page.getByTestId('unloaded-entries')).toHaveAttribute('data-rows', '4803')
      expect(await page.getByTestId('unloaded-entry').count()).toBeLessThan(40)
      await expect(page.getByTestId('dangling-list').locator('li')).toHaveCount(100)
      await expect(page.getByTestId('more-dangling')).toContainText('(4,900 not shown)')
    }
    // Every tab opens on this project without breaking the window.
    for (const tab of ['notes', 'history', 'instructions', 'memory']) await openTab(p.name, tab)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(p.name)
    // Back on the Memory tab, the view comes back as it was.
    await memoryViewShown()
    expect(Date.now() - t0, `${p.name}: the window answered within 15 s`).toBeLessThan(15_000)
    await page.screenshot({ path: `test-results/screens/bad-input-${p.name}.png` })
  }
  // Still responsive: a healthy project opens with its text after all of that.
  await list.getByRole('option', { name: /acme-shop/ }).click()
  await expect(page.getByTestId('memory-editor').locator('.view-lines')).toContainText(
    '# Project memory',
  )
  expect(errors).toEqual([])
})
