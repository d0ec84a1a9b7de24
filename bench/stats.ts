/** Latency figures from per-request samples (milliseconds). */
export type Figures = { n: number; p50: number; p95: number; mean: number; rps: number }

export function figures(samples: number[], wallMs: number): Figures {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), mean, rps: (sorted.length / wallMs) * 1000 }
}

/** Runs `task` `total` times with `concurrency` callers in flight, after `warmup` untimed runs. */
export async function measure(task: () => Promise<void>, opts: { total: number; concurrency: number; warmup: number }): Promise<Figures> {
  for (let i = 0; i < opts.warmup; i++) await task()
  const samples: number[] = []
  let next = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < opts.total) {
        next++
        const t0 = performance.now()
        await task()
        samples.push(performance.now() - t0)
      }
    }),
  )
  return figures(samples, performance.now() - start)
}
