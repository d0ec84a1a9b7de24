import { describe, expect, it } from 'vitest'
import { voucherSpecOf } from '../../../../schema/entities/accounting/vouchers'
import { balanceOf, judgeVoucher, voucherPayload } from '../../../../src/modules/accounting/vouchers/voucher-model'

/** The voucher screen's own judgement (before any request), keyed as the server's 400 is. */
const payment = voucherSpecOf('payment_voucher')!
const journal = voucherSpecOf('journal')!
const label = (field: string) => `field.${field}`
const values = (items: Array<[number | null, string, string]>, date = '2026-11-23') => ({
  payment_date: date,
  journal_date: date,
  branch: null,
  details: '',
  items: items.map(([ledger, debit_amount, credit_amount]) => ({ ledger, debit_amount, credit_amount })),
})

describe('voucher model', () => {
  it('totals to the cent without floats and says how far apart the sides are', () => {
    expect(balanceOf([{ ledger: 1, debit_amount: '0.10', credit_amount: '' }, { ledger: 2, debit_amount: '0.20', credit_amount: '' }, { ledger: 3, debit_amount: '', credit_amount: '0.3' }])).toEqual({ debit: '0.30', credit: '0.30', difference: '0.00', isBalanced: true, hasAmounts: true })
    expect(balanceOf([{ ledger: 1, debit_amount: '10', credit_amount: '' }, { ledger: 2, debit_amount: '', credit_amount: '12.5' }])).toMatchObject({ difference: '2.50', isBalanced: false })
    // Not yet a valid amount: counted as nothing while typed.
    expect(balanceOf([{ ledger: 1, debit_amount: '1.234', credit_amount: '' }])).toMatchObject({ debit: '0.00', hasAmounts: false, isBalanced: false })
  })

  it('refuses what the posting service would, each where the server puts it', () => {
    expect(judgeVoucher(payment, values([[1, '10', ''], [2, '', '10']]), label)).toEqual({})
    expect(judgeVoucher(payment, values([[null, '10', '10'], [2, '-1', ''], [3, '1.005', ''], [4, '', '']], ''), label)).toEqual({
      payment_date: { key: 'validation.required', params: { label: 'field.payment_date' } },
      'items.0.ledger': { key: 'validation.required', params: { label: 'field.ledger' } },
      'items.0.debit_amount': { key: 'validation.one_side_only' },
      'items.1.debit_amount': { key: 'validation.min_value', params: { min: 0 } },
      'items.2.debit_amount': { key: 'validation.decimal', params: { scale: 2, whole: 18 } },
      'items.3.debit_amount': { key: 'validation.no_amount' },
    })
    expect(judgeVoucher(payment, values([[1, '10', '']]), label)).toEqual({ items: { key: 'validation.lines_min', params: { min: 2 } } })
    expect(judgeVoucher(payment, values([[1, '10', ''], [2, '', '9.99']]), label)).toEqual({ items: { key: 'validation.unbalanced', params: { debit: '10.00', credit: '9.99', difference: '0.01' } } })
    expect(judgeVoucher(payment, values([[1, '10', ''], [2, '', '10']], '2026-02-30'), label)).toEqual({ payment_date: { key: 'validation.date', params: { label: 'field.payment_date' } } })
  })

  it('sends multipart items[i][…] for a payment and JSON items for a journal, blanks as zero', () => {
    const form = voucherPayload(payment, { ...values([[1, '10', ''], [2, '', '10']]), file: 'stored.pdf', ref_invoice_no: ' SA20261120004 ' }, 'PV20261123001') as FormData
    expect(Object.fromEntries(form.entries())).toEqual({
      payment_date: '2026-11-23',
      branch: '',
      sub_ledger: '',
      // The invoice a payment settles goes along, trimmed; a journal has none.
      ref_invoice_no: 'SA20261120004',
      details: '',
      invoice_no: 'PV20261123001',
      'items[0][ledger]': '1',
      'items[0][debit_amount]': '10',
      'items[0][credit_amount]': '0',
      'items[1][ledger]': '2',
      'items[1][debit_amount]': '0',
      'items[1][credit_amount]': '10',
    })
    expect(voucherPayload(journal, values([[5, '3', ''], [6, '', '3']]))).toEqual({
      journal_date: '2026-11-23',
      branch: null,
      details: '',
      items: [
        { ledger: 5, debit_amount: '3', credit_amount: '0' },
        { ledger: 6, debit_amount: '0', credit_amount: '3' },
      ],
    })
  })
})
