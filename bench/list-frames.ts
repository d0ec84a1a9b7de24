/**
 * `tsx bench/list-frames.ts`: how smoothly a list of 10,000 rows scrolls at "All" (issue 25).
 * A fresh PGlite database with the demo data and the police stations topped up to 10,000
 * (bench/dataset.ts), the built app served by the real server; in headless Chromium, the
 * list opened at `?size=all` (one request for the count, one for the rows, drawn as they
 * scroll: TanStack Virtual), then scrolled top to bottom over BENCH_SCROLL_MS (default
 * 4,000 ms) — each animation frame moves the list's scroll box on and records the time since
 * the one before — at 1280×800 and 390×844. Reports each frame interval's median, 95th
 * percentile and maximum, and the frames over 50 ms, as a markdown table.
 *
 * Before that jump through the list, a person's scroll: the mouse over the list, one wheel
 * notch (BENCH_WHEEL_PX, default 100 px) every BENCH_WHEEL_EVERY_MS (default 50 ms) for
 * BENCH_WHEEL_MS (default 4,000 ms) — real wheel events, scrolled by the browser — while each
 * animation frame's interval is recorded the same way: most frames then keep most of their
 * rows, and only the rows that enter the window are drawn.
 *
 * Needs /usr/bin/chromium and a build of the current sources in dist/ (it refuses a stale
 * one: its figures would be another code's; BENCH_ALLOW_STALE=1 runs it anyway).
 */
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { registry } from '../schema'
import { ALL_ROWS_MAX } from '../schema/kit/list-view'
import { buildState } from '../scripts/build-inputs'
import { startServer } from '../tests/support/server-process'
import { prepareDb } from './databases'
import { signIn } from './load'

const ROWS = ALL_ROWS_MAX
const SCROLL_MS = Math.max(500, Number(process.env.BENCH_SCROLL_MS ?? 4_000))
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const
/** A person's scroll: one wheel notch (Chromium's 100 px) every 50 ms, a brisk read down the list. */
const WHEEL_PX = Math.max(1, Number(process.env.BENCH_WHEEL_PX ?? 100))
const WHEEL_EVERY_MS = Math.max(10, Number(process.env.BENCH_WHEEL_EVERY_MS ?? 50))
const WHEEL_MS = Math.max(500, Number(process.env.BENCH_WHEEL_MS ?? 4_000))
/** A frame this long is one a person sees stutter. */
const JANK_MS = 50

type Wheel = { frames: number[]; scrolled: number; steps: number; rowsAdded: number }
type Run = { viewport: string; rows: number; scrolled: number; frames: number[]; drawnMax: number; lastSerial: number; loadMs: number; wheel: Wheel }

type FrameProbe = { frames: number[]; isDone: boolean; rowsAdded: number; observer: MutationObserver }
declare global {
  // The page's frame recorder during the wheel scroll (set and read through page.evaluate).
  var __listFrames: FrameProbe | undefined
}

/** In the page: records each animation frame's interval, and the rows added to the table, until `stopFrames`. */
function startFrames(): void {
  const body = document.querySelector('table tbody')!
  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node instanceof HTMLElement && node.matches('tr[data-index]')) probe.rowsAdded++
  })
  const probe: FrameProbe = { frames: [], isDone: false, rowsAdded: 0, observer }
  observer.observe(body, { childList: true })
  globalThis.__listFrames = probe
  let last: number | undefined
  const step = (now: number) => {
    if (last !== undefined) probe.frames.push(now - last)
    last = now
    if (!probe.isDone) requestAnimationFrame(step)
  }
  requestAnimationFrame(step)
}

function stopFrames(): { frames: number[]; scrolled: number; rowsAdded: number } {
  const probe = globalThis.__listFrames!
  probe.isDone = true
  probe.observer.disconnect()
  const box = document.querySelector('table')!.closest<HTMLElement>('[role="region"]')!
  return { frames: probe.frames, scrolled: box.scrollTop, rowsAdded: probe.rowsAdded }
}

