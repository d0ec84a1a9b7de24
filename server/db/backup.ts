import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { basename, dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import * as tar from 'tar'

/**
 * Backups of the embedded database and its files: one `.tar.gz` holding `backup.json`
 * (what it is), `database.tar` (PGlite's own dump of its data directory, taken on the
 * server's one connection, so no transaction is half in it) and `media/` (the uploaded
 * files, when they live in DATA_DIR). PostgreSQL is backed up with its own tools
 * (README, "Backups"); object storage keeps its own versions.
 */
export const BACKUP_FORMAT = 1

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  created_at: z.string(),
  database: z.literal('pglite'),
  media: z.boolean(),
})
export type BackupManifest = z.infer<typeof manifestSchema>

export class BackupError extends Error {
  override name = 'BackupError'
}

/** Where `npm run backup` writes when not told: DATA_DIR/backups/backup-<time>.tar.gz. */
export function defaultBackupFile(dataDir: string, now = new Date()): string {
  return join(resolve(dataDir), 'backups', `backup-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`)
}

/** Links (or, across file systems, copies) every file of `from` into `to`: a backup of many pictures costs no copy. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [join(from, entry.name), join(to, entry.name)]
    if (entry.isDirectory()) linkTree(source, target)
    else if (entry.isFile()) {
      try {
        linkSync(source, target)
      } catch {
        copyFileSync(source, target)
      }
    }
  }
}

/**
 * Writes a backup: `dump` gives the database's data directory as a tar (connect.ts's
 * `dump`), `mediaDir` the files to include (left out when it does not exist).
 */
export async function writeBackup(input: { dump: () => Promise<Blob>; mediaDir: string | null; file: string; now?: Date }): Promise<{ file: string; bytes: number }> {
  const file = resolve(input.file)
  mkdirSync(dirname(file), { recursive: true })
  // Staged beside the result (same file system: the media are linked, and the rename is atomic).
  const stage = join(dirname(file), `.staging-${randomUUID()}`)
  mkdirSync(stage)
  try {
    const database = Buffer.from(await (await input.dump()).arrayBuffer())
    writeFileSync(join(stage, 'database.tar'), database)
    const hasMedia = input.mediaDir !== null && existsSync(input.mediaDir)
    if (hasMedia) linkTree(input.mediaDir!, join(stage, 'media'))
    const manifest: BackupManifest = { format: BACKUP_FORMAT, created_at: (input.now ?? new Date()).toISOString(), database: 'pglite', media: hasMedia }
    writeFileSync(join(stage, 'backup.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    const partial = `${file}.partial`
    await tar.c({ gzip: true, file: partial, cwd: stage, portable: true }, ['backup.json', 'database.tar', ...(hasMedia ? ['media'] : [])])
    renameSync(partial, file)
    return { file, bytes: statSync(file).size }
  } finally {
    rmSync(stage, { recursive: true, force: true })
  }
}

/** Unpacks and checks a backup into a fresh folder beside the data it will replace; the caller moves it in. */
export async function readBackup(file: string, workDir: string): Promise<{ dir: string; manifest: BackupManifest; database: Blob }> {
  if (!existsSync(file)) throw new BackupError(`No backup at ${file}.`)
  const dir = join(workDir, `.restore-${randomUUID()}`)
  mkdirSync(dir, { recursive: true })
  try {
    await tar.x({ file, cwd: dir, strict: true, filter: (path) => /^(backup\.json|database\.tar|media(\/.*)?)$/.test(path.replace(/^\.\//, '')) })
    const manifestFile = join(dir, 'backup.json')
    const parsed = existsSync(manifestFile) ? manifestSchema.safeParse(JSON.parse(readFileSync(manifestFile, 'utf8'))) : undefined
    if (!parsed?.success) throw new BackupError(`${basename(file)} is not a backup of this application (format ${BACKUP_FORMAT}).`)
    if (!existsSync(join(dir, 'database.tar'))) throw new BackupError(`${basename(file)} holds no database.`)
    return { dir, manifest: parsed.data, database: new Blob([readFileSync(join(dir, 'database.tar'))]) }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    if (e instanceof BackupError) throw e
    throw new BackupError(`${basename(file)} cannot be read as a backup: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/**
 * Puts a read backup in place of DATA_DIR's database and files. What was there is moved
 * aside to `DATA_DIR/before-restore-<time>/`, never deleted: a restore of the wrong file is
 * undone by moving it back. `load` writes the database tar into the (empty) database folder.
 */
export async function putInPlace(input: { dataDir: string; backup: { dir: string; manifest: BackupManifest; database: Blob }; load: (databaseDir: string, tarball: Blob) => Promise<void>; now?: Date }): Promise<{ previous: string }> {
  const dataDir = resolve(input.dataDir)
  const previous = join(dataDir, `before-restore-${(input.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`)
  mkdirSync(previous, { recursive: true })
  for (const name of ['pglite', 'media']) if (existsSync(join(dataDir, name))) renameSync(join(dataDir, name), join(previous, name))
  try {
    await input.load(join(dataDir, 'pglite'), input.backup.database)
    if (input.backup.manifest.media && existsSync(join(input.backup.dir, 'media'))) renameSync(join(input.backup.dir, 'media'), join(dataDir, 'media'))
  } catch (e) {
    // Nothing half-restored stays: what was there comes back.
    for (const name of ['pglite', 'media']) {
      rmSync(join(dataDir, name), { recursive: true, force: true })
      if (existsSync(join(previous, name))) renameSync(join(previous, name), join(dataDir, name))
    }
    rmSync(previous, { recursive: true, force: true })
    throw e
  } finally {
    rmSync(input.backup.dir, { recursive: true, force: true })
  }
  return { previous }
}
