import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { freePort } from '../tests/support/postgres-cluster'

/**
 * The real server, spawned as tests/support/server-process.ts does (node + tsx on
 * server/main.ts, never an npm wrapper), but exposing the child's pid so that the bench
 * can read its memory. `nodeArgs` go to node (V8 flags); `preload` adds `--import <module>` after tsx (the PGlite
 * settings sweep uses it to override the database's options).
 */
export type BenchServer = {
  url: string
  pid: number
  /** Whether the process is still running, and the tail of what it printed. */
  state: () => string
  /** Whether something other than `stop()` signalled or ended the server (another job on the machine, say). */
  interrupted: () => boolean
  stop: () => Promise<void>
}

export async function spawnServer(env: Record<string, string>, options: { preload?: string; nodeArgs?: string[] } = {}): Promise<BenchServer> {
  const port = await freePort()
  const args = [...(options.nodeArgs ?? []), '--import', 'tsx', ...(options.preload ? ['--import', options.preload] : []), 'server/main.ts']
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'development', ...env },
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
    pid: child.pid!,
    interrupted: () => !stopping && (child.exitCode !== null || child.signalCode !== null || /shutting down/.test(output)),
    state: () => `${child.exitCode === null && child.signalCode === null ? 'running' : `exited (${child.exitCode ?? child.signalCode})`}; its output ends:\n${output.slice(-2000)}`,
    stop: async () => {
      stopping = true
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status), or NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Number(kb) / 1024 : NaN
  } catch {
    return NaN
  }
}

/** Samples a process's RSS every `everyMs` until stopped; answers the peak (MB). */
export function rssSampler(pid: number, everyMs = 100): { stop: () => number } {
  let peak = rssMb(pid) || 0
  const timer = setInterval(() => {
    const now = rssMb(pid)
    if (now > peak) peak = now
  }, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      const now = rssMb(pid)
      return now > peak ? now : peak
    },
  }
}
