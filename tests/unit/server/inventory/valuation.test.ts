import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromMinor, toMinor } from '../../../../schema/kit/money'
import { EMPTY_STOCK, isShortfall, issue, rateFromText, rateToText, receive, reverse, type Moved, type StockState } from '../../../../server/domain/inventory/valuation'

/**
 * Moving-average valuation, golden: Frappe Books' stock queue vectors (domain-anchors §2.3,
 * models/inventory/tests/testStockQueue.spec.ts) — in 4@100, 8@200, 3@300, then out 3, 5,
 * 4, 3 — each step's rate, value and value change to the cent; and over random movements,
 * the value is always the sum of the changes and never below zero.
 */
const at = (rate: string) => rateFromText(rate)
const shown = (m: Moved) => ({ quantity: Number(m.state.quantity), rate: rateToText(m.state.rate), value: fromMinor(m.state.value), change: fromMinor(m.valueChange) })
const moved = (m: ReturnType<typeof issue>): Moved => {
  if (isShortfall(m)) throw new Error('short')
  return m
}

describe('moving-average valuation', () => {
  it('follows Frappe Books’ vectors: in 4@100, 8@200, 3@300; out 3, 5, 4, 3', () => {
    const steps: Array<[string, (s: StockState) => Moved]> = [
      ['in 4@100', (s) => receive(s, 4n, at('100'))],
      ['in 8@200', (s) => receive(s, 8n, at('200'))],
      ['in 3@300', (s) => receive(s, 3n, at('300'))],
      ['out 3', (s) => moved(issue(s, 3n))],
      ['out 5', (s) => moved(issue(s, 5n))],
      ['out 4', (s) => moved(issue(s, 4n))],
      ['out 3', (s) => moved(issue(s, 3n))],
    ]
    const seen: Array<ReturnType<typeof shown>> = []
    let state = EMPTY_STOCK
    for (const [, step] of steps) {
      const m = step(state)
      seen.push(shown(m))
      state = m.state
    }
    expect(seen).toEqual([
      { quantity: 4, rate: '100.0000', value: '400.00', change: '400.00' },
      // (400 + 1600) / 12, and (2000 + 900) / 15: Books' movingAverage, to four places.
      { quantity: 12, rate: '166.6667', value: '2000.00', change: '1600.00' },
      { quantity: 15, rate: '193.3333', value: '2900.00', change: '900.00' },
      // Issues leave the rate alone and go out at it.
      { quantity: 12, rate: '193.3333', value: '2320.00', change: '-580.00' },
      { quantity: 7, rate: '193.3333', value: '1353.33', change: '-966.67' },
      { quantity: 3, rate: '193.3333', value: '580.00', change: '-773.33' },
      // The last unit takes what is left: nothing stays behind.
      { quantity: 0, rate: '193.3333', value: '0.00', change: '-580.00' },
    ])
  })

  it('starts again at the receipt’s own cost once nothing is on hand', () => {
    const emptied = moved(issue(receive(EMPTY_STOCK, 2n, at('10')).state, 2n)).state
    expect(shown(receive(emptied, 5n, at('7.5')))).toEqual({ quantity: 5, rate: '7.5000', value: '37.50', change: '37.50' })
  })

  it('refuses to issue more than is on hand, saying by how much', () => {
    expect(issue(receive(EMPTY_STOCK, 3n, at('1')).state, 5n)).toEqual({ shortBy: 2n, onHand: 3n })
  })

  it('reverses a receipt exactly, and refuses a reversal of stock already gone', () => {
    const first = receive(EMPTY_STOCK, 4n, at('100'))
    const second = receive(first.state, 8n, at('200'))
    const undone = reverse(second.state, 8n, second.valueChange) as Moved
    expect(shown(undone)).toEqual({ quantity: 4, rate: '100.0000', value: '400.00', change: '-1600.00' })
    const sold = moved(issue(second.state, 10n)).state
    expect(reverse(sold, 8n, second.valueChange)).toEqual({ shortBy: 6n, onHand: 2n })
  })

  it('keeps the value the sum of its changes, never negative, over any movements', () => {
    const movement = fc.oneof(
      fc.record({ kind: fc.constant('in' as const), quantity: fc.integer({ min: 1, max: 1000 }), cost: fc.integer({ min: 0, max: 100_000_000 }) }),
      fc.record({ kind: fc.constant('out' as const), quantity: fc.integer({ min: 1, max: 1000 }) }),
      fc.record({ kind: fc.constant('undo' as const), pick: fc.nat() }),
    )
    fc.assert(
      fc.property(fc.array(movement, { maxLength: 60 }), (movements) => {
        let state = EMPTY_STOCK
        let sum = 0n
        let units = 0n
        const done: Array<{ quantity: bigint; valueChange: bigint }> = []
        for (const m of movements) {
          let result: Moved | ReturnType<typeof issue>
          if (m.kind === 'in') result = receive(state, BigInt(m.quantity), BigInt(m.cost))
          else if (m.kind === 'out') result = issue(state, BigInt(m.quantity))
          else {
            const target = done.length > 0 ? done.splice(m.pick % done.length, 1)[0]! : undefined
            if (!target) continue
            result = reverse(state, target.quantity, target.valueChange)
          }
          if (isShortfall(result)) continue
          const quantity = m.kind === 'in' ? BigInt(m.quantity) : m.kind === 'out' ? -BigInt(m.quantity) : result.state.quantity - state.quantity
          if (m.kind !== 'undo') done.push({ quantity, valueChange: result.valueChange })
          state = result.state
          sum += result.valueChange
          units += quantity
          expect(state.quantity).toBe(units)
          expect(state.quantity >= 0n && state.value >= 0n && state.rate >= 0n).toBe(true)
          expect(state.value).toBe(sum)
          if (state.quantity === 0n) expect(state.value).toBe(0n)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('reads and writes rates as four-place decimals', () => {
    expect(rateFromText('193.3333')).toBe(1_933_333n)
    expect(rateToText(rateFromText('7.5'))).toBe('7.5000')
    expect(toMinor(fromMinor(12345n))).toBe(12345n)
  })
})
