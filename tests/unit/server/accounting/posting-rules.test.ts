import { describe, expect, it } from 'vitest'
import { defaultFieldNames, judgePosting, type Posting, type PostingFacts, type PostingLine } from '../../../../server/domain/accounting/posting'
import { catalogues } from '../../../../server/i18n'
import { hasKey } from '../../../../schema/check'

/**
 * The posting rules as pure judgements (domain-anchors §6 rules 7–11): what a voucher's
 * lines must be before a single general-ledger row is written. Ledgers 1 (Cash) and 2 (Bank)
 * hold money; 3 (Rent) and 4 (Sales) do not.
 */
const CASH = 1
const BANK = 2
const RENT = 3
const SALES = 4
const facts: PostingFacts = { ledgers: new Set([CASH, BANK, RENT, SALES]), cashBank: new Set([CASH, BANK]), subLedgers: new Set([7]), branches: new Set([9]) }

const dr = (ledger: number, amount: string): PostingLine => ({ ledger, debit: amount, credit: '0' })
const cr = (ledger: number, amount: string): PostingLine => ({ ledger, debit: '0', credit: amount })
const posting = (kind: Posting['kind'], lines: PostingLine[], more: Partial<Posting> = {}): Posting => ({ kind, date: '2026-03-15', referenceNo: 'XX20260315001', lines, ...more })
const judge = (p: Posting) => judgePosting(p, facts)

