import { parseDecimal } from './fields'

/**
 * Money arithmetic without floats (architecture §3): amounts are decimal strings at the
 * edges ("1250.00") and BigInt minor units inside, so sums tie to the cent whatever their
 * size. Used by computed fields and rules, which run in the browser and on the server alike.
 */
export const MONEY_SCALE = 2
const FACTOR = 10n ** BigInt(MONEY_SCALE)

export type Amount = string | number | null | undefined

/** Minor units of an amount (`'12.5'` → 1250n); a blank or invalid amount counts as zero. */
export function toMinor(amount: Amount): bigint {
  if (amount === null || amount === undefined || amount === '') return 0n
  const canonical = parseDecimal(amount, 40, MONEY_SCALE)
  if (canonical === undefined) return 0n
  const negative = canonical.startsWith('-')
  const [whole = '0', frac = ''] = canonical.replace('-', '').split('.')
  const units = BigInt(whole) * FACTOR + BigInt(frac.padEnd(MONEY_SCALE, '0') || '0')
  return negative ? -units : units
}

/** The decimal string of minor units (1250n → `'12.50'`). */
export function fromMinor(units: bigint): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  const whole = abs / FACTOR
  const frac = (abs % FACTOR).toString().padStart(MONEY_SCALE, '0')
  return `${negative ? '-' : ''}${whole}.${frac}`
}

/** Whether an amount is a valid decimal with at most two places. */
export const isAmount = (amount: Amount): boolean => amount !== null && amount !== undefined && amount !== '' && parseDecimal(amount, 40, MONEY_SCALE) !== undefined

export const sum = (amounts: readonly Amount[]): string => fromMinor(amounts.reduce<bigint>((total, a) => total + toMinor(a), 0n))

export const subtract = (a: Amount, b: Amount): string => fromMinor(toMinor(a) - toMinor(b))

/**
 * A unit price times a quantity (an integer or a decimal of up to 6 places), rounded half
 * away from zero to the cent: 3 × 0.335 = 1.01 (1.005 → 1.01).
 */
export function multiply(price: Amount, quantity: Amount): string {
  const q = typeof quantity === 'number' ? String(quantity) : (quantity ?? '0')
  const canonical = parseDecimal(q, 40, 6)
  if (canonical === undefined) return fromMinor(0n)
  const [whole = '0', frac = ''] = canonical.replace('-', '').split('.')
  const scale = 10n ** BigInt(frac.length)
  const qUnits = (BigInt(whole) * scale + BigInt(frac || '0')) * (canonical.startsWith('-') ? -1n : 1n)
  const product = toMinor(price) * qUnits
  const negative = product < 0n
  const abs = negative ? -product : product
  const rounded = (abs + scale / 2n) / scale
  return fromMinor(negative ? -rounded : rounded)
}

export const compare = (a: Amount, b: Amount): -1 | 0 | 1 => {
  const d = toMinor(a) - toMinor(b)
  return d === 0n ? 0 : d < 0n ? -1 : 1
}

export const isZero = (a: Amount): boolean => toMinor(a) === 0n
