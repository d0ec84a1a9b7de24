import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compare, fromMinor, isAmount, multiply, subtract, sum, toMinor } from '../../../../schema/kit/money'

/** Money without floats (architecture §3): minor units inside, decimal strings at the edges. */
describe('money', () => {
  it('reads and writes amounts as decimal strings, two places', () => {
    expect(toMinor('12.5')).toBe(1250n)
    expect(toMinor('-0.01')).toBe(-1n)
    expect(toMinor(3)).toBe(300n)
    expect(toMinor('')).toBe(0n)
    expect(toMinor(null)).toBe(0n)
    expect(fromMinor(1250n)).toBe('12.50')
    expect(fromMinor(-5n)).toBe('-0.05')
    expect(fromMinor(123456789012345678901234n)).toBe('1234567890123456789012.34')
    expect(isAmount('1.005')).toBe(false)
    expect(isAmount('10')).toBe(true)
  })

  it('adds to the cent where floats do not: 0.1 + 0.2 is 0.30', () => {
    expect(sum(['0.1', '0.2'])).toBe('0.30')
    expect(sum(Array.from({ length: 10 }, () => '0.10'))).toBe('1.00')
    expect(subtract('100.00', '0.01')).toBe('99.99')
    expect(compare('1.00', '1')).toBe(0)
    expect(compare('-1', '0.01')).toBe(-1)
  })

  it('multiplies a price by a quantity, rounding half away from zero to the cent', () => {
    expect(multiply('0.10', 3)).toBe('0.30')
    expect(multiply('1250.50', '2')).toBe('2501.00')
    expect(multiply('10.00', '0.125')).toBe('1.25')
    expect(multiply('0.05', '0.5')).toBe('0.03')
    expect(multiply('-0.05', '0.5')).toBe('-0.03')
  })

  it('sums any list of cents exactly, in any order (property)', () => {
    const cents = fc.array(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), { maxLength: 50 })
    fc.assert(
      fc.property(cents, (list) => {
        const amounts = list.map(fromMinor)
        const exact = list.reduce((a, b) => a + b, 0n)
        expect(toMinor(sum(amounts))).toBe(exact)
        expect(toMinor(sum([...amounts].reverse()))).toBe(exact)
      }),
    )
  })

  it('round-trips every amount through its string (property)', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (units) => toMinor(fromMinor(units)) === units))
  })
})
