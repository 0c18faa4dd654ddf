/**
 * The window on the large home: the built `serve` in Debian's Chromium (playwright-core). Times,
 * measured inside the page: from navigation until the project list and the first MEMORY.md with
 * its cutoff are visible; a note's diff after a click; the longest frame while a rescan runs
 * (the widest gap between animation frames, with PerformanceObserver 'longtask' entries beside it).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM_ARGS } from '../chromium-args'
import { processPeakRssMiB, SAMPLE_MS } from './measure'
import { budgetRow, skippedRow, TARGETS, type BenchRow } from './report'

export interface WindowOptions {
  readonly claudeHome: string
  /** A scratch folder: state, HOME, empty Codex home and managed folder live here. */
  readonly workDir: string
  readonly chromium: string
  /** The built CLI (default out/cli/index.js). */
  readonly cli?: string
  /** Name of a project with notes and a repository, for the diff timing (null: skip). */
  readonly notesProject: string | null
  readonly timeoutMs?: number
  readonly log?: (line: string) => void
}

interface Served {
  readonly url: string
  readonly child: ChildProcess
  peakRssMiB(): number | null
  stop(): Promise<void>
}

/** Start `serve` on a free port with every home pointed into `workDir`; resolves with its URL. */
function startServe(
  cli: string,
  claudeHome: string,
  workDir: string,
  rendererDir: string,
): Promise<Served> {
  const dirs = ['home', 'codex', 'managed', 'state', 'xdg']
  for (const d of dirs) mkdirSync(join(workDir, d), { recursive: true })
  // BENCH_SERVE_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p") profiles the back end.
  const nodeArgs = (process.env.BENCH_SERVE_NODE_ARGS ?? '').split(' ').filter((a) => a !== '')
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      cli,
      'serve',
      '--port',
      '0',
      '--claude-home',
      claudeHome,
      '--codex-home',
      join(workDir, 'codex'),
      '--managed-dir',
      join(workDir, 'managed'),
      '--state-dir',
      join(workDir, 'state'),
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: join(workDir, 'home'),
        XDG_CACHE_HOME: join(workDir, 'xdg', 'cache'),
        XDG_STATE_HOME: join(workDir, 'xdg', 'state'),
        XDG_DATA_HOME: join(workDir, 'xdg', 'data'),
        CLAUDE_CONFIG_DIR: claudeHome,
        CODEX_HOME: join(workDir, 'codex'),
        MEMORY_CURATOR_RENDERER_DIR: rendererDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let peak: number | null = null
  const timer = setInterval(() => {
    const p = child.pid === undefined ? null : processPeakRssMiB(child.pid)
    if (p !== null) peak = Math.max(peak ?? 0, p)
  }, SAMPLE_MS)
  let err = ''
  child.stderr?.on('data', (d: Buffer) => {
    if (err.length < 16 * 1024) err += d.toString()
  })
  const stop = (): Promise<void> =>
    new Promise((done) => {
      clearInterval(timer)
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once('exit', () => done())
      child.kill('SIGTERM')
    })
  return new Promise((ok, fail) => {
    let out = ''
    const t = setTimeout(() => {
      void stop()
      fail(new Error(`serve printed no URL in 60 s; stderr: ${err}`))
    }, 60_000)
    child.once('exit', (code) => {
      clearTimeout(t)
      clearInterval(timer)
      fail(new Error(`serve exited with ${code}; stderr: ${err}`))
    })
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const nl = out.indexOf('\n')
      if (nl < 0) return
      clearTimeout(t)
      ok({ url: out.slice(0, nl).trim(), child, peakRssMiB: () => peak, stop })
    })
  })
}

/**
 * Collects long tasks from the first frame on, and the longest gap between animation frames
 * since the last reset (a string: the page, not Node, runs it).
 */
const PAGE_PROBES = `
  window.__mcLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__mcLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__mcLongTasks = null; }
  window.__mcFrameMax = 0;
  let last = 0;
  const tick = (t) => {
    if (last > 0 && t - last > window.__mcFrameMax) window.__mcFrameMax = t - last;
    if (!window.__mcListAt && document.querySelector('[data-testid=project-list] [role=option]')) window.__mcListAt = performance.now();
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
`

