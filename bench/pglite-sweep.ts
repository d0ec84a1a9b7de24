/**
 * `npx tsx bench/pglite-sweep.ts`: what PGlite's settings do to the server's memory and
 * speed. Seeds one PGlite data directory with BENCH_ROWS police stations (default
 * 100,000), then for each trial starts the real server on it with the trial's settings
 * (preloading bench/pglite-options.ts), reads its RSS 3 s after 'ready' and the peak
 * (sampled every 100 ms) while the bench's HTTP cases run, and each case's req/s.
 * Then builds a trigram index on BENCH_INDEX_ROWS rows (default 1,000,000; 0 skips it)
 * under a few settings. Writes bench/pglite-sweep.md. BENCH_TRIALS (a JSON array of
 * {settings, initialMemory?, nodeArgs?, env?} or null for the server as configured)
 * replaces the trials below; BENCH_REQUESTS (default 300), BENCH_CONCURRENCY (8).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { benchCases } from './dataset'
import { prepareDb } from './databases'
import { mixRps, runHttpCases, signIn, underLoad, type Outcome } from './load'
import type { PgliteTrial } from './pglite-options'
import { startServer } from '../tests/support/server-process'

const ROWS = Math.min(1_000_000, Math.max(1_000, Number(process.env.BENCH_ROWS ?? 100_000)))
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const MB = 1024 * 1024

/**
 * A trial: PGlite options (bench/pglite-options.ts), optionally with node/V8 flags or
 * environment for the server process (not PGlite settings: for comparison only).
 * `undefined`: the server as configured in server/db/connect.ts (no override).
 */
type Trial = PgliteTrial & { nodeArgs?: string[]; env?: Record<string, string> }
const defaultTrials: (Trial | undefined)[] = [
  { settings: [] },
  undefined,
  { settings: ['shared_buffers=64MB'] },
  { settings: ['shared_buffers=32MB'] },
  { settings: ['shared_buffers=16MB'] },
  { settings: ['shared_buffers=8MB'] },
  { settings: ['shared_buffers=4MB'] },
  { settings: ['shared_buffers=1MB'] },
  { settings: ['shared_buffers=8MB', 'maintenance_work_mem=16MB', 'max_connections=5', 'work_mem=1MB', 'temp_buffers=1MB', 'wal_buffers=256kB'] },
  { settings: ['shared_buffers=8MB', 'maintenance_work_mem=16MB'], initialMemory: 256 * MB },
  // Not PGlite settings, for comparison: V8 compiling PGlite with its baseline compiler only, and fewer malloc arenas.
  { settings: ['shared_buffers=8MB', 'maintenance_work_mem=16MB'], nodeArgs: ['--liftoff-only'] },
  { settings: ['shared_buffers=8MB', 'maintenance_work_mem=16MB'], env: { MALLOC_ARENA_MAX: '2' } },
]

/** maintenance_work_mem against what an index build leaves resident (bench/pglite-index-build.ts). */
const indexTrials: string[][] = [[], ['maintenance_work_mem=16MB'], ['shared_buffers=8MB'], ['shared_buffers=8MB', 'maintenance_work_mem=16MB']]
const INDEX_ROWS = Number(process.env.BENCH_INDEX_ROWS ?? 1_000_000)

