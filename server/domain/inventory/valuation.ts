/**
 * Moving-average valuation (domain-anchors §2.3, checklist 40), exact: quantities are whole
 * units, rates are kept to four places (1/10,000ths), values to the cent (1/100ths), all as
 * bigint — never a float. Pure: the stock kernel (stock.ts) applies it under the product's
 * lock, and the golden tests hold it to Frappe Books' vectors.
 *
 * - A receipt adds its value (quantity × its unit cost, to the cent); the rate becomes the
 *   new value over the new quantity — or the receipt's own cost when nothing was on hand.
 * - An issue goes out at the current rate and leaves it unchanged; the value left is the
 *   quantity left at that rate (to the cent), so nothing is left over when the last unit goes.
 * - A reversal puts back exactly the value its movement changed, and the rate follows the
 *   value over the quantity.
 */
export type StockState = {
  /** Units on hand, never negative. */
  quantity: bigint
  /** The moving-average rate, in 1/10,000ths. */
  rate: bigint
  /** The stock's value, in cents. */
  value: bigint
}

export const EMPTY_STOCK: StockState = { quantity: 0n, rate: 0n, value: 0n }

/** A movement as it changes the stock: the state after, and the value it changed by (cents, signed). */
export type Moved = { state: StockState; valueChange: bigint }

/** What refuses a movement: more out than is on hand. */
export type Shortfall = { shortBy: bigint; onHand: bigint }

/** n / d rounded half up, for n ≥ 0 and d > 0. */
function divide(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d)
}

/** Cents of `quantity` units at `rate` (1/10,000ths). */
export const valueAt = (quantity: bigint, rate: bigint): bigint => divide(quantity * rate, 100n)

/** The rate (1/10,000ths) of `value` cents over `quantity` units. */
const rateOf = (value: bigint, quantity: bigint): bigint => divide(value * 100n, quantity)

export function receive(state: StockState, quantity: bigint, unitCost: bigint): Moved {
  if (quantity <= 0n || unitCost < 0n) throw new RangeError('a receipt takes a positive quantity at a cost of zero or more')
  const incoming = valueAt(quantity, unitCost)
  const wasEmpty = state.quantity <= 0n
  const after = state.quantity + quantity
  const value = (wasEmpty ? 0n : state.value) + incoming
  return { state: { quantity: after, rate: wasEmpty ? unitCost : rateOf(value, after), value }, valueChange: value - state.value }
}

export function issue(state: StockState, quantity: bigint): Moved | Shortfall {
  if (quantity <= 0n) throw new RangeError('an issue takes a positive quantity')
  if (quantity > state.quantity) return { shortBy: quantity - state.quantity, onHand: state.quantity }
  const after = state.quantity - quantity
  const value = after === 0n ? 0n : valueAt(after, state.rate)
  return { state: { quantity: after, rate: state.rate, value }, valueChange: value - state.value }
}

/**
 * Undoes a movement of `quantity` units (signed, as it was written) that changed the value
 * by `valueChange`: the opposite quantity and exactly the opposite value — or what is left,
 * when the last unit goes — refused when it would take out more than is on hand.
 */
export function reverse(state: StockState, quantity: bigint, valueChange: bigint): Moved | Shortfall {
  const after = state.quantity - quantity
  if (after < 0n) return { shortBy: -after, onHand: state.quantity }
  const wanted = state.value - valueChange
  const value = after === 0n ? 0n : wanted < 0n ? 0n : wanted
  return { state: { quantity: after, rate: after === 0n ? state.rate : rateOf(value, after), value }, valueChange: value - state.value }
}

/** The cost of one unit (1/10,000ths) of a movement of `quantity` units that changed the value by `valueChange` cents, either sign. */
export function unitRateOf(valueChange: bigint, quantity: bigint): bigint {
  const units = quantity < 0n ? -quantity : quantity
  if (units === 0n) return 0n
  return rateOf(valueChange < 0n ? -valueChange : valueChange, units)
}

export const isShortfall = (moved: Moved | Shortfall): moved is Shortfall => 'shortBy' in moved

/** Four-place decimal text (`"193.3333"`) ↔ 1/10,000ths. */
export function rateFromText(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{0,4}))?$/.exec(text.trim())
  if (!m) throw new RangeError(`not a rate: ${text}`)
  const units = BigInt(m[2]!) * 10_000n + BigInt((m[3] ?? '').padEnd(4, '0'))
  return m[1] ? -units : units
}

export function rateToText(rate: bigint): string {
  const sign = rate < 0n ? '-' : ''
  const abs = rate < 0n ? -rate : rate
  return `${sign}${abs / 10_000n}.${String(abs % 10_000n).padStart(4, '0')}`
}
