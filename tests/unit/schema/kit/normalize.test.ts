import { describe, expect, it } from 'vitest'
import { f, normalizers, type Normalizer } from '../../../../schema/kit'
import { validatorOf } from '../../../../schema/kit/validators'

/** Name normalisation rules of api-contract §2.6. */
const cases: Record<Normalizer, Array<[string, string]>> = {
  capitalize: [
    ['dhaka', 'Dhaka'],
    ["cox's bazar", "Cox's bazar"],
    ['  dhaka   DOHS ', 'Dhaka DOHS'],
    ['ıstanbul', 'Istanbul'],
    ['', ''],
  ],
  title: [
    ['senior sales executive', 'Senior Sales Executive'],
    ['GENERAL   manager', 'General Manager'],
    ['it', 'It'],
  ],
  upper: [['red  wine', 'RED WINE'], ['xl', 'XL']],
  upper_snake: [['user create', 'USER_CREATE'], [' admin ', 'ADMIN'], ['Role  list', 'ROLE_LIST']],
  lower_snake: [['Employee Ledger', 'employee_ledger'], ['  High   Priority ', 'high_priority']],
}

describe('normalizers', () => {
  for (const [name, table] of Object.entries(cases)) {
    it.each(table)(`${name}: %j → %j`, (input, output) => {
      expect(normalizers[name as Normalizer](input)).toBe(output)
    })
  }

  it('is idempotent: normalising a normalised name changes nothing', () => {
    for (const [name, table] of Object.entries(cases)) {
      for (const [, output] of table) expect(normalizers[name as Normalizer](output)).toBe(output)
    }
  })

  it('runs inside the text field validator, before the length check', () => {
    const field = f.text({ max: 12, normalize: 'title', required: true })
    expect(validatorOf(field).parse('  head   OFFICE ')).toBe('Head Office')
    expect(validatorOf(field).safeParse('a      b      c').success).toBe(true)
  })
})
