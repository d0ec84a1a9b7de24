import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely'
import { entities as registeredEntities, reports as registeredReports } from '../schema'
import type { Entity, Fields, Report } from '../schema/kit'
import { assembleApp, type AppOptions } from './app'
import type { Database } from './db/types'

/**
 * The registry and the modules checked without a database (Django's `manage.py check`):
 * everything the start-up refuses before it serves — the registry's problems, all named at
 * once, and declarations no module completes (an action without its handler, a report
 * without its query, a posted document without its postings, a bespoke route nobody
 * registers) — by assembling the app on a database that is never there.
 */
export async function checkApp(
  registry: { entities?: readonly Entity<string, Fields>[]; reports?: readonly Report[]; modules?: AppOptions['modules'] } = {},
): Promise<{ entities: number; reports: number; routes: number }> {
  const entities = registry.entities ?? registeredEntities
  const reports = registry.reports ?? registeredReports
  // Nothing is written: the media folder is only named.
  const mediaDir = mkdtempSync(join(tmpdir(), 'check-'))
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  })
  try {
    const { app } = await assembleApp({ db, entities, reports, modules: registry.modules, jwtSecret: 'check', mediaDir })
    await app.ready()
    const routes = app.routeTable.length
    await app.close()
    return { entities: entities.length, reports: reports.length, routes }
  } finally {
    await db.destroy()
    rmSync(mediaDir, { recursive: true, force: true })
  }
}
