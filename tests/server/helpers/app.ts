import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe } from 'vitest'
import type { Entity, Fields, Report } from '../../../schema/kit'
import { buildApp, defaultModules } from '../../../server/app'
import type { DomainModule } from '../../../server/engine/modules'
import { hashPassword } from '../../../server/auth/passwords'
import { signToken } from '../../../server/auth/tokens'
import { migrate } from '../../../server/db/sync'
import type { Db } from '../../../server/db/types'
import { bindMediaStorage, type StorageSettings } from '../../../server/storage'
import { databaseKinds, freshDatabase, isAvailable, type DatabaseKind } from './databases'

export const JWT_SECRET = 'test-secret-of-at-least-thirty-two-characters!'
export const ADMIN = { email: 'admin@example.com', password: 'admin123' } as const

// The body is whatever JSON the route answered: its shape is what each test asserts, so it
// is left open here rather than cast in every one of two thousand assertions.
export type Reply = { status: number; body: any; headers: Record<string, unknown>; raw: string }

/** Calls an app in process as a signed-in caller (the token given) unless `asAnonymous`, the body parsed when it is JSON. */
export function injectCaller(app: FastifyInstance, token: () => Promise<string>): TestApp['call'] {
  return async ({ asAnonymous, ...options }) => {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) }
    if (!asAnonymous && headers.authorization === undefined) headers.authorization = `Bearer ${await token()}`
    return replyOf(await app.inject({ ...options, headers }))
  }
}

/** An injected answer as the tests read it: its body parsed when it is JSON, kept as text otherwise. */
export function replyOf(res: { statusCode: number; body: string; headers: Reply['headers'] }): Reply {
  let body: unknown
  try {
    body = res.body === '' ? undefined : JSON.parse(res.body)
  } catch {
    body = res.body
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res.body }
}

export type TestApp = {
  kind: DatabaseKind
  app: FastifyInstance
  db: Db
  adminId: number
  mediaDir: string
  /** A valid access token of the seeded admin. */
  token: () => Promise<string>
  /** Injects a request as the admin (unless `headers.authorization` is given) and parses JSON. */
  call: (options: InjectOptions & { asAnonymous?: boolean }) => Promise<Reply>
  /** Creates a user and returns its id (non-admin by default). */
  createUser: (user: { email: string; password?: string; isAdmin?: boolean }) => Promise<number>
  close: () => Promise<void>
}

/**
 * `entities`, `reports`: build the app (and migrate the database) with this registry instead of
 * the real one; `modules`: domain modules besides the app's (a test's hooks, actions, report queries).
 */
export type TestAppOptions = {
  entities?: readonly Entity<string, Fields>[]
  reports?: readonly Report[]
  modules?: readonly DomainModule[]
  distDir?: string
  requestTimeoutMs?: number
  /** Where the app keeps its files (as `config.storage`): an S3 bucket, or by default the test's media folder. */
  storage?: StorageSettings
}

async function insertUser(db: Db, user: { email: string; password?: string; isAdmin?: boolean }): Promise<number> {
  const password = await hashPassword(user.password ?? 'password123')
  const r = await sql<{ id: number }>`
    insert into "user" (first_name, last_name, username, email, password, is_admin, is_active)
    values ('Test', 'User', ${user.email.split('@')[0]}, ${user.email}, ${password}, ${user.isAdmin ?? false}, true)
    returning id`.execute(db)
  return r.rows[0]!.id
}

/** The app on a fresh database of the given kind, with an admin user. */
export async function testApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const connection = await freshDatabase(kind)
  const db = connection.db
  if (options.entities) await migrate(db, options.entities)
  const adminId = await insertUser(db, { ...ADMIN, isAdmin: true })
  const mediaDir = mkdtempSync(join(tmpdir(), 'media-'))
  if (options.storage) bindMediaStorage(mediaDir, options.storage)
  const app = await buildApp({ db, jwtSecret: JWT_SECRET, mediaDir, entities: options.entities, reports: options.reports, distDir: options.distDir, requestTimeoutMs: options.requestTimeoutMs, modules: [...defaultModules(), ...(options.modules ?? [])] })
  await app.ready()
  let token: string | undefined
  const getToken = async () => (token ??= await signToken(JWT_SECRET, adminId))
  const call = injectCaller(app, getToken)
  return {
    kind,
    app,
    db,
    adminId,
    mediaDir,
    token: getToken,
    call,
    createUser: (user) => insertUser(db, user),
    close: async () => {
      await app.close()
      await connection.close()
      rmSync(mediaDir, { recursive: true, force: true })
    },
  }
}

/**
 * Registers beforeAll/afterAll that build and close a test app; the returned handle is
 * usable inside tests. Suites are declared before the app exists, hence the getter.
 */
export function useTestApp(kind: DatabaseKind, options: TestAppOptions = {}): { readonly current: TestApp } {
  let current: TestApp | undefined
  beforeAll(async () => {
    current = await testApp(kind, options)
  })
  afterAll(async () => {
    await current?.close()
  })
  return {
    get current() {
      if (!current) throw new Error('test app not built yet')
      return current
    },
  }
}

/** Runs the same suite on PGlite and on PostgreSQL (skipped, with global-setup's notice, when absent). */
export function describeEachDatabase(
  name: string,
  suite: (t: { readonly current: TestApp }, kind: DatabaseKind) => void,
  options: TestAppOptions = {},
): void {
  for (const kind of databaseKinds) {
    describe.skipIf(!isAvailable(kind))(`${name} [${kind}]`, () => {
      const t = useTestApp(kind, options)
      suite(t, kind)
    })
  }
}

/**
 * A suite whose subject does not depend on the database (the contract's shapes, validation,
 * permissions, hostile input answered without a 500) run on one: PGlite, the default the app
 * ships with. What a database can change (transactions, locks, SQL, counts) stays on both.
 */
export function describeOnOneDatabase(name: string, suite: (t: { readonly current: TestApp }, kind: DatabaseKind) => void, options: TestAppOptions = {}): void {
  describe(`${name} [pglite]`, () => {
    const t = useTestApp('pglite', options)
    suite(t, 'pglite')
  })
}

/** A caller with a role holding exactly these permissions, signed in: their requests go through `call`. */
/** A caller as a new user whose role holds `permissions`; `id`: that user's. */
export type Caller = ((o: Parameters<TestApp['call']>[0]) => Promise<Reply>) & { readonly id: number }

export async function callerWith(t: TestApp, permissions: readonly string[]): Promise<Caller> {
  const roleName = `R${Math.floor(Math.random() * 1e9)}`
  const role = await sql<{ id: number }>`insert into role (name) values (${roleName}) returning id`.execute(t.db)
  await sql`insert into role_permissions (owner_id, target_id) select ${role.rows[0]!.id}, id from permission where name = any(${[...permissions]})`.execute(t.db)
  const id = await t.createUser({ email: `${roleName.toLowerCase()}@example.com` })
  await sql`update "user" set role = ${role.rows[0]!.id} where id = ${id}`.execute(t.db)
  const token = await signToken(JWT_SECRET, id)
  return Object.assign((o: Parameters<TestApp['call']>[0]) => t.call({ ...o, headers: { authorization: `Bearer ${token}`, ...(o.headers as Record<string, string>) } }), { id })
}
