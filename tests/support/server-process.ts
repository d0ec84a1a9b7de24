import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './postgres-cluster'

/**
 * The real server on a free port, serving the built app from dist/, on its own temp
 * data directory unless `DATA_DIR` or `DATABASE_URL` is given. Spawned as node + tsx
 * directly: killing an `npm start` wrapper would leave the server running (toolchain §3.1).
 */
export type RunningServer = { url: string; dataDir: string; stop: () => Promise<void> }

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const ownDir = env.DATA_DIR === undefined
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'server-'))
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 90_000)
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
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      if (ownDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
