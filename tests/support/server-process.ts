import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './postgres-cluster'

/**
 * The real server on a free port, serving the built app from dist/, on its own temp
 * data directory unless `DATA_DIR` is given. Spawned as node + tsx directly: killing an
 * `npm start` wrapper would leave the server running (toolchain §3.1). The journeys use it,
 * and the bench (which reads the child's memory by its pid).
 */
export type RunningServer = {
  url: string
  dataDir: string
  pid: number
  /** Whether the process is still running, and the tail of what it printed. */
  state: () => string
  /** Everything it printed so far (stdout and stderr, interleaved as they came). */
  output: () => string
  /** Whether something other than `stop()` signalled or ended the server (another job on the machine, say). */
  interrupted: () => boolean
  stop: () => Promise<void>
}

/** `nodeArgs` go to node (V8 flags); `preload` adds `--import <module>` after tsx (the bench's PGlite settings sweep). */
export type SpawnOptions = { preload?: string; nodeArgs?: readonly string[] }

export async function startServer(env: Record<string, string> = {}, options: SpawnOptions = {}): Promise<RunningServer> {
  const ownDir = env.DATA_DIR === undefined
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'server-'))
  // A run's journeys start from one seeded embedded database (tests/e2e/global-setup.ts), copied: seconds, not a seed each.
  const seeded = process.env.SEEDED_DATA_DIR
  if (ownDir && seeded && env.DATABASE_URL === undefined) cpSync(seeded, dataDir, { recursive: true, filter: (source) => !source.endsWith('server.lock') })
  const port = await freePort()
  const args = [...(options.nodeArgs ?? []), '--import', 'tsx', ...(options.preload ? ['--import', options.preload] : []), 'server/main.ts']
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let stopping = false
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 120_000)
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString()
      if (/ready at/.test(output)) {
        clearTimeout(timer)
        resolve(`http://127.0.0.1:${port}`)
      }
    })
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
  return {
    url,
    dataDir,
    pid: child.pid!,
    interrupted: () => !stopping && (child.exitCode !== null || child.signalCode !== null || /shutting down/.test(output)),
    output: () => output,
    state: () => `${child.exitCode === null && child.signalCode === null ? 'running' : `exited (${child.exitCode ?? child.signalCode})`}; its output ends:\n${output.slice(-2000)}`,
    stop: async () => {
      stopping = true
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      if (ownDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
