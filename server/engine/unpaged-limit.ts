import { ValidationError } from './errors'

/**
 * `limit` on `without_pagination/all/` (an extension: the contract's route answers every row,
 * and still does without it): at most this many rows, in the list's order — what a screen
 * asks when it shows a whole list ("All" rows, up to 10,000), so a list grown to a million
 * rows meanwhile never comes back whole. Bounded itself.
 */
export const MAX_UNPAGED_LIMIT = 10_000

/** The query without `limit`, and the limit it gives (undefined when none); a bad one is a 400 field map keyed `limit`. */
export function unpagedLimitOf(query: Readonly<Record<string, unknown>>): { limit: number | undefined; rest: Record<string, unknown> } {
  const { limit: raw, ...rest } = query
  if (raw === undefined) return { limit: undefined, rest }
  const text = Array.isArray(raw) ? String(raw[0]) : String(raw)
  if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < 1) throw new ValidationError({ limit: [{ key: 'validation.min_value', params: { min: 1 } }] })
  const limit = Number(text)
  if (limit > MAX_UNPAGED_LIMIT) throw new ValidationError({ limit: [{ key: 'validation.max_value', params: { max: MAX_UNPAGED_LIMIT } }] })
  return { limit, rest }
}
