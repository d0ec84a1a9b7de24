import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A throwaway PostgreSQL cluster in a temp directory on a free port, from the Debian
 * binaries under /usr/lib/postgresql/<major>/bin (toolchain §4.3). Used by the server
 * tests and the benchmark; absent binaries mean the caller skips PostgreSQL.
 */
export type Cluster = { host: string; port: number; user: string; stop: () => void }

export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const majors = readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
  return majors[0] ? join(root, majors[0], 'bin') : undefined
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

function postgresUid(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    return { uid, gid }
  } catch {
    return undefined
  }
}

export async function startPostgres(options: { settings?: Record<string, string> } = {}): Promise<Cluster> {
  const bin = postgresBinDir()
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql/*/bin')
  const root = mkdtempSync(join(tmpdir(), 'pgtest-'))
  const sock = join(root, 'sock')
  mkdirSync(sock)
  // PostgreSQL refuses to run as root: run it as the postgres user when we are root.
  const asRoot = process.getuid?.() === 0
  const owner = asRoot ? postgresUid() : undefined
  if (asRoot && !owner) throw new Error('running as root but there is no postgres user to run PostgreSQL as')
  if (owner) {
    chownSync(root, owner.uid, owner.gid)
    chownSync(sock, owner.uid, owner.gid)
  }
  const run = (cmd: string, args: string[]) =>
    owner ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, cmd), args, { stdio: 'pipe' })
  const data = join(root, 'data')
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
  const port = await freePort()
  const settings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', ...options.settings }
  const opts = [`-c listen_addresses='127.0.0.1'`, `-k ${sock}`, `-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ')
  run('pg_ctl', ['-D', data, '-l', join(root, 'log'), '-w', '-o', opts, 'start'])
  let stopped = false
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    stop: () => {
      if (stopped) return
      stopped = true
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
  }
}
