/**
 * `npm run bench:first-rows`: what a person on a phone gets when they open a list (a link, a
 * reload) or the login page: in headless Chromium at 390×844 over an emulated mobile network
 * (RTT and bandwidth below), the bytes as sent (after compression) by kind, the requests, the
 * round trips before the first row, and the time to it. Runs on the demo data of a fresh
 * server (PGlite) serving the built app; writes its section of bench/RESULTS.md.
 *
 * Round trips are counted from the requests alone, conservatively: a request waits on every
 * request that had finished before it started, so its depth is one more than the deepest of
 * those (the page itself is 1). The first row's round trips are the deepest request finished
 * before it was drawn. BENCH_FIRST_ROWS_RUNS (default 5) loads of each page; the median is
 * reported.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cpus, loadavg } from 'node:os'
import type { Browser, CDPSession } from 'playwright-core'
import { registry } from '../schema'
import { startServer } from '../tests/support/server-process'
import { writeSection } from './accounting-results'
import { signIn } from './load'

const RUNS = Math.max(1, Number(process.env.BENCH_FIRST_ROWS_RUNS ?? 5))
/** A phone on a good 4G connection: round trip, and bandwidth in bytes per second. */
const NETWORK = { latencyMs: 100, downBps: (10 * 1024 * 1024) / 8, upBps: (5 * 1024 * 1024) / 8 }
const VIEWPORT = { width: 390, height: 844 }
/** The issue's budget for a list route's JavaScript, as sent (brotli), and its round trips to the first row. */
const BUDGET_KB = 150
const BUDGET_ROUND_TRIPS = 2
const FIRST_ROW = 'tbody tr:not([data-skeleton]) td'

/** `bytes`: all that came over the wire for it (headers included); `headers`: of which its response's headers. */
type Request = { id: string; url: string; type: string; start: number; end?: number; bytes: number; headers: number; depth?: number }
export type Load = { requests: Request[]; firstRowMs?: number; roundTrips?: number; chain: string[] }

const kindOf = (r: Request) => (r.type === 'Script' ? 'js' : r.type === 'Stylesheet' ? 'css' : r.type === 'Document' ? 'html' : r.type === 'Fetch' || r.type === 'XHR' ? 'api' : 'other')

/** Each request's depth (see the header); `chain` names the deepest path's requests. */
function depths(requests: Request[]): void {
  const byStart = [...requests].sort((a, b) => a.start - b.start)
  for (const r of byStart) {
    const before = byStart.filter((s) => s !== r && s.end !== undefined && s.end <= r.start && s.depth !== undefined)
    r.depth = before.length === 0 ? 1 : 1 + Math.max(...before.map((s) => s.depth!))
  }
}

