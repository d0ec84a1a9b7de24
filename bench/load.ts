import type { Case } from './dataset'
import type { RunningServer } from '../tests/support/server-process'
import { rssMb, rssSampler } from './memory'
import { measure, type Figures } from './stats'

/** A case's HTTP figures, or why it was not measured (its first request failed). */
export type Outcome = { figures: Figures } | { refused: string }

export async function signIn(url: string): Promise<string> {
  const r = await fetch(`${url}/user/api/v1/user/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }),
  })
  if (!r.ok) throw new Error(`sign-in: ${r.status}`)
  return ((await r.json()) as { access: string }).access
}

async function refusal(r: Response): Promise<string> {
  const text = await r.text()
  let detail = text
  try {
    const body = JSON.parse(text) as unknown
    detail = body && typeof body === 'object' && typeof (body as { detail?: unknown }).detail === 'string' ? (body as { detail: string }).detail : JSON.stringify(body)
  } catch {
    // not JSON: the text as is
  }
  detail = detail.replace(/\s+/g, ' ').trim()
  return `${r.status} ${detail.length > 100 ? `${detail.slice(0, 100)}…` : detail}`
}

/** Runs every case through HTTP; a case whose first request fails is skipped, with the server's answer. */
export async function runHttpCases(url: string, token: string, cases: Case[], opts: { total: number; concurrency: number; warmup: number }): Promise<Map<string, Outcome>> {
  const headers = { authorization: `Bearer ${token}` }
  const out = new Map<string, Outcome>()
  for (const c of cases) {
    const first = await fetch(`${url}${c.path}`, { headers })
    if (!first.ok) {
      out.set(c.name, { refused: await refusal(first) })
      continue
    }
    await first.arrayBuffer()
    out.set(c.name, {
      figures: await measure(async () => {
        const r = await fetch(`${url}${c.path}`, { headers })
        if (!r.ok) throw new Error(`${c.path}: ${r.status}`)
        await r.arrayBuffer()
      }, opts),
    })
  }
  return out
}

export type Memory = { restMb: number; peakMb: number }

/** RSS `restMs` after 'ready' (the server idle), then the peak while `load` runs, sampled every 100 ms. */
export async function underLoad<T>(server: RunningServer, load: () => Promise<T>, restMs = 3_000): Promise<{ memory: Memory; result: T }> {
  await new Promise((r) => setTimeout(r, restMs))
  const restMb = rssMb(server.pid)
  const sampler = rssSampler(server.pid, 100)
  const result = await load()
  return { memory: { restMb, peakMb: sampler.stop() }, result }
}

/** Requests per second over the measured cases (total requests / total time): the mix's throughput. */
export function mixRps(outcomes: Map<string, Outcome>): number {
  let n = 0
  let seconds = 0
  for (const o of outcomes.values()) {
    if (!('figures' in o)) continue
    n += o.figures.n
    seconds += o.figures.n / o.figures.rps
  }
  return seconds > 0 ? n / seconds : 0
}
