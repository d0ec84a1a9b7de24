import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataDirLockedError, demoJwtSecret, lockDataDir } from '../../../server/db/data-dir'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'datadir-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('the data directory lock', () => {
  it('is taken by writing this process id, and given back on release', () => {
    const release = lockDataDir(dir)
    expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid))
    release()
    expect(existsSync(join(dir, 'server.lock'))).toBe(false)
  })

  it('refuses a second server while the holder is alive, naming the directory and the pid', () => {
    // The parent process (vitest's runner) is alive and is not us: it stands for another server.
    writeFileSync(join(dir, 'server.lock'), String(process.ppid))
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by another server \\(pid ${process.ppid}\\)`))
    expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(String(process.ppid))
  })

  it('takes over the lock of a process that is gone', () => {
    writeFileSync(join(dir, 'server.lock'), '2147483646')
    const release = lockDataDir(dir)
    expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid))
    release()
  })
})

describe('the demo JWT secret', () => {
  it('is generated once and kept in the data directory, so tokens survive a restart', () => {
    const first = demoJwtSecret(dir)
    expect(first.length).toBeGreaterThanOrEqual(32)
    expect(demoJwtSecret(dir)).toBe(first)
  })

  it('is a fresh random secret for an in-memory database', () => {
    expect(demoJwtSecret(undefined)).not.toBe(demoJwtSecret(undefined))
  })
})
