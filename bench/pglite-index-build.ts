/**
 * Child of bench/pglite-sweep.ts: what an index build leaves resident in a PGlite process
 * (a start-up migration builds one for a new searchable field; WebAssembly memory never
 * shrinks). `tsx bench/pglite-index-build.ts fill <dir> <rows>` makes a PGlite directory
 * with a table of police-station-like names; `tsx bench/pglite-index-build.ts build <dir>
 * [name=value ...]` opens it in a fresh process with the settings, builds a trigram index
 * on it (dropped again after) and prints one JSON line: RSS (MB) before and after the
 * build, the WebAssembly memory's size and the build's seconds.
 */
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { pgliteExtensions } from '../server/db/connect'

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024
const [mode, dir, ...rest] = process.argv.slice(2)
if (mode === 'fill') {
  const db = await PGlite.create({ dataDir: dir, extensions: pgliteExtensions })
  await db.exec('create extension if not exists pg_trgm; create table t (id serial primary key, name text)')
  await db.query(`insert into t (name) select 'Gulshan ' || g || ' ' || md5(g::text) from generate_series(1, $1::int) g`, [Number(rest[0] ?? 1_000_000)])
  await db.exec('analyze')
  await db.close()
} else {
  const db = await PGlite.create({ dataDir: dir, extensions: pgliteExtensions, startParams: [...PGlite.defaultStartParams, ...rest.flatMap((s) => ['-c', s])] })
  await db.query('select count(*) from t')
  await new Promise((r) => setTimeout(r, 1000))
  const before = rss()
  const t0 = performance.now()
  await db.exec('create index t_name_trgm on t using gin (name gin_trgm_ops)')
  const seconds = (performance.now() - t0) / 1000
  await new Promise((r) => setTimeout(r, 1000))
  const after = rss()
  const wasmMb = ((db as unknown as { mod?: { wasmMemory?: WebAssembly.Memory } }).mod?.wasmMemory?.buffer.byteLength ?? 0) / 1024 / 1024
  await db.exec('drop index t_name_trgm')
  await db.close()
  console.log(JSON.stringify({ before, after, wasmMb, seconds }))
}
