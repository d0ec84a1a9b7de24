import { readFileSync } from 'node:fs'

// What the bench reads of a server's memory (the server is the journeys' own: tests/support/server-process.ts).

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