async function loadOnce(browser: Browser, url: string, storage: Record<string, string> | undefined, waitFor: string | undefined): Promise<Load> {
  const context = await browser.newContext({ viewport: VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 3 })
  if (storage) await context.addInitScript((s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v)), storage)
  // The moment the first real row is drawn, from the page's own clock (its navigation start).
  if (waitFor) {
    await context.addInitScript((selector) => {
      const w = window as unknown as { __firstRow?: number }
      const observer = new MutationObserver(() => {
        if (w.__firstRow === undefined && document.querySelector(selector)) {
          w.__firstRow = performance.now()
          observer.disconnect()
        }
      })
      observer.observe(document, { childList: true, subtree: true })
    }, waitFor)
  }
  const page = await context.newPage()
  const cdp: CDPSession = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: NETWORK.latencyMs, downloadThroughput: NETWORK.downBps, uploadThroughput: NETWORK.upBps })
  const requests = new Map<string, Request>()
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.request.url.startsWith('data:')) return
    requests.set(e.requestId, { id: e.requestId, url: e.request.url, type: e.type ?? 'Other', start: e.timestamp, bytes: 0, headers: 0 })
  })
  // What had come when the headers were read: the headers.
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId)
    if (r) r.headers = e.response.encodedDataLength
  })
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId)
    if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength })
  })
  await page.goto(url, { waitUntil: 'networkidle' })
  let firstRowMs: number | undefined
  let firstRowAt: number | undefined
  if (waitFor) {
    await page.waitForSelector(waitFor, { timeout: 60_000 })
    firstRowMs = await page.evaluate(() => (window as unknown as { __firstRow?: number }).__firstRow)
    // The page's clock starts at its navigation: the document request's start on CDP's clock.
    const doc = [...requests.values()].find((r) => r.type === 'Document')
    if (doc && firstRowMs !== undefined) firstRowAt = doc.start + firstRowMs / 1000
  }
  await context.close()
  const list = [...requests.values()].filter((r) => r.end !== undefined)
  depths(list)
  const done = firstRowAt === undefined ? list : list.filter((r) => r.end! <= firstRowAt!)
  const deepest = done.reduce<Request | undefined>((a, r) => (a === undefined || r.depth! > a.depth! ? r : a), undefined)
  const chain: string[] = []
  for (let r = deepest; r; ) {
    chain.unshift(`${kindOf(r)} ${new URL(r.url).pathname.replace(/^\/assets\//, '')}`)
    const d = r.depth!
    r = done.filter((s) => s.depth === d - 1 && s.end! <= r!.start).sort((a, b) => b.end! - a.end!)[0]
  }
  return { requests: list, firstRowMs, roundTrips: firstRowAt === undefined ? undefined : deepest?.depth, chain }
}

/**
 * What a page's JavaScript is made of, as sent: each file's bytes shared out by its source
 * map between the libraries (node_modules), the app's code and its text (the catalogues,
 * chunks without a map), in proportion to what each source contributes to the file.
 */
function composition(requests: Request[]): { libraries: number; app: number; text: number } {
  const out = { libraries: 0, app: 0, text: 0 }
  for (const r of requests.filter((x) => kindOf(x) === 'js')) {
    const sent = r.bytes - r.headers
    const file = join('dist', new URL(r.url).pathname)
    if (!existsSync(`${file}.map`)) {
      out.text += sent
      continue
    }
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] }
    // The sources' own sizes stand in for their share of the minified file.
    const sizes = map.sources.map((source, i) => ({ source, size: map.sourcesContent?.[i]?.length ?? 0 }))
    const total = sizes.reduce((a, x) => a + x.size, 0)
    // A catalogue's chunk maps to nothing of its own.
    if (total === 0) {
      out.text += sent
      continue
    }
    for (const { source, size } of sizes) {
      const share = (sent * size) / total
      if (source.includes('node_modules')) out.libraries += share
      else if (/locales[\\/].*\.json$/.test(source)) out.text += share
      else out.app += share
    }
  }
  return out
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const kb = (bytes: number) => (bytes / 1024).toFixed(1)

type Summary = { label: string; path: string; files: Record<string, { n: number; bytes: number; body: number }>; parts: ReturnType<typeof composition>; requests: number; firstRowMs?: number; roundTrips?: number; chain: string[] }

function summarise(label: string, path: string, loads: Load[]): Summary {
  const mid = loads.length === 1 || loads[0]!.firstRowMs === undefined ? loads[0]! : loads.find((l) => l.firstRowMs === median(loads.map((x) => x.firstRowMs!)))!
  const files: Summary['files'] = {}
  for (const r of mid.requests) {
    const k = kindOf(r)
    files[k] ??= { n: 0, bytes: 0, body: 0 }
    files[k].n++
    files[k].bytes += r.bytes
    files[k].body += r.bytes - r.headers
  }
  return { label, path, files, parts: composition(mid.requests), requests: mid.requests.length, firstRowMs: mid.firstRowMs, roundTrips: mid.roundTrips, chain: mid.chain }
}

