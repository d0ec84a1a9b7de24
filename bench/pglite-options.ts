/**
 * Preloaded into a bench server (`node --import tsx --import <this file> server/main.ts`)
 * to try PGlite settings in the real server without editing server/db/connect.ts:
 * BENCH_PGLITE_OPTIONS = {"settings": ["shared_buffers=16MB", ...], "initialMemory"?: bytes}
 * replaces the start parameters (PGlite's defaults plus `-c` for each setting) and the
 * initial WebAssembly memory that connect() passes. `{"settings": []}` is PGlite as shipped.
 */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'

export type PgliteTrial = { settings: string[]; initialMemory?: number }

const raw = process.env.BENCH_PGLITE_OPTIONS
if (raw) {
  const trial = JSON.parse(raw) as PgliteTrial
  const create = PGlite.create.bind(PGlite) as (options?: PGliteOptions) => Promise<PGlite>
  ;(PGlite as unknown as { create: (options?: PGliteOptions) => Promise<PGlite> }).create = async (options?: PGliteOptions) => {
    const { postgresqlconf: _conf, startParams: _params, initialMemory: _memory, ...rest } = options ?? {}
    const db = await create({ ...rest, startParams: [...PGlite.defaultStartParams, ...trial.settings.flatMap((s) => ['-c', s])], initialMemory: trial.initialMemory })
    const shown = await db.query<{ name: string; setting: string }>(`select name, setting from pg_settings where name in ('shared_buffers', 'work_mem', 'max_connections')`)
    console.log(`bench pglite options: ${shown.rows.map((r) => `${r.name}=${r.setting}`).join(' ')}`)
    return db
  }
}
