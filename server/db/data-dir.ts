import { mkdirSync, openSync, closeSync, readFileSync, writeFileSync, unlinkSync, existsSync, linkSync, renameSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join, resolve } from 'node:path'

/**
 * PGlite does not lock its directory and two writers on one directory silently lose
 * data, so the server holds a lock file; a second process refuses to start.
 */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError'
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function lockDataDir(dataDir: string): () => void {
  const dir = resolve(dataDir)
  mkdirSync(dir, { recursive: true })
  const lockFile = join(dir, 'server.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx')
      writeFileSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      const release = () => {
        if (released) return
        released = true
        try {
          if (readFileSync(lockFile, 'utf8') === String(process.pid)) unlinkSync(lockFile)
        } catch {
          /* already gone */
        }
      }
      process.once('exit', release)
      return release
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const pid = Number(readFileSync(lockFile, 'utf8'))
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by another server (pid ${pid}). ` +
            'Stop it first, or start this one with another DATA_DIR: two servers on one embedded database would lose data.',
        )
      }
      unlinkSync(lockFile) // stale lock of a process that is gone
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}`)
}

/** Demo mode keeps a generated JWT secret in the data directory so tokens survive restarts. */
export function demoJwtSecret(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(48).toString('base64url')
  const file = join(resolve(dataDir), 'jwt-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(resolve(dataDir), { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  // Servers sharing a data directory and starting at once: the first secret in place is
  // everyone's. Written aside and linked, a reader never finds the file half written.
  const aside = `${file}.${process.pid}.tmp`
  writeFileSync(aside, secret, { mode: 0o600 })
  try {
    linkSync(aside, file)
    return secret
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim()
    // A file system without hard links: moved into place, whole still.
    renameSync(aside, file)
    return secret
  } finally {
    rmSync(aside, { force: true })
  }
}

/** The pid of the running server that holds the data directory's lock, or null when none does. */
export function lockHolder(dataDir: string): number | null {
  const lockFile = join(resolve(dataDir), 'server.lock')
  if (!existsSync(lockFile)) return null
  const pid = Number(readFileSync(lockFile, 'utf8'))
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null
}