describe('judging a posting', () => {
  it('accepts a balanced payment that credits cash', () => {
    expect(judge(posting('payment_voucher', [dr(RENT, '700.00'), dr(SALES, '50.5'), cr(CASH, '750.50')]))).toEqual({})
  })

  it('rejects a voucher whose debits and credits differ, naming both totals and the difference', () => {
    expect(judge(posting('journal', [dr(RENT, '100.00'), cr(SALES, '90.25')]))).toEqual({
      lines: [{ key: 'validation.unbalanced', params: { debit: '100.00', credit: '90.25', difference: '9.75' } }],
    })
    expect(judge(posting('journal', [dr(RENT, '0.01'), cr(SALES, '0.02')])).lines).toEqual([{ key: 'validation.unbalanced', params: { debit: '0.01', credit: '0.02', difference: '0.01' } }])
  })

  it('ties large amounts to the cent, with no float drift', () => {
    const lines = [dr(RENT, '0.10'), dr(RENT, '0.20'), cr(SALES, '0.30'), dr(RENT, '999999999999.99'), dr(RENT, '999999999999.99'), cr(SALES, '999999999999.99'), cr(SALES, '999999999999.99')]
    expect(judge(posting('journal', lines))).toEqual({})
  })

  it("holds each amount to a money field's bound (999,999,999,999.99), however many digits the column takes", () => {
    const above = { key: 'validation.max_amount', params: { max: '999999999999.99', whole: 12 } }
    expect(judge(posting('journal', [dr(RENT, '1000000000000.00'), cr(SALES, '999999999999999999.99')]))).toEqual({ 'lines.0.debit': [above], 'lines.1.credit': [above] })
  })

  it('rejects a line with both sides, and a line with neither', () => {
    expect(judge(posting('journal', [{ ledger: RENT, debit: '5', credit: '5' }, cr(SALES, '5')]))).toEqual({ 'lines.0.debit': [{ key: 'validation.one_side_only' }] })
    expect(judge(posting('journal', [{ ledger: RENT, debit: '0', credit: '' }, dr(RENT, '5'), cr(SALES, '5')]))).toEqual({ 'lines.0.debit': [{ key: 'validation.no_amount' }] })
    expect(judge(posting('journal', [{ ledger: RENT }, dr(RENT, '5'), cr(SALES, '5')]))).toEqual({ 'lines.0.debit': [{ key: 'validation.no_amount' }] })
  })

  it('rejects negative amounts and amounts with more than two places, or that are not numbers', () => {
    expect(judge(posting('journal', [dr(RENT, '-5'), cr(SALES, '-5')]))).toEqual({
      'lines.0.debit': [{ key: 'validation.min_value', params: { min: 0 } }],
      'lines.1.credit': [{ key: 'validation.min_value', params: { min: 0 } }],
    })
    const decimal = { key: 'validation.decimal', params: { scale: 2, whole: 12 } }
    expect(judge(posting('journal', [dr(RENT, '10.005'), cr(SALES, '10.005')]))).toEqual({ 'lines.0.debit': [decimal], 'lines.1.credit': [decimal] })
    expect(judge(posting('journal', [dr(RENT, '1e3'), cr(SALES, 'ten')]))).toEqual({ 'lines.0.debit': [decimal], 'lines.1.credit': [decimal] })
  })

  it('needs two lines at least', () => {
    expect(judge(posting('journal', [dr(RENT, '5')]))).toEqual({ lines: [{ key: 'validation.lines_min', params: { min: 2 } }] })
    expect(judge(posting('journal', []))).toEqual({ lines: [{ key: 'validation.lines_min', params: { min: 2 } }] })
  })

  it('rejects unknown ledgers, sub-ledgers and branches, on the line or the header', () => {
    expect(judge(posting('journal', [dr(99, '5'), { ...cr(SALES, '5'), subLedger: 8, branch: 10 }], { subLedger: 6, branch: 11 }))).toEqual({
      sub_ledger: [{ key: 'validation.ref', params: { label: 'field.sub_ledger' } }],
      branch: [{ key: 'validation.ref', params: { label: 'field.branch' } }],
      'lines.0.ledger': [{ key: 'validation.ref', params: { label: 'field.ledger' } }],
      'lines.1.sub_ledger': [{ key: 'validation.ref', params: { label: 'field.sub_ledger' } }],
      'lines.1.branch': [{ key: 'validation.ref', params: { label: 'field.branch' } }],
    })
    expect(judge(posting('journal', [{ ...dr(RENT, '5'), subLedger: 7, branch: 9 }, cr(SALES, '5')], { subLedger: 7, branch: 9 }))).toEqual({})
  })

  it('rejects a day that does not exist and a blank or too long reference', () => {
    expect(judge(posting('journal', [dr(RENT, '5'), cr(SALES, '5')], { date: '2026-02-30', referenceNo: ' ' }))).toEqual({
      date: [{ key: 'validation.date', params: { label: 'field.log_date' } }],
      reference_no: [{ key: 'validation.required', params: { label: 'field.reference_no' } }],
    })
    expect(judge(posting('journal', [dr(RENT, '5'), cr(SALES, '5')], { referenceNo: 'X'.repeat(51) })).reference_no).toEqual([{ key: 'validation.max_length', params: { max: 50 } }])
  })

  it('reports under the caller’s own names (a voucher’s items and amounts)', () => {
    const names = { ...defaultFieldNames, lines: 'items', debit: 'debit_amount', credit: 'credit_amount' }
    expect(judgePosting(posting('journal', [{ ledger: RENT, debit: '1', credit: '1' }, dr(RENT, '1'), cr(SALES, '2')]), facts, names)).toEqual({ 'items.0.debit_amount': [{ key: 'validation.one_side_only' }] })
    expect(judgePosting(posting('journal', [dr(RENT, '1'), cr(SALES, '2')]), facts, names)).toEqual({ items: [expect.objectContaining({ key: 'validation.unbalanced' })] })
  })

  describe('cash and bank, by kind of voucher', () => {
    const cases: Array<[string, Posting['kind'], PostingLine[], Record<string, unknown>]> = [
      ['a payment that credits the bank', 'payment_voucher', [dr(RENT, '10'), cr(BANK, '10')], {}],
      ['a payment that also credits a non-cash ledger (a deduction)', 'payment_voucher', [dr(RENT, '10'), cr(BANK, '8'), cr(SALES, '2')], {}],
      ['a payment that credits no cash or bank', 'payment_voucher', [dr(RENT, '10'), cr(SALES, '10')], { lines: [{ key: 'validation.payment_cash_credit' }] }],
      ['a payment that debits cash', 'payment_voucher', [dr(CASH, '10'), cr(BANK, '10')], { 'lines.0.ledger': [{ key: 'validation.payment_cash_debit' }] }],
      ['a receipt that debits cash', 'receipt_voucher', [dr(CASH, '10'), cr(SALES, '10')], {}],
      ['a receipt that debits no cash or bank', 'receipt_voucher', [dr(RENT, '10'), cr(SALES, '10')], { lines: [{ key: 'validation.receipt_cash_debit' }] }],
      ['a receipt that credits the bank', 'receipt_voucher', [dr(CASH, '10'), cr(BANK, '10')], { 'lines.1.ledger': [{ key: 'validation.receipt_cash_credit' }] }],
      ['a contra from the bank to cash', 'contra', [dr(CASH, '10'), cr(BANK, '10')], {}],
      ['a contra with a non-cash ledger', 'contra', [dr(CASH, '10'), cr(SALES, '10')], { 'lines.1.ledger': [{ key: 'validation.contra_cash_only' }] }],
      ['a contra within one ledger', 'contra', [dr(CASH, '10'), cr(CASH, '10')], { lines: [{ key: 'validation.contra_two_ledgers' }] }],
      ['a journal without cash or bank', 'journal', [dr(RENT, '10'), cr(SALES, '10')], {}],
      ['a journal that uses the bank', 'journal', [dr(RENT, '10'), cr(BANK, '10')], { 'lines.1.ledger': [{ key: 'validation.journal_no_cash' }] }],
      ['a sale, which has no cash rule', 'sales', [dr(CASH, '10'), cr(SALES, '10')], {}],
      ['a purchase, which has no cash rule', 'purchase', [dr(RENT, '10'), cr(BANK, '10')], {}],
    ]
    for (const [what, kind, lines, expected] of cases) {
      it(`${Object.keys(expected).length === 0 ? 'accepts' : 'rejects'} ${what}`, () => expect(judge(posting(kind, lines))).toEqual(expected))
    }
  })

  it('has every message it gives in every language', () => {
    const keys = ['unbalanced', 'one_side_only', 'no_amount', 'payment_cash_credit', 'payment_cash_debit', 'receipt_cash_debit', 'receipt_cash_credit', 'contra_cash_only', 'contra_two_ledgers', 'journal_no_cash']
    for (const lang of ['en', 'tr', 'ar'] as const) for (const key of keys) expect(hasKey(catalogues[lang], `validation.${key}`), `${lang} validation.${key}`).toBe(true)
  })
})
