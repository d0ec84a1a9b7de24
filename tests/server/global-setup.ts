import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { entities } from '../../schema'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { connect } from '../../server/db/connect'
import type { Db } from '../../server/db/types'
import { migrate } from '../../server/db/sync'
import type { PostgresInfo } from './helpers/databases'

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

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : undefined
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

const isRoot = process.getuid?.() === 0
/** PostgreSQL refuses to run as root: run its tools as `postgres` then. */
const asPostgres = (bin: string, args: string[]) =>
  isRoot
    ? execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' })
    : execFileSync(bin, args, { stdio: 'pipe' })

async function startPostgres(bin: string): Promise<{ info: PostgresInfo; stop: () => void }> {
  const root = mkdtempSync(join(tmpdir(), 'pgtest-'))
  const socketDir = join(root, 'sock')
  mkdirSync(socketDir)
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', root])
  const data = join(root, 'data')
  const stop = () => {
    try {
      asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } catch {
      /* never started */
    }
    rmSync(root, { recursive: true, force: true })
  }
  try {
    asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
    const port = await freePort()
    const options = `-c listen_addresses='' -k ${socketDir} -p ${port} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
    asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', join(root, 'log'), '-w', '-o', options, 'start'])
    const info: PostgresInfo = { host: socketDir, port, user: 'postgres', template: TEMPLATE_DB }
    const admin = await connect({ kind: 'postgres', poolConfig: { host: info.host, port, user: info.user, database: 'postgres', max: 1 } })
    await sql`create database ${sql.id(TEMPLATE_DB)}`.execute(admin.db)
    await admin.close()
    const tpl = await connect({ kind: 'postgres', poolConfig: { host: info.host, port, user: info.user, database: TEMPLATE_DB, max: 1 } })
    await migrate(tpl.db, entities)
    // A template must have no open connection while databases are copied from it.
    await tpl.close()
    return { info, stop }
  } catch (e) {
    stop()
    throw e
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-tpl-'))
  const emptyFile = join(dir, 'empty.tar')
  const migratedFile = join(dir, 'migrated.tar')
  // One initdb: dump the fresh cluster, migrate it, dump again.
  const pglite = await PGlite.create({ extensions: { pg_trgm } })
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

  const bin = postgresBin()
  let stopPostgres = () => {}
  if (bin) {
    const pg = await startPostgres(bin)
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
