import { createWriteStream, openAsBlob } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import ExcelJS from 'exceljs'
import { startPostgres, type Cluster } from '../tests/support/postgres-cluster'
import { startServer } from '../tests/support/server-process'
import { signIn } from './load'
import { rssMb, rssSampler } from './memory'

/**
 * Import of a large file through HTTP (issue 25): districts — a name, their country by its
 * name (a reference looked up by label), a Bangla name and a website — imported in batches
 * into the real server on PGlite (its own data directory, demo data seeded), while the
 * server process's RSS is sampled every 100 ms. A small file first, then the large one: a
 * server whose memory does not grow with the file peaks alike for both.
 *
 *   npx tsx bench/import.ts                            # 5,000 then 50,000 rows of CSV
 *   IMPORT_FORMATS=csv,xlsx IMPORT_ROWS=100000 npx tsx bench/import.ts
 *   IMPORT_DB=postgres npx tsx bench/import.ts          # on a throwaway PostgreSQL cluster: the RSS is the server's alone
 *
 * The XLSX books keep their texts as shared strings, as spreadsheet programs write them.
 */
const LARGE = Number(process.env.IMPORT_ROWS ?? 50_000)
const SMALL = Number(process.env.IMPORT_SMALL_ROWS ?? 5_000)
const ON_POSTGRES = process.env.IMPORT_DB === 'postgres'
const FORMATS = (process.env.IMPORT_FORMATS ?? 'csv').split(',').filter((x): x is 'csv' | 'xlsx' => x === 'csv' || x === 'xlsx')

type Figures = { label: string; rows: number; bytes: number; seconds: number; created: number; rejected: number; restMb: number; peakMb: number }

const row = (run: string, i: number, countries: readonly string[]) => [`Bench ${run} ${i}`, countries[i % countries.length]!, `বেঞ্চ ${i}`, `www.bench-${run}-${i}.example.org`]
const HEADER = ['Name', 'Country', 'Bangla Name', 'Website']

async function writeCsv(path: string, run: string, rows: number, countries: readonly string[]): Promise<void> {
  const out = createWriteStream(path)
  const write = async (cells: readonly string[]) => {
    if (!out.write(`${cells.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',')}\n`)) await once(out, 'drain')
  }
  await write(HEADER)
  for (let i = 0; i < rows; i++) await write(row(run, i, countries))
  out.end()
  await once(out, 'finish')
}

async function writeXlsx(path: string, run: string, rows: number, countries: readonly string[]): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true })
  const sheet = book.addWorksheet('Districts')
  sheet.addRow(HEADER).commit()
  for (let i = 0; i < rows; i++) sheet.addRow(row(run, i, countries)).commit()
  sheet.commit()
  await book.commit()
}

async function importFile(url: string, token: string, pid: number, path: string, label: string, type: string): Promise<Figures> {
  const form = new FormData()
  form.append('mode', 'batches')
  form.append('mapping', JSON.stringify({ Name: 'name', Country: 'country', 'Bangla Name': 'bn_name', Website: 'url' }))
  form.append('file', await openAsBlob(path, { type }), label)
  const restMb = rssMb(pid)
  const sampler = rssSampler(pid, 100)
  const started = performance.now()
  const response = await fetch(`${url}/city/api/v1/city/import/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
  if (!response.ok || !response.body) throw new Error(`import: ${response.status} ${await response.text()}`)
  let text = ''
  const decoder = new TextDecoder()
  let lastShown = 0
  const reader = response.body.getReader()
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    text += decoder.decode(next.value, { stream: true })
    const progress = /"rows":(\d+),"total":(\d+)\}\}\n$/.exec(text)
    if (progress && Number(progress[1]) - lastShown >= 10_000) {
      lastShown = Number(progress[1])
      process.stdout.write(`  ${label}: ${progress[1]} / ${progress[2]} rows, RSS ${rssMb(pid).toFixed(0)} MB\n`)
    }
    // Only the last line matters in the end; progress lines are dropped as they are read.
    text = text.slice(text.lastIndexOf('\n', text.length - 2) + 1)
  }
  const seconds = (performance.now() - started) / 1000
  const peakMb = sampler.stop()
  const last = JSON.parse(text.trim()) as { result?: { rows: number; created: number; rejected: number }; error?: { detail: string } }
  if (!last.result) throw new Error(`import failed: ${JSON.stringify(last)}`)
  return { label, rows: last.result.rows, bytes: (await stat(path)).size, seconds, created: last.result.created, rejected: last.result.rejected, restMb, peakMb }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-import-'))
  const cluster: Cluster | undefined = ON_POSTGRES ? await startPostgres({ settings: { shared_buffers: '256MB' } }) : undefined
  const server = await startServer(cluster ? { DATABASE_URL: `postgresql://${cluster.user}@${cluster.host}:${cluster.port}/postgres` } : {})
  try {
    const token = await signIn(server.url)
    const answer = (await (await fetch(`${server.url}/country/api/v1/country/without_pagination/all/`, { headers: { authorization: `Bearer ${token}` } })).json()) as { countries: Array<{ name: string }> }
    const countries = answer.countries.slice(0, 20).map((c) => c.name)
    if (countries.length === 0) throw new Error('no countries seeded')
    const runs = FORMATS.flatMap((format) => [
      { label: `small.${format}`, rows: SMALL, format },
      { label: `large.${format}`, rows: LARGE, format },
    ])
    const figures: Figures[] = []
    for (const run of runs) {
      const path = join(dir, run.label)
      const tag = run.label.replace('.', '-')
      if (run.format === 'csv') await writeCsv(path, tag, run.rows, countries)
      else await writeXlsx(path, tag, run.rows, countries)
      const type = run.format === 'csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
      figures.push(await importFile(server.url, token, server.pid, path, run.label, type))
    }
    console.log(`\nImport in batches on ${ON_POSTGRES ? 'PostgreSQL (throwaway cluster)' : 'PGlite'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}\n`)
    console.log('| file | rows | file MB | created | rejected | seconds | rows/s | server RSS before MB | server RSS peak MB | peak − before MB |')
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for (const f of figures) {
      console.log(
        `| ${f.label} | ${f.rows} | ${(f.bytes / 1024 / 1024).toFixed(1)} | ${f.created} | ${f.rejected} | ${f.seconds.toFixed(1)} | ${(f.rows / f.seconds).toFixed(0)} | ${f.restMb.toFixed(0)} | ${f.peakMb.toFixed(0)} | ${(f.peakMb - f.restMb).toFixed(0)} |`,
      )
    }
  } finally {
    await server.stop()
    cluster?.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
