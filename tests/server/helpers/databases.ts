import { readFileSync } from 'node:fs'
import { sql } from 'kysely'
import { inject } from 'vitest'
import { connect, type Connection } from '../../../server/db/connect'

/** Where global-setup's throwaway PostgreSQL cluster listens, and its migrated template. */
export type PostgresInfo = { host: string; port: number; user: string; template: string }

export type DatabaseKind = 'pglite' | 'postgres'
export const databaseKinds: readonly DatabaseKind[] = ['pglite', 'postgres']

export const postgresInfo = (): PostgresInfo | null => inject('postgres')
export const isAvailable = (kind: DatabaseKind) => kind === 'pglite' || postgresInfo() !== null

let counter = 0

/**
 * Drops a PostgreSQL database once the last backend of a closed pool (or a stopped server)
 * has gone: those take a moment, and forcing the drop at once would kill a backend mid-goodbye
 * and surface as an unhandled FATAL on its client.
 */
export async function dropDatabaseWhenFree(admin: Connection['db'], name: string, intervalMs = 50): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await sql`drop database if exists ${sql.id(name)}`.execute(admin)
      return
    } catch (e) {
      if (attempt >= 40) throw e
      await new Promise((r) => setTimeout(r, intervalMs))
    }
  }
}

/**
 * A database of this test file's own: PGlite loaded from the template blob, or a PostgreSQL
 * database copied from the template (`empty` gives one never migrated, for migration tests).
 */
export async function freshDatabase(kind: DatabaseKind, options: { empty?: boolean } = {}): Promise<Connection> {
  if (kind === 'pglite') {
    const file = options.empty ? inject('pgliteEmptyTemplate') : inject('pgliteTemplate')
    return connect({ kind: 'pglite', loadDataDir: new Blob([readFileSync(file)]) })
  }
  const info = postgresInfo()
  if (!info) throw new Error('PostgreSQL is not available in this run')
  const name = `test_${process.pid}_${++counter}`
  const server = { host: info.host, port: info.port, user: info.user }
  const admin = await connect({ kind: 'postgres', poolConfig: { ...server, database: 'postgres', max: 1 } })
  try {
    const template = options.empty ? 'template1' : info.template
    await sql`create database ${sql.id(name)} template ${sql.id(template)}`.execute(admin.db)
  } finally {
    await admin.close()
  }
  const connection = await connect({ kind: 'postgres', poolConfig: { ...server, database: name, max: 4 } })
  return {
    ...connection,
    close: async () => {
      await connection.close()
      const dropper = await connect({ kind: 'postgres', poolConfig: { ...server, database: 'postgres', max: 1 } })
      try {
        await dropDatabaseWhenFree(dropper.db, name)
      } finally {
        await dropper.close()
      }
    },
  }
}
