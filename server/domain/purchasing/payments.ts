import { sql } from 'kysely'
import { money } from '../../../schema/kit'
import { rowIdValueOf } from '../../../schema/kit/validators'
import type { Row, Trx } from '../../db/types'
import { ConflictError, ValidationError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'
import { numberDayOf } from '../../engine/numbering'
import type { PostingOf } from '../../engine/posting'
import { vendorLedger } from './ledgers'

/**
 * Payments against a purchase (schema/entities/purchasing/purchase-final.ts): not a
 * cancelled one — a draft's is an advance, as ERPNext pays against a purchase order — and
 * never beyond what it still owes — judged under the purchase's
 * row lock, so two payments at once cannot both take the last of it — and the purchase's
 * `paid_amount` and `payment_status` are worked out again from its payments in the same
 * transaction (checklist 38, 50: derived, never a flag).
 */
type Purchase = { id: number; status: string; total_price: string; paid_amount: string; bill_no: string | null; vendor: number; invoice_no: string }

export async function lockPurchase(trx: Trx, id: number): Promise<Purchase | undefined> {
  const found = await sql<Purchase>`select id, status, total_price::text, paid_amount::text, bill_no, vendor, invoice_no from purchase_final where id = ${id} for update`.execute(trx)
  return found.rows[0]
}

export const paymentStatusOf = (total: string, paid: string): 'unpaid' | 'partial' | 'paid' =>
  money.toMinor(paid) <= 0n ? 'unpaid' : money.compare(paid, total) >= 0 ? 'paid' : 'partial'

/** The purchase's paid amount and status, from its payments. */
export async function settle(trx: Trx, purchase: number): Promise<void> {
  await sql`
    update purchase_final p set paid_amount = s.paid,
      payment_status = case when s.paid <= 0 then 'unpaid' when s.paid >= p.total_price then 'paid' else 'partial' end
    from (select coalesce(sum(amount), 0) as paid from purchase_payment where purchase_final = ${purchase}) s
    where p.id = ${purchase}`.execute(trx)
}

const purchaseOf = (row: Row | null | undefined) => rowIdValueOf(row?.purchase_final)

export const paymentHooks: EntityHooks = {
  async beforeWrite({ trx, before, values }) {
    // Each purchase touched, in id order (a payment moved between two never deadlocks another).
    const ids = [...new Set([purchaseOf(before), purchaseOf(values)].filter((id): id is number => id !== null))].sort((a, b) => a - b)
    const locked = new Map<number, Purchase>()
    for (const id of ids) {
      const p = await lockPurchase(trx, id)
      if (p) locked.set(id, p)
    }
    const target = purchaseOf(values)
    if (!values || target === null) return
    const purchase = locked.get(target)!
    if (purchase.status === 'cancelled') throw new ConflictError({ key: 'detail.purchase_cancelled_payment', params: { number: purchase.invoice_no } })
    const already = money.subtract(purchase.paid_amount, purchaseOf(before) === target ? String(before!.amount) : '0')
    const owed = money.subtract(purchase.total_price, already)
    if (money.compare(String(values.amount), owed) > 0) throw new ValidationError({ amount: [{ key: 'validation.more_than_owed', params: { owed } }] })
  },
  async afterWrite({ trx, before, after }) {
    const ids = [...new Set([purchaseOf(before), purchaseOf(after)].filter((id): id is number => id !== null))]
    for (const id of ids) await settle(trx, id)
  },
}

/** A payment's voucher: Dr the vendor's ledger, Cr the cash or bank it was paid from, naming the bill it settles. */
export const paymentPosting: PostingOf = async ({ trx, registry, hooks, actor, record }) => {
  const purchase = (await sql<Purchase>`select vendor, bill_no, invoice_no from purchase_final where id = ${Number(record.purchase_final)}`.execute(trx)).rows[0]!
  const amount = String(record.amount)
  return {
    date: numberDayOf(record, 'payment_date'),
    details: purchase.invoice_no,
    refInvoiceNo: purchase.bill_no,
    lines: [
      { ledger: await vendorLedger({ trx, registry, hooks, actor }, Number(purchase.vendor)), debit: amount },
      { ledger: Number(record.ledger), credit: amount },
    ],
  }
}
