import { join, resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { entities as registeredEntities, reports as registeredReports } from '../schema'
import type { Entity, Fields, Report } from '../schema/kit'
import { assertRegistry, buildApp } from './app'
import type { Config } from './config'
import { connect, type Connection } from './db/connect'
import { demoJwtSecret, lockDataDir } from './db/data-dir'
import { seed } from './demo/seed'
import { migrate } from './db/sync'
import { setUploadQuota } from './engine/uploads'
import { startMailSender } from './mail/sender'
import { mailTransport } from './mail/transport'
import { withPublicRead } from './engine/access'
import { withRefsAsIds } from './engine/refs-as-ids'

export type Started = { app: FastifyInstance; address: string; stop: () => Promise<void> }

/**
 * Start-up, in the order that keeps a mistake harmless: the registry's check (nothing is
 * opened while it fails), the data-dir lock, the database, migrations, the app (roles,
 * permissions, menu), the seed, HTTP.
 */
export async function start(config: Config, registry: { entities: readonly Entity<string, Fields>[]; reports: readonly Report[] } = { entities: registeredEntities, reports: registeredReports }): Promise<Started> {
  assertRegistry(registry.entities, registry.reports)
  const dataDir = resolve(config.DATA_DIR)
  const release = config.database.kind === 'pglite' && config.database.dataDir ? lockDataDir(dataDir) : () => {}
  let connection: Connection | undefined
  try {
    connection = await connect(
      config.database.kind === 'postgres'
        ? { kind: 'postgres', url: config.database.url }
        : { kind: 'pglite', dataDir: config.database.dataDir ? join(dataDir, 'pglite') : undefined },
    )
    const { applied, notices } = await migrate(connection.db, registry.entities)
    for (const n of notices) console.warn(`migrate: ${n}`)
    if (applied.length > 0) console.log(`migrate: applied ${applied.length} step(s)`)

    const jwtSecret = config.JWT_SECRET ?? demoJwtSecret(config.database.kind === 'pglite' ? config.database.dataDir && dataDir : dataDir)
    const app = await buildApp({
      db: connection.db,
      entities: withPublicRead(withRefsAsIds(registry.entities, config.LIST_REFS_AS_IDS), config.PUBLIC_READ),
      reports: registry.reports,
      jwtSecret,
      mediaDir: join(dataDir, 'media'),
      distDir: resolve('dist'),
      corsOrigins: config.CORS_ORIGINS,
      isDemo: config.isDemo,
      logger: config.NODE_ENV === 'production',
    })
    // After the app: its start-up creates the permissions and built-in roles the seed assigns.
    const seeded = await seed(connection.db, { isDemo: config.isDemo, adminEmail: config.ADMIN_EMAIL, adminPassword: config.ADMIN_PASSWORD, hooks: app.engine.hooks })
    if (seeded !== 'none') console.log(`seed: ${seeded} data created`)
    setUploadQuota(join(dataDir, 'media'), config.UPLOAD_QUOTA_MB * 1024 * 1024)
    // Mail queued in the outbox goes out after its transaction commits: by SMTP, or as files.
    const mail = startMailSender({ db: connection.db, transport: mailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, mailDir: join(dataDir, 'mail') }) })
    const address = await app.listen({ port: config.PORT, host: config.HOST }).catch(async (e: unknown) => {
      await mail.stop()
      throw e
    })
    const opened = connection
    return {
      app,
      address,
      stop: async () => {
        await mail.stop()
        await app.close()
        await opened.close()
        release()
      },
    }
  } catch (e) {
    await connection?.close()
    release()
    throw e
  }
}
