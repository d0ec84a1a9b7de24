import { sql } from 'kysely'
import { utcDay } from '../../../schema/kit/dates'
import type { Trx } from '../../db/types'
import { BusinessError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'
import { userLedger } from './ledgers'
import { receiptOf } from './receipts'

/**
 * Cause donations (api-contract §4.5): the donor is the signed-in user who gives (the row's
 * `created_by`), credited on their own ledger; the cause's `raised_amount` moves with every
 * donation made, changed or removed, in one UPDATE that holds the cause's row until the
 * transaction ends — parallel donations queue there and none is lost. The receipt refers to
 * the cause's sales invoice (`ref_invoice_no`).
 */

/** Adds `amount` (a decimal string, negative to take back) to a cause's raised amount; answers its sales invoice. */
async function raise(trx: Trx, cause: number, amount: string): Promise<string | null> {
  const updated = await sql<{ sales_invoice_no: string | null }>`
    update cause set raised_amount = raised_amount + ${amount}::numeric where id = ${cause} returning sales_invoice_no`.execute(trx)
  return updated.rows[0]?.sales_invoice_no ?? null
}

const negated = (amount: unknown) => `-${String(amount)}`

export const causeDonationHooks: EntityHooks = {
  async beforeWrite({ trx, action, before, values, actor }) {
    if (action === 'create' && !actor) throw new BusinessError({ key: 'detail.cause_donation_donor' })
    // Taken back from the cause it was given to, then given to the cause it is now for.
    if (before && (action === 'delete' || String(before.amount) !== String(values?.amount) || before.cause !== values?.cause)) {
      await raise(trx, Number(before.cause), negated(before.amount))
      if (values) values.ref_invoice_no = await raise(trx, Number(values.cause), String(values.amount))
    }
    if (action === 'create' && values) values.ref_invoice_no = await raise(trx, Number(values.cause), String(values.amount))
  },
}

export const causeDonationReceipt = receiptOf({
  creditLedger: async (deps, row) => {
    const donor = row.created_by ?? deps.actor?.id
    if (typeof donor !== 'number') throw new BusinessError({ key: 'detail.cause_donation_donor' })
    return userLedger(deps, donor)
  },
  date: (row) => utcDay(row.created_at as Date | string),
})
