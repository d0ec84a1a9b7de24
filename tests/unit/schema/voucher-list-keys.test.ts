import { describe, expect, it } from 'vitest'
import { registry } from '../../../schema'

/** The vouchers' list keys are the contract's (api-contract §2): a client reads the rows under them. */
describe('voucher list keys', () => {
  it('are the contract’s', () => {
    const keys = ['payment_voucher', 'receipt_voucher', 'sales', 'purchase', 'contra', 'journal'].map((name) => registry[name as keyof typeof registry]?.listKey)
    expect(keys).toEqual(['payment_vouchers', 'receipt_vouchers', 'sales', 'purchases', 'contras', 'journals'])
  })
})
