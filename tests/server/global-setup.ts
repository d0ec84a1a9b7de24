import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { entities } from '../../schema'
import { PGlite } from '@electric-sql/pglite'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { connect, pgliteExtensions } from '../../server/db/connect'
import type { Db } from '../../server/db/types'
import { migrate } from '../../server/db/sync'
import type { PostgresInfo } from './helpers/databases'
import { postgresBinDir, startPostgres } from '../support/postgres-cluster'

/**
 * Runs once per `vitest run`: builds the migrated databases every test file copies.
 * - PGlite: an initdb'd blob (for migration tests) and a migrated blob, as tar files.
 * - PostgreSQL 15, when its binaries exist: one throwaway cluster in a temp dir on a free
 *   port with a migrated template database; each test file gets `CREATE DATABASE … TEMPLATE`.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
    pgliteEmptyTemplate: string
    postgres: PostgresInfo | null
  }
}

const TEMPLATE_DB = 'app_tpl'

/** One throwaway cluster (tests/support) with a migrated template database to copy from. */
async function startTemplateCluster(): Promise<{ info: PostgresInfo; stop: () => void }> {
  const cluster = await startPostgres({ settings: { max_connections: '200' } })
  try {
    const info: PostgresInfo = { host: cluster.host, port: cluster.port, user: cluster.user, template: TEMPLATE_DB }
    const admin = await connect({ kind: 'postgres', poolConfig: { host: info.host, port: info.port, user: info.user, database: 'postgres', max: 1 } })
    await sql`create database ${sql.id(TEMPLATE_DB)}`.execute(admin.db)
    await admin.close()
    const tpl = await connect({ kind: 'postgres', poolConfig: { host: info.host, port: info.port, user: info.user, database: TEMPLATE_DB, max: 1 } })
    await migrate(tpl.db, entities)
    // A template must have no open connection while databases are copied from it.
    await tpl.close()
    return { info, stop: cluster.stop }
  } catch (e) {
    cluster.stop()
    throw e
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-tpl-'))
  const emptyFile = join(dir, 'empty.tar')
  const migratedFile = join(dir, 'migrated.tar')
  // One initdb: dump the fresh cluster, migrate it, dump again.
  const pglite = await PGlite.create({ extensions: pgliteExtensions })
  const write = async (file: string) => writeFileSync(file, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()))
  await write(emptyFile)
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...createPgConfig(pglite), max: 1 }) }) })
  await migrate(db, entities)
  await db.destroy()
  await write(migratedFile)
  await pglite.close()
  const removeTemplates = () => rmSync(dir, { recursive: true, force: true })
  process.once('exit', removeTemplates)
  project.provide('pgliteTemplate', migratedFile)
  project.provide('pgliteEmptyTemplate', emptyFile)

  let stopPostgres = () => {}
  if (postgresBinDir()) {
    const pg = await startTemplateCluster()
    let isStopped = false
    stopPostgres = () => {
      if (isStopped) return
      isStopped = true
      pg.stop()
    }
    // An interrupted run (Ctrl-C, a crash) must not leave the cluster running either.
    process.once('exit', stopPostgres)
    project.provide('postgres', pg.info)
  } else {
    console.warn(
      '\n[server tests] PostgreSQL binaries not found (/usr/lib/postgresql/*/bin/initdb): ' +
        'the PostgreSQL runs are SKIPPED and only PGlite is tested. Install postgresql-15 to run them.\n',
    )
    project.provide('postgres', null)
  }
  return async () => {
    stopPostgres()
    removeTemplates()
  }
}
