import { join, resolve } from 'node:path'
import { entities } from '../schema'
import { buildApp } from './app'
import { ConfigError, loadConfig } from './config'
import { connect } from './db/connect'
import { demoJwtSecret, lockDataDir } from './db/data-dir'
import { seed } from './db/demo/seed'
import { migrate } from './db/sync'

/** Start-up: configuration, data-dir lock, database, migrations, app (roles, permissions, menu), seed, HTTP. */
async function main(): Promise<void> {
  const config = loadConfig()
  const dataDir = resolve(config.DATA_DIR)
  const release = config.database.kind === 'pglite' && config.database.dataDir ? lockDataDir(dataDir) : () => {}
  const connection = await connect(
    config.database.kind === 'postgres'
      ? { kind: 'postgres', url: config.database.url }
      : { kind: 'pglite', dataDir: config.database.dataDir ? join(dataDir, 'pglite') : undefined },
  )
  const { applied, notices } = await migrate(connection.db, entities)
  for (const n of notices) console.warn(`migrate: ${n}`)
  if (applied.length > 0) console.log(`migrate: applied ${applied.length} step(s)`)

  const jwtSecret = config.JWT_SECRET ?? demoJwtSecret(config.database.kind === 'pglite' ? config.database.dataDir && dataDir : dataDir)
  const app = await buildApp({
    db: connection.db,
    jwtSecret,
    mediaDir: join(dataDir, 'media'),
    distDir: resolve('dist'),
    corsOrigins: config.CORS_ORIGINS,
    isDemo: config.isDemo,
    logger: config.NODE_ENV === 'production',
  })
  // After the app: its start-up creates the permissions and built-in roles the seed assigns.
  const seeded = await seed(connection.db, { isDemo: config.isDemo, adminEmail: config.ADMIN_EMAIL, adminPassword: config.ADMIN_PASSWORD })
  if (seeded !== 'none') console.log(`seed: ${seeded} data created`)
  const address = await app.listen({ port: config.PORT, host: config.HOST })
  console.log(`Back-office ready at ${address.replace('0.0.0.0', 'localhost')} (${connection.kind}${config.isDemo ? ', demo mode' : ''})`)

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    console.log(`${signal}: shutting down`)
    await app.close()
    await connection.close()
    release()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

main().catch((e: unknown) => {
  // Configuration, registry and migration problems carry their own explanation.
  const known = e instanceof ConfigError || (e instanceof Error && ['RegistryError', 'MigrationRefusedError', 'DataDirLockedError'].includes(e.name))
  console.error(known ? (e as Error).message : e)
  process.exit(1)
})