async function main(): Promise<void> {
  if (!existsSync('/usr/bin/chromium') || !existsSync('dist/index.html')) throw new Error('needs /usr/bin/chromium and a built dist/ (npm run build)')
  const load1 = loadavg()[0]!.toFixed(1)
  const server = await startServer()
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const token = await signIn(server.url)
    const storage = { jwt_access_token: `Bearer ${token}`, user_id: '1' }
    const listPath = registry.thana.ui.listPath
    const cases: Array<{ label: string; path: string; storage?: Record<string, string>; waitFor?: string }> = [
      { label: 'login page (a guest)', path: '/login' },
      { label: 'a list opened by link or reload (signed in)', path: listPath, storage, waitFor: FIRST_ROW },
    ]
    const summaries: Summary[] = []
    for (const c of cases) {
      const loads: Load[] = []
      for (let i = 0; i < RUNS; i++) loads.push(await loadOnce(browser, `${server.url}${c.path}`, c.storage, c.waitFor))
      summaries.push(summarise(c.label, c.path, loads))
      if (process.env.BENCH_VERBOSE) for (const r of loads[0]!.requests) console.log(c.path, r.depth, kindOf(r), kb(r.bytes - r.headers), new URL(r.url).pathname)
    }
    const lines = [
      '## What a phone receives (first rows)',
      '',
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores (1-minute load average ${load1} at the start): \`npm run bench:first-rows\`, headless Chromium at ${VIEWPORT.width}×${VIEWPORT.height} over an emulated mobile network (RTT ${NETWORK.latencyMs} ms, ${(NETWORK.downBps * 8) / 1024 / 1024} Mbit/s down), cache off, the demo data of a fresh server (PGlite); median of ${RUNS} loads. Bytes are as sent (brotli), response bodies apart from all with headers; a round trip is a wait on an earlier answer (see the script's header).`,
      '',
      '| page | requests | JS files | JS kB sent (bodies) | JS kB with headers | CSS kB | API calls | API kB | all kB with headers | round trips to first row | first row ms | budget |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ]
    for (const s of summaries) {
      const f = (k: string) => s.files[k] ?? { n: 0, bytes: 0, body: 0 }
      const all = Object.values(s.files).reduce((a, x) => a + x.bytes, 0)
      const isList = s.firstRowMs !== undefined
      const budget = isList
        ? `JS ≤ ${BUDGET_KB} kB ${f('js').body / 1024 <= BUDGET_KB ? 'met' : 'not met'}; ≤ ${BUDGET_ROUND_TRIPS} round trips ${s.roundTrips! <= BUDGET_ROUND_TRIPS ? 'met' : 'not met'}`
        : '–'
      lines.push(
        `| \`${s.path}\` ${s.label} | ${s.requests} | ${f('js').n} | ${kb(f('js').body)} | ${kb(f('js').bytes)} | ${kb(f('css').bytes)} | ${f('api').n} | ${kb(f('api').bytes)} | ${kb(all)} | ${s.roundTrips ?? '–'} | ${s.firstRowMs?.toFixed(0) ?? '–'} | ${budget} |`,
      )
    }
    lines.push('', 'Their JavaScript, as sent, by what it is made of (shared out by the source maps):', '')
    for (const s of summaries) lines.push(`- \`${s.path}\`: libraries ${kb(s.parts.libraries)} kB, the app's code ${kb(s.parts.app)} kB, its text (catalogues) ${kb(s.parts.text)} kB.`)
    for (const s of summaries.filter((x) => x.chain.length > 0 && x.firstRowMs !== undefined)) {
      lines.push('', `The deepest chain before the first row of \`${s.path}\`: ${s.chain.map((c) => `\`${c}\``).join(' → ')}.`)
    }
    const report = lines.join('\n')
    writeSection('bench/RESULTS.md', 'first rows bench', report)
    console.log(report)
  } finally {
    await browser.close()
    await server.stop()
  }
}

await main()
