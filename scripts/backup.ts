import { join, resolve } from 'node:path'
import { ConfigError, loadConfig } from '../server/config'
import { defaultBackupFile, writeBackup } from '../server/db/backup'
import { requestBackup } from '../server/db/backup-requests'
import { connect } from '../server/db/connect'
import { lockDataDir, lockHolder } from '../server/db/data-dir'

/**
 * `npm run backup [file]`: the embedded database and its files in one `.tar.gz`
 * (DATA_DIR/backups/backup-<time>.tar.gz unless a file is named), consistent whether the
 * server runs (it is asked to write it: server/db/backup-requests.ts) or not (the database
 * is opened here, under the data directory's lock). PostgreSQL: pg_dump (README, "Backups").
 */
async function main(): Promise<void> {
  const config = loadConfig()
  if (config.database.kind === 'postgres') throw new ConfigError('DATABASE_URL is set: back up PostgreSQL with pg_dump (README, "Backups").')
  if (!config.database.dataDir) throw new ConfigError('The database lives in memory (DATABASE_URL=memory://): there is nothing to back up.')
  const dataDir = resolve(config.DATA_DIR)
  const file = resolve(process.argv[2] ?? defaultBackupFile(dataDir))
  const mediaDir = config.storage.kind === 's3' ? null : join(dataDir, 'media')
  const pid = lockHolder(dataDir)
  let written: { file: string; bytes: number }
  if (pid !== null) {
    console.log(`backup: asking the running server (pid ${pid})…`)
    written = await requestBackup({ dataDir, pid, file })
  } else {
    const release = lockDataDir(dataDir)
    try {
      const connection = await connect({ kind: 'pglite', dataDir: join(dataDir, 'pglite') })
      try {
        written = await writeBackup({ dump: connection.dump!, mediaDir, file })
      } finally {
        await connection.close()
      }
    } finally {
      release()
    }
  }
  console.log(`backup: ${written.file} (${(written.bytes / 1024 / 1024).toFixed(1)} MB)${mediaDir ? '' : ' — the files are in object storage, which keeps its own versions'}`)
}

main().catch((e: unknown) => {
  console.error(e instanceof Error && ['ConfigError', 'BackupError', 'DataDirLockedError'].includes(e.name) ? e.message : e)
  process.exit(1)
})
