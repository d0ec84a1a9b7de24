import { resolve } from 'node:path'
import { ConfigError, loadConfig } from '../server/config'
import { BackupError, putInPlace, readBackup } from '../server/db/backup'
import { loadPglite } from '../server/db/connect'
import { lockDataDir, lockHolder } from '../server/db/data-dir'

/**
 * `npm run restore <file>`: puts a backup of `npm run backup` in place of DATA_DIR's
 * database and files, with the server stopped. What was there is kept aside in
 * DATA_DIR/before-restore-<time>/ (never deleted). PostgreSQL: pg_restore (README, "Backups").
 */
async function main(): Promise<void> {
  const file = process.argv[2]
  if (!file) throw new BackupError('Which backup? npm run restore <file.tar.gz>')
  const config = loadConfig()
  if (config.database.kind === 'postgres') throw new ConfigError('DATABASE_URL is set: restore PostgreSQL with pg_restore (README, "Backups").')
  if (!config.database.dataDir) throw new ConfigError('The database lives in memory (DATABASE_URL=memory://): there is nothing to restore into.')
  const dataDir = resolve(config.DATA_DIR)
  const running = lockHolder(dataDir)
  if (running !== null) throw new BackupError(`The server (pid ${running}) is running on ${dataDir}: stop it first, then restore.`)
  const release = lockDataDir(dataDir)
  try {
    const backup = await readBackup(resolve(file), dataDir)
    const { previous } = await putInPlace({ dataDir, backup, load: loadPglite })
    console.log(`restore: ${resolve(file)} (taken ${backup.manifest.created_at}) is in place in ${dataDir}; what was there is kept in ${previous}`)
  } finally {
    release()
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error && ['ConfigError', 'BackupError', 'DataDirLockedError'].includes(e.name) ? e.message : e)
  process.exit(1)
})
