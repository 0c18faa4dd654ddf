/**
 * The notes workspace at scale (issue 15 item 6): a generated home whose one memory folder has
 * 50,000 notes, the built `serve`, and Debian's Chromium (playwright-core). Reports, as ratios
 * of their targets: the Notes tab's first paint once its audit is known (target 1.5 s), the same
 * for the Review queue, and a row click until that note's detail shows (target 200 ms). The audit
 * itself (one per change, with progress) is reported beside them, not judged.
 *
 * Run by `npm run bench -- --workspace-scale` (scripts/bench.mjs bundles this file with vite and
 * runs it under Node); options: --notes N (default 50000), --chromium PATH, --cli PATH, --keep.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS } from '../chromium-args'

const TARGET_PAINT_MS = 1500
const TARGET_CLICK_MS = 200

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback
}

/** A Claude home with one project whose MEMORY.md holds `count` entries (each one note). */
export function generateScaleHome(root: string, count: number): string {
  const claudeHome = join(root, 'claude')
  const memoryDir = join(claudeHome, 'projects', '-work-scale-shop', 'memory')
  mkdirSync(memoryDir, { recursive: true })
  const lines = ['# Memory', '']
  for (let i = 1; i <= count; i++)
    lines.push(
      `- Note ${i}: the handler for case ${i} lives in \`src/cases/case-${i % 997}.ts\` and runs \`npm test\``,
    )
  writeFileSync(join(memoryDir, 'MEMORY.md'), `${lines.join('\n')}\n`)
  return claudeHome
}

function startServe(
  cli: string,
  claudeHome: string,
  work: string,
): Promise<{ url: string; child: ChildProcess }> {
  for (const d of ['home', 'codex', 'managed', 'state'])
    mkdirSync(join(work, d), { recursive: true })
  const child = spawn(
    process.execPath,
    [
      cli,
      'serve',
      '--port',
      '0',
      '--claude-home',
      claudeHome,
      '--codex-home',
      join(work, 'codex'),
      '--managed-dir',
      join(work, 'managed'),
      '--state-dir',
      join(work, 'state'),
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: join(work, 'home'),
        CLAUDE_CONFIG_DIR: claudeHome,
        CODEX_HOME: join(work, 'codex'),
        XDG_CACHE_HOME: join(work, 'home', '.cache'),
        XDG_STATE_HOME: join(work, 'home', '.state'),
        XDG_DATA_HOME: join(work, 'home', '.data'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  return new Promise((ok, fail) => {
    let out = ''
    const t = setTimeout(() => fail(new Error('serve printed no URL in 60 s')), 60_000)
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)))
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const nl = out.indexOf('\n')
      if (nl < 0) return
      clearTimeout(t)
      ok({ url: out.slice(0, nl).trim(), child })
    })
  })
}

/** Milliseconds from `act` until `done` resolves (both driven from here, measured with the page's clock). */
async function timed(
  page: Page,
  act: () => Promise<void>,
  done: () => Promise<void>,
): Promise<number> {
  const t0 = await page.evaluate(() => performance.now())
  await act()
  await done()
  // The frame that shows it: wait for the next animation frame after the element is there.
  // (A string: the page runs it, and Node's types know no requestAnimationFrame.)
  return page.evaluate<number>(
    `new Promise((r) => requestAnimationFrame(() => r(performance.now() - ${t0})))`,
  )
}

export interface ScaleResult {
  readonly notes: number
  readonly auditMs: number
  readonly progressSeen: string | null
  readonly notesPaintMs: number
  readonly queuePaintMs: number
  readonly clickMs: number
  readonly farClickMs: number
}