/** A person's scroll from the top of the list: real wheel events over its box, a notch every WHEEL_EVERY_MS. */
async function wheelThrough(page: Page): Promise<Wheel> {
  const box = await page.locator('[role="region"]:has(table)').boundingBox()
  if (!box) throw new Error('the list has no box to scroll')
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 300))
  await page.evaluate(startFrames)
  const t0 = Date.now()
  let steps = 0
  while (Date.now() - t0 < WHEEL_MS) {
    await page.mouse.wheel(0, WHEEL_PX)
    steps++
    // The next notch when a person's hand gives it, however long the last one took to send.
    const next = t0 + steps * WHEEL_EVERY_MS
    await page.waitForTimeout(Math.max(0, next - Date.now()))
  }
  // The last notch's scroll (smooth scrolling animates it) finished before the clock stops.
  await page.waitForTimeout(300)
  return { ...(await page.evaluate(stopFrames)), steps }
}

/** In the page: scrolls the list's box from top to bottom over `durationMs`, one step per animation frame. */
async function scrollThrough(durationMs: number): Promise<{ frames: number[]; scrolled: number; drawnMax: number; lastSerial: number }> {
  const box = document.querySelector('table')!.closest<HTMLElement>('[role="region"]')!
  const max = box.scrollHeight - box.clientHeight
  const frames: number[] = []
  let drawnMax = 0
  await new Promise<void>((done) => {
    let start: number | undefined
    let last = 0
    const step = (now: number) => {
      if (start === undefined) {
        start = now
        last = now
        requestAnimationFrame(step)
        return
      }
      frames.push(now - last)
      last = now
      drawnMax = Math.max(drawnMax, box.querySelectorAll('tbody tr[data-index]').length)
      const progress = Math.min(1, (now - start) / durationMs)
      box.scrollTop = progress * max
      if (progress < 1) requestAnimationFrame(step)
      else done()
    }
    requestAnimationFrame(step)
  })
  // Settled at the bottom (rows measured on the way may have made the box taller than first estimated):
  // the last row drawn is the list's last, numbered as such.
  for (let i = 0, height = -1; i < 20 && height !== box.scrollHeight; i++) {
    height = box.scrollHeight
    box.scrollTop = height
    await new Promise((r) => setTimeout(r, 150))
  }
  const serialAt = [...box.querySelectorAll('thead th')].findIndex((th) => th.getAttribute('data-column') === 'serial')
  const serials = [...box.querySelectorAll<HTMLTableRowElement>('tbody tr[data-index]')].map((tr) => Number(tr.cells[serialAt]!.textContent))
  return { frames, scrolled: max, drawnMax, lastSerial: Math.max(...serials) }
}

async function measure(browser: Browser, url: string, storage: Record<string, string>, viewport: { width: number; height: number }): Promise<Run> {
  const context = await browser.newContext({ viewport })
  // tsx names the functions it compiles with a helper (`__name`) the page does not have.
  await context.addInitScript('globalThis.__name = (f) => f')
  await context.addInitScript((s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v)), storage)
  const page = await context.newPage()
  const t0 = Date.now()
  await page.goto(`${url}${registry.thana.ui.listPath}?size=all`)
  // Every row asked and the scroll box as tall as the whole list.
  await page.waitForFunction(
    (rows) => {
      const box = document.querySelector('table')?.closest('[role="region"]')
      return box !== null && box !== undefined && box.querySelector('tbody tr[data-index]') !== null && box.scrollHeight > rows * 20
    },
    ROWS,
    { timeout: 120_000, polling: 100 },
  )
  const loadMs = Date.now() - t0
  // Fonts, images and the first idle work done before the clock runs.
  await page.waitForTimeout(1_000)
  const wheel = await wheelThrough(page)
  // Back to the top, settled, before the jump through the whole list.
  await page.evaluate(() => {
    document.querySelector('table')!.closest<HTMLElement>('[role="region"]')!.scrollTop = 0
  })
  await page.waitForTimeout(1_000)
  const result = await page.evaluate(scrollThrough, SCROLL_MS)
  await context.close()
  return { viewport: `${viewport.width}×${viewport.height}`, rows: ROWS, loadMs, wheel, ...result }
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const ms = (x: number) => x.toFixed(1)