/** performance.now() when the project list and the first MEMORY.md's cutoff are both visible. */
const READY_CHECK = `(() => {
  const visible = (el) => !!el && el.getClientRects().length > 0;
  const option = document.querySelector('[data-testid=project-list] [role=option]');
  const cutoff = document.querySelector('[data-testid=cutoff-summary]');
  return visible(option) && visible(cutoff) ? performance.now() : false;
})()`

/** Milestones of the first load, in ms since navigation started. */
const PHASES = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = (name) => {
    const e = performance.getEntriesByType('resource').find((r) => new URL(r.name).pathname === name);
    return e ? Math.round(e.responseEnd) : null;
  };
  return {
    domContentLoadedMs: nav ? Math.round(nav.domContentLoadedEventEnd) : null,
    scanAnsweredMs: res('/api/scan'),
    listDrawnMs: window.__mcListAt ? Math.round(window.__mcListAt) : null,
  };
})()`

/** Longest task since `from` (ms of performance.now()), or null when the browser reports none. */
const longestSince = (from: number): string => `(() => {
  const l = window.__mcLongTasks;
  if (!l) return null;
  const mine = l.filter((t) => t.start + t.duration >= ${from});
  return { longest: mine.reduce((m, t) => Math.max(m, t.duration), 0), count: mine.length };
})()`

/**
 * Click a note row that is not selected and time, in the page, until its diff is drawn (or the
 * "nothing to compare" text shows): the loading text must appear first, so an old diff never counts.
 */
const DIFF_AFTER_CLICK = `(async () => {
  const rows = [...document.querySelectorAll('[data-testid=notes-list] [data-testid=note-row]')];
  const row = rows.find((r) => r.getAttribute('aria-selected') !== 'true');
  if (!row) return { error: 'no unselected note row' };
  const loading = () => [...document.querySelectorAll('p.empty')].some((p) => p.textContent.includes('Comparing with the code'));
  const drawn = () => {
    if (loading()) return false;
    if (document.querySelector('[data-testid=no-diffs]')) return true;
    // Monaco has drawn both sides; one may be empty ("nothing now" for a deleted path).
    const sides = [...document.querySelectorAll('[data-testid=note-diff] .editor .view-lines')];
    if (sides.length >= 2 && sides.some((l) => l.textContent.length > 0)) return true;
    return !!document.querySelector('[data-testid=note-diffs]') && !document.querySelector('[data-testid=note-diff]');
  };
  const t0 = performance.now();
  row.click();
  let sawLoading = false;
  return await new Promise((resolve) => {
    const step = () => {
      const now = performance.now() - t0;
      if (!sawLoading && loading()) sawLoading = true;
      if (sawLoading && drawn()) return resolve({ ms: now, title: row.textContent.slice(0, 60) });
      if (!sawLoading && now > 2000 && drawn()) return resolve({ ms: now, title: row.textContent.slice(0, 60), noLoadingSeen: true });
      if (now > 30000) return resolve({ error: 'no diff within 30 s' });
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
})()`

interface DiffClick {
  readonly ms?: number
  readonly error?: string
  readonly title?: string
  readonly noLoadingSeen?: boolean
}

/** Open the window on the home and time it; one row per measurement, skipped rows say why. */
export async function benchWindow(opts: WindowOptions): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined)
  const cli = resolve(opts.cli ?? 'out/cli/index.js')
  const readyTarget = `≤ ${TARGETS.windowReadyMs} ms`
  const diffTarget = `≤ ${TARGETS.diffMs} ms`
  const taskTarget = `≤ ${TARGETS.longTaskMs} ms`
  const skipAll = (why: string): BenchRow[] => [
    skippedRow('window: project list + first cutoff', readyTarget, why),
    skippedRow('window: longest frame during a rescan', taskTarget, why),
    skippedRow('window: note diff after a click', diffTarget, why),
  ]
  const renderer = process.env.MEMORY_CURATOR_RENDERER_DIR ?? resolve(cli, '..', '..', 'renderer')
  if (!existsSync(cli) || !existsSync(join(renderer, 'index.html'))) {
    return skipAll(`no build at ${cli} with a renderer at ${renderer}: run npm run build`)
  }
  if (!existsSync(opts.chromium)) return skipAll(`no Chromium at ${opts.chromium}`)
  const timeout = opts.timeoutMs ?? 300_000
  let served: Served | null = null
  let browser: Browser | null = null
  const rows: BenchRow[] = []
  try {
    served = await startServe(cli, opts.claudeHome, opts.workDir, renderer)
    browser = await chromium.launch({ executablePath: opts.chromium, args: CHROMIUM_ARGS })
    // The page's CSP forbids eval; the timing probes below are strings evaluated in the page.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    })
    const page: Page = await context.newPage()
    await page.addInitScript(PAGE_PROBES)
    await page.goto(served.url, { waitUntil: 'commit' })
    const ready = (await (
      await page.waitForFunction(READY_CHECK, undefined, { polling: 'raf', timeout })
    ).jsonValue()) as number
    const loadTasks = (await page.evaluate(longestSince(0))) as {
      longest: number
      count: number
    } | null
    // Where the time went: the bundle (DOMContentLoaded), the first scan's answer, the list drawn.
    const phases = (await page.evaluate(PHASES)) as Record<string, number | null>
    const options = await page.locator('[data-testid=project-list] [role=option]').count()
    log(`window: ready in ${Math.round(ready)} ms, ${options} projects listed`)
    rows.push(
      budgetRow(
        'window: project list + first cutoff',
        ready,
        TARGETS.windowReadyMs,
        served.peakRssMiB(),
        {
          projectsListed: options,
          ...phases,
          longestTaskDuringLoadMs: loadTasks ? Math.round(loadTasks.longest) : null,
          longTasksDuringLoad: loadTasks?.count ?? null,
        },
      ),
    )

    // A rescan from the button: the page must stay responsive while the back end walks the home.
    const from = (await page.evaluate('window.__mcFrameMax = 0, performance.now()')) as number
    const scanResponse = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/scan', {
      timeout,
    })
    const r0 = Date.now()
    await page.getByRole('button', { name: 'Rescan' }).click()
    await scanResponse
    const rescanMs = Date.now() - r0
    await page.waitForTimeout(500)
    const scanTasks = (await page.evaluate(longestSince(from))) as {
      longest: number
      count: number
    } | null
    const frameMax = (await page.evaluate('window.__mcFrameMax')) as number
    rows.push(
      budgetRow(
        'window: longest frame during a rescan',
        frameMax,
        TARGETS.longTaskMs,
        served.peakRssMiB(),
        {
          rescanMs,
          longestLongTaskMs: scanTasks ? Math.round(scanTasks.longest) : null,
          longTasks: scanTasks?.count ?? null,
        },
      ),
    )

    // A note's diff: the notes project, its Notes tab, then clicks on notes not yet shown.
    const notesTab = page.getByTestId('tab-notes')
    if (opts.notesProject === null) {
      rows.push(
        skippedRow(
          'window: note diff after a click',
          diffTarget,
          'no project with notes and a repository',
        ),
      )
    } else {
      await page
        .getByTestId('project-list')
        .getByRole('option', { name: new RegExp(`\\b${opts.notesProject}\\b`) })
        .first()
        .click()
      if ((await notesTab.count()) === 0) {
        rows.push(
          skippedRow('window: note diff after a click', diffTarget, 'the window has no Notes tab'),
        )
      } else {
        const n0 = Date.now()
        await notesTab.click()
        await page.getByTestId('notes-list').getByTestId('note-row').nth(1).waitFor({ timeout })
        const notesListMs = Date.now() - n0
        log(`window: notes listed ${Math.round(notesListMs)} ms after opening the tab`)
        const clicks: DiffClick[] = []
        for (let i = 0; i < 3; i++)
          clicks.push((await page.evaluate(DIFF_AFTER_CLICK)) as DiffClick)
        const failed = clicks.find((c) => c.error)
        if (failed) {
          rows.push(
            skippedRow('window: note diff after a click', diffTarget, failed.error ?? 'failed'),
          )
        } else {
          const times = clicks.map((c) => c.ms as number)
          rows.push(
            budgetRow(
              'window: note diff after a click',
              Math.max(...times),
              TARGETS.diffMs,
              served.peakRssMiB(),
              {
                clicksMs: times.map((t) => Math.round(t)).join(' / '),
                notesListAfterTabMs: notesListMs,
                loadingNotSeen: clicks.some((c) => c.noLoadingSeen === true),
              },
            ),
          )
        }
      }
    }
  } catch (err) {
    const why = (err as Error).message.split('\n')[0].slice(0, 200)
    const have = new Set(rows.map((r) => r.job))
    for (const r of skipAll(`failed: ${why}`)) if (!have.has(r.job)) rows.push(r)
  } finally {
    await browser?.close().catch(() => undefined)
    await served?.stop()
  }
  return rows
}
