import { describe, expect, it } from 'vitest'
import { formatInvoiceNo, invoicePrefixes, parseInvoiceNo } from '../../../../server/domain/accounting/numbering'

/** The original's invoice numbers (api-contract §4.7): `<PREFIX><YYYYMMDD>00<n>`, "00" a literal. */
describe('invoice numbers', () => {
  it('writes the prefix, the day and the counter after a literal 00', () => {
    expect(formatInvoiceNo('PV', '2023-04-15', 1)).toBe('PV20230415001')
    expect(formatInvoiceNo('JO', '2026-12-31', 12)).toBe('JO202612310012')
    expect(formatInvoiceNo('SA', '2024-02-29', 100)).toBe('SA2024022900100')
  })

  it('has a prefix per kind of voucher', () => {
    expect(invoicePrefixes).toEqual({ payment_voucher: 'PV', receipt_voucher: 'RV', sales: 'SA', purchase: 'PU', contra: 'CO', journal: 'JO' })
  })

  it('refuses what cannot make a number: a bad prefix, a day that does not exist, a counter below 1', () => {
    expect(() => formatInvoiceNo('pv', '2023-04-15', 1)).toThrow(/prefix/)
    expect(() => formatInvoiceNo('PV', '2023-02-29', 1)).toThrow(/day/)
    expect(() => formatInvoiceNo('PV', '2023-04-15', 0)).toThrow(/counter/)
    expect(() => formatInvoiceNo('PV', '2023-04-15', 1.5)).toThrow(/counter/)
  })

  it('reads a number back into its parts', () => {
    for (const [prefix, date, n] of [['PV', '2023-04-15', 1], ['CO', '2026-01-01', 12], ['RV', '2024-02-29', 105]] as const) {
      expect(parseInvoiceNo(formatInvoiceNo(prefix, date, n))).toEqual({ prefix, date, n })
    }
    expect(parseInvoiceNo('PV2023021500')).toBeUndefined()
    expect(parseInvoiceNo('PV20230230001')).toBeUndefined()
    expect(parseInvoiceNo('20230415001')).toBeUndefined()
  })
})
