import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../support/postgres-cluster'

/**
 * The real server (`server/main.ts`) as a child process that a test may kill without warning,
 * as a power cut or the OOM killer would. It runs as node + tsx directly in its own process
 * group (`detached`), so `kill()` sends SIGKILL to the group and nothing of it is left: an
 * `npx` or `npm` wrapper killed alone would leave the server running (tests/support/server-process.ts).
 * The server started in production mode by default: no demo data, only ADMIN_EMAIL's admin.
 */
export type KillableServer = {
  url: string
  pid: number
  /** The tail of what the server printed, for failure messages. */
  output: () => string
  isRunning: () => boolean
  /** SIGKILL to the whole process group; resolves once the server process is gone. */
  kill: () => Promise<void>
  /** SIGTERM (the server's clean stop: its database closed); SIGKILL after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>
}

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const OUTPUT_LIMIT = 20_000

/** Servers of this process still running: killed if the test worker exits without stopping them. */
const running = new Set<number>()
let isExitHookSet = false
function killAllOnExit(): void {
  if (isExitHookSet) return
  isExitHookSet = true
  process.once('exit', () => {
    for (const pid of running) killGroup(pid)
  })
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    /* already gone */
  }
}

function isGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function startKillableServer(env: Record<string, string>, options: { startTimeoutMs?: number } = {}): Promise<KillableServer> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    detached: true,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const pid = child.pid
  if (pid === undefined) throw new Error('the server process could not be spawned')
  running.add(pid)
  killAllOnExit()
  let output = ''
  const append = (d: Buffer) => {
    output = (output + d.toString()).slice(-OUTPUT_LIMIT)
  }
  child.stdout.on('data', append)
  child.stderr.on('data', append)
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      running.delete(pid)
      resolve()
    }),
  )
  const isRunning = () => exit === undefined

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start in ${options.startTimeoutMs ?? 60_000} ms:\n${output}`)), options.startTimeoutMs ?? 60_000)
      const onData = () => {
        if (/ready at/.test(output)) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout.on('data', onData)
      void exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`the server exited (${exit?.code ?? exit?.signal}) before it was ready:\n${output}`))
      })
    })
  } catch (e) {
    killGroup(pid)
    await exited
    throw e
  }

  const kill = async () => {
    killGroup(pid)
    await exited
    // The group is gone too: nothing of the server outlives its kill.
    for (let i = 0; isGroupAlive(pid); i++) {
      if (i > 100) throw new Error(`process group ${pid} still alive after SIGKILL`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    output: () => output,
    isRunning,
    kill,
    stop: async (graceMs = 20_000) => {
      if (!isRunning()) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => killGroup(pid), graceMs)
      await exited
      clearTimeout(timer)
      if (exit?.signal === 'SIGKILL') throw new Error(`the server did not stop within ${graceMs} ms of SIGTERM; killed:\n${output.slice(-2000)}`)
    },
  }
}