async function main(): Promise<void> {
  if (!existsSync('/usr/bin/chromium')) throw new Error('needs Chromium at /usr/bin/chromium')
  const state = buildState({ root: process.cwd(), outDir: resolve('dist') })
  if (state === 'missing') throw new Error('dist/ is missing: build the app first (npm run build)')
  if (state === 'stale' && !process.env.BENCH_ALLOW_STALE) throw new Error('dist/ was built from other sources than these: build the app again (npm run build), or BENCH_ALLOW_STALE=1')
  const load1 = loadavg()[0]!.toFixed(1)
  const t0 = performance.now()
  const db = await prepareDb('pglite', ROWS)
  console.log(`seeded ${ROWS.toLocaleString('en')} police stations in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  await db.closeConn()
  const server = await startServer(db.serverEnv)
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const runs: Run[] = []
  try {
    const token = await signIn(server.url)
    const storage = { jwt_access_token: `Bearer ${token}`, user_id: '1' }
    for (const viewport of VIEWPORTS) {
      const run = await measure(browser, server.url, storage, viewport)
      if (run.lastSerial !== ROWS) throw new Error(`at ${run.viewport} the last row drawn is numbered ${run.lastSerial}, not ${ROWS}`)
      runs.push(run)
      console.log(`${run.viewport}: ${run.wheel.frames.length} frames scrolled by the wheel, ${run.frames.length} through the list`)
    }
    const lines = [
      '## Scrolling "All" rows (10,000) in Chromium',
      '',
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores (1-minute load average ${load1} at the start), headless Chromium ${browser.version()} without a GPU: \`tsx bench/list-frames.ts\`. The police stations' list (PGlite, the demo data topped up to ${ROWS.toLocaleString('en')} rows) opened at \`?size=all\`, then its scroll box moved from top to bottom over ${(SCROLL_MS / 1000).toFixed(1)} s, one step per animation frame (every frame a new window of rows: the hardest case), recording the time between frames. A frame over ${JANK_MS} ms is one a person sees stutter; 16.7 ms is 60 frames a second.`,
      '',
      `| viewport | rows | scrolled px | opened to rows drawn ms | frames | frame p50 ms | frame p95 ms | frame max ms | frames over ${JANK_MS} ms | most rows in the page |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        (r) =>
          `| ${r.viewport} | ${r.rows.toLocaleString('en')} | ${Math.round(r.scrolled).toLocaleString('en')} | ${r.loadMs.toLocaleString('en')} | ${r.frames.length} | ${ms(percentile(r.frames, 50))} | ${ms(percentile(r.frames, 95))} | ${ms(Math.max(...r.frames))} | ${r.frames.filter((f) => f > JANK_MS).length} | ${r.drawnMax} |`,
      ),
      '',
      `A person's scroll, measured first on the same page: the mouse over the list, a wheel notch of ${WHEEL_PX} px every ${WHEEL_EVERY_MS} ms for ${(WHEEL_MS / 1000).toFixed(1)} s from its top (real wheel events, scrolled by the browser), each animation frame's interval recorded until 300 ms after the last notch; rows added are the rows that entered the window, each drawn once.`,
      '',
      `| viewport | wheel notches | scrolled px | rows added | frames | frame p50 ms | frame p95 ms | frame max ms | frames over ${JANK_MS} ms |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        ({ viewport, wheel: w }) =>
          `| ${viewport} | ${w.steps} | ${Math.round(w.scrolled).toLocaleString('en')} | ${w.rowsAdded.toLocaleString('en')} | ${w.frames.length} | ${ms(percentile(w.frames, 50))} | ${ms(percentile(w.frames, 95))} | ${ms(Math.max(...w.frames))} | ${w.frames.filter((f) => f > JANK_MS).length} |`,
      ),
      '',
    ]
    console.log(lines.join('\n'))
  } finally {
    await browser.close()
    await server.stop()
    await db.dispose()
  }
}

await main()
