import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { BackupError, readBackup } from '../../server/db/backup'
import { connect } from '../../server/db/connect'
import { registry } from '../../schema'
import { postgresBinDir } from '../support/postgres-cluster'
import { testApp } from './helpers/app'
import { isAvailable, postgresInfo } from './helpers/databases'
import { ledgerUnder } from './helpers/ledgers'
import { startServer, type RunningServer } from '../support/server-process'

/**
 * `npm run backup` / `npm run restore` of the embedded database (issue 26): a backup taken
 * while the server runs (asked of it: it alone may read PGlite's files) restored after later
 * changes brings back the same rows, the same ledger balances and the same files; a restore
 * refuses while the server runs and keeps what it replaces; a backup is also taken with the
 * server stopped; a file that is not a backup is refused by name.
 */
const run = promisify(execFile)
const tsx = (script: string, args: string[], dataDir: string) =>
  run(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development' }, timeout: 120_000 })

const dataDir = mkdtempSync(join(tmpdir(), 'backup-'))
let server: RunningServer | undefined

afterAll(async () => {
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** What a restore must bring back, read from the stopped server's database. */
async function stateOf(dir: string) {
  const connection = await connect({ kind: 'pglite', dataDir: join(dir, 'pglite') })
  try {
    const balances = await sql<{ ledger: number; balance: string }>`
      select ledger, sum(debit_amount - credit_amount)::text as balance from account_log group by ledger order by ledger`.execute(connection.db)
    const cities = await sql<{ name: string }>`select name from city order by id`.execute(connection.db)
    return { balances: balances.rows, cities: cities.rows.map((r) => r.name) }
  } finally {
    await connection.close()
  }
}

const mediaFiles = (dir: string): string[] => (existsSync(join(dir, 'media')) ? readdirSync(join(dir, 'media'), { recursive: true }).map(String).sort() : [])

describe('backup and restore of the embedded database', () => {
  it('restores a backup taken while the server ran: the same rows, ledger balances and files', { timeout: 300_000 }, async () => {
    server = await startServer({ DATA_DIR: dataDir })
    const token = await fetch(`${server.url}/user/api/v1/user/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }),
    }).then(async (r) => ((await r.json()) as { access: string }).access)
    // A file among the uploads, to come back with the database.
    mkdirSync(join(dataDir, 'media', 'notes'), { recursive: true })
    writeFileSync(join(dataDir, 'media', 'notes', 'kept-by-the-backup.txt'), 'kept')

    const backupFile = join(dataDir, 'backups', 'while-running.tar.gz')
    const taken = await tsx('scripts/backup.ts', [backupFile], dataDir)
    expect(taken.stdout).toContain(`asking the running server (pid ${server.pid})`)
    expect(taken.stdout).toContain(`backup: ${backupFile}`)

    // A change after the backup, which the restore takes back.
    const countries = (await fetch(`${server.url}/country/api/v1/country/all/?size=1`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as { countries: Array<{ id: number }> }
    const created = await fetch(`${server.url}/city/api/v1/city/create/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After The Backup', country: countries.countries[0]!.id }),
    })
    expect(created.status).toBe(201)

    const refused = await tsx('scripts/restore.ts', [backupFile], dataDir).catch((e: { stderr: string; code: number }) => e)
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining(`The server (pid ${server.pid}) is running on ${dataDir}: stop it first, then restore.`) })

    const files = mediaFiles(dataDir)
    await server.stop()
    server = undefined
    const after = await stateOf(dataDir)
    expect(after.cities).toContain('After The Backup')
    expect(after.balances.length).toBeGreaterThan(0)

    const restored = await tsx('scripts/restore.ts', [backupFile], dataDir)
    expect(restored.stdout).toMatch(/restore: .* is in place in .*; what was there is kept in .*before-restore-/)
    const back = await stateOf(dataDir)
    expect(back.cities).toEqual(after.cities.filter((name) => name !== 'After The Backup'))
    // The demo's postings: no change after the backup touched a ledger.
    expect(back.balances).toEqual(after.balances)
    expect(mediaFiles(dataDir)).toEqual(files)
    expect(mediaFiles(dataDir)).toContain(join('notes', 'kept-by-the-backup.txt'))
    // What the restore replaced is kept, not deleted.
    expect(readdirSync(dataDir).some((name) => name.startsWith('before-restore-'))).toBe(true)

    // With the server stopped, the script opens the database itself.
    const offline = await tsx('scripts/backup.ts', [join(dataDir, 'backups', 'stopped.tar.gz')], dataDir)
    expect(offline.stdout).not.toContain('asking the running server')
    const read = await readBackup(join(dataDir, 'backups', 'stopped.tar.gz'), dataDir)
    expect(read.manifest).toMatchObject({ format: 1, database: 'pglite', media: true })
    rmSync(read.dir, { recursive: true, force: true })
  })

  it('refuses a file that is not a backup, by name, and leaves nothing behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'not-a-backup-'))
    try {
      writeFileSync(join(dir, 'notes.tar.gz'), 'not a tarball')
      await expect(readBackup(join(dir, 'notes.tar.gz'), dir)).rejects.toThrow(BackupError)
      await expect(readBackup(join(dir, 'missing.tar.gz'), dir)).rejects.toThrow('No backup at')
      expect(readdirSync(dir)).toEqual(['notes.tar.gz'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe.runIf(isAvailable('postgres'))('the documented pg_dump and pg_restore of PostgreSQL', () => {
  it('restores a dump into an empty database with the same rows and ledger balances', { timeout: 120_000 }, async () => {
    const t = await testApp('postgres')
    const info = postgresInfo()!
    const bin = postgresBinDir()!
    const dumpFile = join(mkdtempSync(join(tmpdir(), 'pgdump-')), 'backoffice.dump')
    const restoredName = `restored_${process.pid}`
    try {
      const landlord = await ledgerUnder(t.db, 'Backup Landlord', 'Sundry Creditors')
      const rent = await ledgerUnder(t.db, 'Backup Rent', 'Indirect Expenses')
      const posted = await t.call({
        method: 'POST',
        url: `${registry.journal.api.base}/create/`,
        payload: { journal_date: '2026-04-02', details: 'rent', items: [{ ledger: rent, debit_amount: '1250.75', credit_amount: '0' }, { ledger: landlord, debit_amount: '0', credit_amount: '1250.75' }] },
      })
      expect([posted.status, posted.body]).toEqual([201, expect.anything()])
      const stateOfDb = async (db: typeof t.db) => ({
        balances: (await sql<{ ledger: number; balance: string }>`select ledger, sum(debit_amount - credit_amount)::text as balance from account_log group by ledger order by ledger`.execute(db)).rows,
        users: (await sql<{ email: string }>`select email from "user" order by id`.execute(db)).rows,
        migrations: (await sql<{ version: number }>`select version from schema_migrations order by version`.execute(db)).rows,
      })
      const before = await stateOfDb(t.db)
      expect(before.balances).toContainEqual({ ledger: rent, balance: '1250.75' })

      const database = (await sql<{ name: string }>`select current_database() as name`.execute(t.db)).rows[0]!.name
      const server = ['--host', info.host, '--port', String(info.port), '--username', info.user]
      // The README's commands, as written there.
      await run(join(bin, 'pg_dump'), [...server, '--format=custom', `--file=${dumpFile}`, database])
      await run(join(bin, 'createdb'), [...server, restoredName])
      await run(join(bin, 'pg_restore'), [...server, '--clean', '--if-exists', '--no-owner', `--dbname=${restoredName}`, dumpFile])

      const restored = await connect({ kind: 'postgres', poolConfig: { host: info.host, port: info.port, user: info.user, database: restoredName, max: 1 } })
      try {
        expect(await stateOfDb(restored.db)).toEqual(before)
      } finally {
        await restored.close()
      }
    } finally {
      await t.close()
      await run(join(bin, 'dropdb'), ['--host', info.host, '--port', String(info.port), '--username', info.user, '--if-exists', restoredName]).catch(() => undefined)
      rmSync(dirname(dumpFile), { recursive: true, force: true })
    }
  })
})
