import { join, resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { entities as registeredEntities, reports as registeredReports } from '../schema'
import type { Entity, Fields, Report } from '../schema/kit'
import { assembleApp, assertRegistry } from './app'
import { ConfigError, type Config } from './config'
import { connect, type Connection } from './db/connect'
import { serveBackupRequests } from './db/backup-requests'
import { markDraining } from './http/readiness'
import { demoJwtSecret, lockDataDir } from './db/data-dir'
import { seed } from './demo/seed'
import { migrate } from './db/sync'
import { withStartUpLock } from './db/startup-lock'
import { setUploadQuota } from './engine/uploads'
import { bindMediaStorage, releaseMediaStorage } from './storage'
import { startMailSender } from './mail/sender'
import { mailTransport } from './mail/transport'
import { withPublicRead } from './engine/access'
import { withRefsAsIds } from './engine/refs-as-ids'

export type Started = { app: FastifyInstance; address: string; stop: () => Promise<void> }

/**
 * Start-up, in the order that keeps a mistake harmless: the registry's check (nothing is
 * opened while it fails), the data-dir lock, the database, the app's routes, then under the
 * start-up lock (several servers on one PostgreSQL take turns) migrations, the modules'
 * start-up (roles, permissions, menu, their seeds) and the seed, then HTTP.
 */
export async function start(config: Config, registry: { entities: readonly Entity<string, Fields>[]; reports: readonly Report[] } = { entities: registeredEntities, reports: registeredReports }): Promise<Started> {
  assertRegistry(registry.entities, registry.reports)
  const dataDir = resolve(config.DATA_DIR)
  const release = config.database.kind === 'pglite' && config.database.dataDir ? lockDataDir(dataDir) : () => {}
  let connection: Connection | undefined
  const mediaDir = join(dataDir, 'media')
  try {
    // Files in the S3 bucket when configured, else DATA_DIR/media — usable, or no start.
    const storage = bindMediaStorage(mediaDir, config.storage)
    await storage.check().catch((e: unknown) => {
      const variables = storage.kind === 's3' ? ' (S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)' : ' (DATA_DIR)'
      throw new ConfigError(`Files cannot be kept in ${storage.description}: ${e instanceof Error ? e.message : String(e)}. Check the configuration${variables}.`)
    })
    connection = await connect(
      config.database.kind === 'postgres'
        ? { kind: 'postgres', url: config.database.url }
        : { kind: 'pglite', dataDir: config.database.dataDir ? join(dataDir, 'pglite') : undefined },
    )
    const db = connection.db
    const jwtSecret = config.JWT_SECRET ?? demoJwtSecret(config.database.kind === 'pglite' ? config.database.dataDir && dataDir : dataDir)
    // Put together without touching the database: servers starting at once do this side by side.
    const { app, start: startApp } = await assembleApp({
      db,
      entities: withPublicRead(withRefsAsIds(registry.entities, config.LIST_REFS_AS_IDS), config.PUBLIC_READ),
      reports: registry.reports,
      jwtSecret,
      mediaDir,
      distDir: resolve('dist'),
      corsOrigins: config.CORS_ORIGINS,
      isDemo: config.isDemo,
      logger: config.NODE_ENV === 'production',
      trustProxy: config.TRUST_PROXY,
    })
    // Every write of the start-up under one lock: servers started at once on one PostgreSQL
    // take turns, and those after the first find the work done (a fraction of a second).
    await withStartUpLock(db, async () => {
      const { applied, notices } = await migrate(db, registry.entities)
      for (const n of notices) console.warn(`migrate: ${n}`)
      if (applied.length > 0) console.log(`migrate: applied ${applied.length} step(s)`)
      // The modules' start-up: permissions, built-in roles, menus, their seeds.
      await startApp()
      // After the modules: they create the permissions and built-in roles the seed assigns.
      const seeded = await seed(db, { isDemo: config.isDemo, adminEmail: config.ADMIN_EMAIL, adminPassword: config.ADMIN_PASSWORD, hooks: app.engine.hooks })
      if (seeded !== 'none') console.log(`seed: ${seeded} data created`)
    }).catch(async (e: unknown) => {
      // The start-up's failure is the message; closing is only tidying.
      await app.close().catch(() => {})
      throw e
    })
    setUploadQuota(mediaDir, config.UPLOAD_QUOTA_MB * 1024 * 1024)
    // Mail queued in the outbox goes out after its transaction commits: by SMTP, or as files.
    const mail = startMailSender({ db: connection.db, transport: mailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, mailDir: join(dataDir, 'mail') }), onAttempt: app.metrics.mailAttempt })
    const address = await app.listen({ port: config.PORT, host: config.HOST }).catch(async (e: unknown) => {
      await mail.stop()
      throw e
    })
    const opened = connection
    // `npm run backup` asks the running server for a copy of its embedded database (server/db/backup-requests.ts).
    const stopBackups = opened.dump && config.database.kind === 'pglite' && config.database.dataDir ? serveBackupRequests({ dataDir, dump: opened.dump, mediaDir }) : () => {}
    return {
      app,
      address,
      // A graceful stop: readiness answers 503 at once (a load balancer sends no more), new
      // connections are refused, the requests in flight finish, then the database closes.
      stop: async () => {
        markDraining(app)
        stopBackups()
        // Node closes the connections idle when the close begins; one whose request finishes
        // later would stay open for its keep-alive time (72 s) and hold the stop that long.
        const sweep = setInterval(() => app.server.closeIdleConnections(), 200)
        await app.close().finally(() => clearInterval(sweep))
        await mail.stop()
        await opened.close()
        release()
      },
    }
  } catch (e) {
    await connection?.close()
    await releaseMediaStorage(mediaDir)
    release()
    throw e
  }
}