async function main(): Promise<void> {
  const trials = process.env.BENCH_TRIALS ? (JSON.parse(process.env.BENCH_TRIALS) as (Trial | null)[]).map((t) => t ?? undefined) : defaultTrials
  const cases = benchCases(ROWS)
  const db = await prepareDb('pglite', ROWS)
  await db.closeConn()
  console.log(`pglite sweep: ${ROWS.toLocaleString('en')} police stations, ${REQUESTS} requests per case, concurrency ${CONCURRENCY}`)
  const preload = pathToFileURL(join(import.meta.dirname, 'pglite-options.ts')).href
  const rows: string[] = []
  try {
    for (const trial of trials) {
      const label = [
        trial ? (trial.settings.length ? trial.settings.join(', ') : 'PGlite as shipped') : 'as configured (server/db/connect.ts)',
        ...(trial?.initialMemory ? [`initialMemory=${trial.initialMemory / MB}MB`] : []),
        ...(trial?.nodeArgs ?? []).map((a) => `node ${a}`),
        ...Object.entries(trial?.env ?? {}).map(([k, v]) => `${k}=${v}`),
      ].join(', ')
      const env = trial ? { ...db.serverEnv, ...trial.env, BENCH_PGLITE_OPTIONS: JSON.stringify({ settings: trial.settings, initialMemory: trial.initialMemory }) } : db.serverEnv
      const server = await startServer(env, { ...(trial ? { preload } : {}), nodeArgs: trial?.nodeArgs })
      try {
        const token = await signIn(server.url)
        const { memory, result } = await underLoad(server, () => runHttpCases(server.url, token, cases, { total: REQUESTS, concurrency: CONCURRENCY, warmup: 20 }))
        const perCase = cases.map((c) => {
          const o: Outcome | undefined = result.get(c.name)
          return o && 'figures' in o ? o.figures.rps.toFixed(0) : '–'
        })
        const row = `| ${label} | ${memory.restMb.toFixed(0)} | ${memory.peakMb.toFixed(0)} | ${perCase.join(' | ')} | ${mixRps(result).toFixed(0)} |`
        console.log(row)
        rows.push(row)
      } finally {
        await server.stop()
      }
    }
  } finally {
    await db.dispose()
  }

  // An index build on INDEX_ROWS rows, in a fresh process per setting (0 skips it).
  const indexRows: string[] = []
  if (INDEX_ROWS > 0) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-index-'))
    const child = (args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'pglite-index-build.ts'), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 })
    try {
      child(['fill', join(dir, 'pglite'), String(INDEX_ROWS)])
      for (const settings of indexTrials) {
        const r = JSON.parse(child(['build', join(dir, 'pglite'), ...settings]).trim().split('\n').pop()!) as { before: number; after: number; wasmMb: number; seconds: number }
        const row = `| ${settings.join(', ') || 'PGlite as shipped'} | ${r.before.toFixed(0)} | ${r.after.toFixed(0)} | ${r.after >= r.before ? '+' : ''}${(r.after - r.before).toFixed(0)} | ${r.wasmMb.toFixed(0)} | ${r.seconds.toFixed(1)} |`
        console.log(row)
        indexRows.push(row)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  const report = [
    '# PGlite settings: server memory and speed',
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.version}: \`npx tsx bench/pglite-sweep.ts\`, ${ROWS.toLocaleString('en')} police stations, ${REQUESTS} requests per case at concurrency ${CONCURRENCY}. RSS of the server process in MB: at rest 3 s after 'ready' (signed in once), and the peak sampled every 100 ms while the cases run.`,
    '',
    `| settings | RSS rest MB | RSS peak MB | ${cases.map((c) => `\`${c.name}\` req/s`).join(' | ')} | mix req/s |`,
    `|---|---:|---:|${cases.map(() => '---:').join('|')}|---:|`,
    ...rows,
    '',
    ...(indexRows.length
      ? [
          `## An index build (${INDEX_ROWS.toLocaleString('en')} rows)`,
          '',
          "A trigram index built on a table of that many names, in a fresh PGlite process per setting (bench/pglite-index-build.ts), as a start-up migration does for a new searchable field: the process's RSS before and after (MB), and the WebAssembly memory's size after (it never shrinks).",
          '',
          '| settings | RSS before MB | RSS after MB | growth MB | WebAssembly memory MB | build s |',
          '|---|---:|---:|---:|---:|---:|',
          ...indexRows,
          '',
        ]
      : []),
  ].join('\n')
  writeFileSync(join(import.meta.dirname, 'pglite-sweep.md'), report)
  console.log(report)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