export async function benchWorkspaceScale(opts: {
  readonly notes: number
  readonly chromiumPath: string
  readonly cli: string
  readonly keep?: boolean
  readonly log?: (line: string) => void
}): Promise<ScaleResult> {
  const log = opts.log ?? (() => undefined)
  const root = mkdtempSync(join(tmpdir(), 'mc-bench-scale-'))
  const claudeHome = generateScaleHome(root, opts.notes)
  log(`workspace-scale: ${opts.notes.toLocaleString('en')} notes in ${claudeHome}`)
  const served = await startServe(opts.cli, claudeHome, join(root, 'work'))
  const browser = await chromium.launch({ executablePath: opts.chromiumPath, args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(served.url)
    await page.getByTestId('project-list').getByRole('option').first().click()
    // First open: the audit runs (its progress shows n of N notes), then the list paints.
    const t0 = Date.now()
    await page.getByTestId('tab-notes').click()
    let progressSeen: string | null = null
    const progress = page.getByTestId('audit-progress')
    while (Date.now() - t0 < 600_000) {
      if ((await page.getByTestId('notes-list').getByTestId('note-row').count()) > 0) break
      const text = await progress.textContent({ timeout: 100 }).catch(() => null)
      if (text && /of/.test(text)) progressSeen = text
      await page.waitForTimeout(100)
    }
    const auditMs = Date.now() - t0
    log(
      `workspace-scale: audit and first list ${auditMs} ms (progress seen: ${progressSeen ?? 'none'})`,
    )
    const rows = page.getByTestId('notes-list').getByTestId('note-row')

    // The audit is known now: switching tabs must not run it again, and the list paints at once.
    await page.getByTestId('tab-memory').click()
    const notesPaintMs = await timed(
      page,
      () => page.getByTestId('tab-notes').click(),
      () => rows.first().waitFor(),
    )
    const queueRows = page.getByTestId('queue-list').getByTestId('note-row')
    const queuePaintMs = await timed(
      page,
      () => page.getByTestId('tab-queue').click(),
      () => queueRows.first().waitFor(),
    )
    await page.getByTestId('tab-notes').click()
    await rows.first().waitFor()

    const clickRow = async (i: number): Promise<number> => {
      const row = rows.nth(i)
      const title = (await row.locator('.note-row-title').textContent()) ?? ''
      return timed(
        page,
        () => row.click(),
        () => page.getByTestId('note-detail').locator('h2', { hasText: title }).waitFor(),
      )
    }
    const clickMs = await clickRow(5)
    // Far down the list: scroll to the middle, then click a row there.
    await page.getByTestId('notes-list').evaluate((el) => {
      el.scrollTop = el.scrollHeight / 2
    })
    await page.waitForTimeout(200)
    const farClickMs = await clickRow(3)
    return {
      notes: opts.notes,
      auditMs,
      progressSeen,
      notesPaintMs,
      queuePaintMs,
      clickMs,
      farClickMs,
    }
  } finally {
    await browser.close()
    served.child.kill('SIGTERM')
    if (!opts.keep) rmSync(root, { recursive: true, force: true })
  }
}

/** The lines `npm run bench -- --workspace-scale` prints: each time as a ratio of its target. */
export function scaleReport(r: ScaleResult): string {
  const f = (ms: number) => `${Math.round(ms).toLocaleString('en')} ms`
  const ratio = (ms: number, target: number) =>
    `${(ms / target).toFixed(2)} of target ${target.toLocaleString('en')} ms ${ms <= target ? 'ok' : 'OVER'}`
  return [
    `workspace-scale (${r.notes.toLocaleString('en')} notes)`,
    `  audit, first open (not judged) ${f(r.auditMs)}; progress shown: ${r.progressSeen ?? 'none'}`,
    `  Notes tab first paint          ${f(r.notesPaintMs)}  ${ratio(r.notesPaintMs, TARGET_PAINT_MS)}`,
    `  Review queue first paint       ${f(r.queuePaintMs)}  ${ratio(r.queuePaintMs, TARGET_PAINT_MS)}`,
    `  row click → detail             ${f(r.clickMs)}  ${ratio(r.clickMs, TARGET_CLICK_MS)}`,
    `  row click mid-list → detail    ${f(r.farClickMs)}  ${ratio(r.farClickMs, TARGET_CLICK_MS)}`,
  ].join('\n')
}

// Run directly (the bundle scripts/bench.mjs builds): print the report.
if (process.argv.includes('--workspace-scale')) {
  const notes = Number(arg('--notes', '50000'))
  benchWorkspaceScale({
    notes: Number.isFinite(notes) && notes > 0 ? notes : 50_000,
    chromiumPath: arg('--chromium', process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    cli: resolve(arg('--cli', 'out/cli/index.js')),
    keep: process.argv.includes('--keep'),
    log: (l) => process.stderr.write(`${l}\n`),
  }).then(
    (r) => process.stdout.write(`${scaleReport(r)}\n`),
    (e: unknown) => {
      process.stderr.write(`workspace-scale failed: ${e instanceof Error ? e.stack : String(e)}\n`)
      process.exitCode = 1
    },
  )
}
