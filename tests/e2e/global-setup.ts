import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../support/server-process'

/**
 * The journeys' database, seeded once: a server started on an empty data directory migrates
 * it and writes the demo data, then stops; every journey's server starts on a copy
 * (SEEDED_DATA_DIR, tests/support/server-process.ts) — the same first state, without the
 * seven seconds of migrations and demo data each.
 */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-seeded-'))
  const server = await startServer({ DATA_DIR: dir })
  await server.stop()
  process.env.SEEDED_DATA_DIR = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
