import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe } from 'vitest'
import { buildApp, defaultModules } from '../../../server/app'
import { hashPassword } from '../../../server/auth/passwords'
import { signToken } from '../../../server/auth/tokens'
import { connect, type Connection } from '../../../server/db/connect'
import type { Db } from '../../../server/db/types'
import { ADMIN, injectCaller, JWT_SECRET, type TestApp } from './app'
import { databaseKinds, freshDatabase, isAvailable, postgresInfo, type DatabaseKind } from './databases'

/**
 * Two app servers on one database, as two servers behind a load balancer are: on PostgreSQL
 * each has a pool of its own (so nothing of one process's memory — caches, counters — is
 * shared but what the database holds); PGlite belongs to one process, so there both apps
 * share its one connection, as two apps of one process would.
 */
export type Server = { app: FastifyInstance; db: Db; call: TestApp['call'] }
export type TwoServers = { kind: DatabaseKind; a: Server; b: Server; adminId: number; createUser: TestApp['createUser'] }

async function insertUser(db: Db, user: { email: string; password?: string; isAdmin?: boolean }): Promise<number> {
  const r = await sql<{ id: number }>`
    insert into "user" (first_name, last_name, username, email, password, is_admin, is_active)
    values ('Test', 'User', ${user.email.split('@')[0]}, ${user.email}, ${await hashPassword(user.password ?? 'password123')}, ${user.isAdmin ?? false}, true)
    returning id`.execute(db)
  return r.rows[0]!.id
}

async function server(db: Db, mediaDir: string, adminId: number): Promise<Server> {
  const app = await buildApp({ db, jwtSecret: JWT_SECRET, mediaDir, modules: defaultModules() })
  await app.ready()
  const adminToken = await signToken(JWT_SECRET, adminId)
  const call = injectCaller(app, async () => adminToken)
  return { app, db, call }
}

/** Builds both servers (beforeAll) and closes them (afterAll); the handle is usable inside tests. */
export function useTwoServers(kind: DatabaseKind): { readonly current: TwoServers } {
  let current: TwoServers | undefined
  let first: Connection | undefined
  let second: Connection | undefined
  let mediaDir: string | undefined
  beforeAll(async () => {
    first = await freshDatabase(kind)
    const db = first.db
    if (kind === 'postgres') {
      const info = postgresInfo()!
      const name = (await sql<{ name: string }>`select current_database() as name`.execute(db)).rows[0]!.name
      second = await connect({ kind: 'postgres', poolConfig: { host: info.host, port: info.port, user: info.user, database: name, max: 4 } })
    }
    const adminId = await insertUser(db, { ...ADMIN, isAdmin: true })
    mediaDir = mkdtempSync(join(tmpdir(), 'media-'))
    const a = await server(db, mediaDir, adminId)
    const b = await server(second?.db ?? db, mediaDir, adminId)
    current = { kind, a, b, adminId, createUser: (user) => insertUser(db, user) }
  })
  afterAll(async () => {
    await current?.a.app.close()
    await current?.b.app.close()
    // The second pool first: the first connection's close drops the database.
    await second?.close()
    await first?.close()
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true })
  })
  return {
    get current() {
      if (!current) throw new Error('servers not built yet')
      return current
    },
  }
}

/** The suite on two servers, on PGlite and on PostgreSQL (skipped, with global-setup's notice, when absent). */
export function describeOnTwoServers(name: string, suite: (s: { readonly current: TwoServers }, kind: DatabaseKind) => void): void {
  for (const kind of databaseKinds) {
    describe.skipIf(!isAvailable(kind))(`${name} [${kind}]`, () => suite(useTwoServers(kind), kind))
  }
}
