import { sql } from 'kysely'
import { money } from '../../../schema/kit'
import { rowIdValueOf } from '../../../schema/kit/validators'
import type { Row, Trx } from '../../db/types'
import { ConflictError, ValidationError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'
import { numberDayOf } from '../../engine/numbering'
import type { PostingOf } from '../../engine/posting'
import { seededLedger } from '../accounting/ledgers'
import { customerLedger } from './ledgers'

/**
 * Money in and out of an order (schema/entities/orders/order.ts): payments (receipt vouchers)
 * and refunds (payment vouchers). Each is judged under the order's row lock — two at once
 * cannot both take the last of what is owed or was paid — and the order's `paid_amount`,
 * `payment_status` and `is_paid` are worked out again from them in the same transaction
 * (checklist 50: derived, never a flag).
 */
export type LockedOrder = { id: number; status: string; net_amount: string; paid_amount: string; user: number; order_no: string; sales_no: string | null; payment_method: number | null }

export async function lockOrder(trx: Trx, id: number): Promise<LockedOrder | undefined> {
  const found = await sql<LockedOrder>`
    select id, status, net_amount::text, paid_amount::text, "user", order_no, sales_no, payment_method from "order" where id = ${id} for update`.execute(trx)
  return found.rows[0]
}

/** The order's paid amount (payments less refunds) and what follows from it. */
export async function settle(trx: Trx, order: number): Promise<void> {
  await sql`
    update "order" o set paid_amount = s.paid,
      payment_status = case when s.paid <= 0 then 'unpaid' when s.paid >= o.net_amount then 'paid' else 'partial' end,
      is_paid = s.paid > 0 and s.paid >= o.net_amount
    from (select coalesce((select sum(amount) from order_payment where "order" = ${order}), 0)
               - coalesce((select sum(amount) from order_refund where "order" = ${order}), 0) as paid) s
    where o.id = ${order}`.execute(trx)
}

const orderOf = (row: Row | null | undefined) => rowIdValueOf(row?.order)

/** Every order a write touches, locked in id order (a payment moved between two never deadlocks another). */
async function lockTouched(trx: Trx, before: Row | null, values: Row | null): Promise<Map<number, LockedOrder>> {
  const ids = [...new Set([orderOf(before), orderOf(values)].filter((id): id is number => id !== null))].sort((a, b) => a - b)
  const locked = new Map<number, LockedOrder>()
  for (const id of ids) {
    const o = await lockOrder(trx, id)
    if (o) locked.set(id, o)
  }
  return locked
}

/** The ledger a payment method's money is received into (its own; Cash when it names none). */
export async function receivingLedger(trx: Trx, method: number | null): Promise<number> {
  if (method !== null) {
    const found = await sql<{ ledger: number | null }>`select ledger from payment_method where id = ${method}`.execute(trx)
    const ledger = found.rows[0]?.ledger
    if (ledger !== null && ledger !== undefined) return Number(ledger)
  }
  return seededLedger(trx, 'Cash')
}

const changes = (before: Row | null, target: number, field = 'amount') => (orderOf(before) === target ? String(before![field]) : '0')

export const paymentHooks: EntityHooks = {
  async beforeWrite({ trx, before, values }) {
    const locked = await lockTouched(trx, before, values)
    const target = orderOf(values)
    if (!values || target === null) return
    const order = locked.get(target)!
    if (order.status === 'cancelled') throw new ConflictError({ key: 'detail.order_cancelled_payment', params: { number: order.order_no } })
    // Paid by the order's method unless it names one; into that method's ledger unless it names one.
    if (values.payment_method === null || values.payment_method === undefined) values.payment_method = order.payment_method
    if (values.ledger === null || values.ledger === undefined) values.ledger = await receivingLedger(trx, rowIdValueOf(values.payment_method))
    const owed = money.subtract(order.net_amount, money.subtract(order.paid_amount, changes(before, target)))
    if (money.compare(String(values.amount), owed) > 0) throw new ValidationError({ amount: [{ key: 'validation.more_than_owed', params: { owed } }] })
  },
  async afterWrite({ trx, before, after }) {
    for (const id of new Set([orderOf(before), orderOf(after)].filter((id): id is number => id !== null))) await settle(trx, id)
  },
}

export const refundHooks: EntityHooks = {
  async beforeWrite({ trx, before, values }) {
    const locked = await lockTouched(trx, before, values)
    const target = orderOf(values)
    if (!values || target === null) return
    const paid = money.sum([locked.get(target)!.paid_amount, changes(before, target)])
    if (money.compare(String(values.amount), paid) > 0) throw new ValidationError({ amount: [{ key: 'validation.more_than_paid', params: { paid } }] })
  },
  afterWrite: paymentHooks.afterWrite,
}

async function orderHeader(trx: Trx, id: number): Promise<Pick<LockedOrder, 'user' | 'order_no' | 'sales_no'>> {
  return (await sql<LockedOrder>`select "user", order_no, sales_no from "order" where id = ${id}`.execute(trx)).rows[0]!
}

/**
 * Money between the customer and a cash or bank ledger, naming the sale it settles: a
 * payment's receipt (Dr the ledger it came into, Cr the customer), a refund's payment voucher
 * (Dr the customer, Cr the ledger it was paid from).
 */
const moneyPosting =
  (direction: 'in' | 'out', dateField: string): PostingOf =>
  async (args) => {
    const { trx, record } = args
    const order = await orderHeader(trx, Number(record.order))
    const amount = String(record.amount)
    const [cash, customer] = [Number(record.ledger), await customerLedger(args, Number(order.user))]
    const [debit, credit] = direction === 'in' ? [cash, customer] : [customer, cash]
    return {
      date: numberDayOf(record, dateField),
      details: order.order_no,
      refInvoiceNo: order.sales_no,
      lines: [
        { ledger: debit, debit: amount },
        { ledger: credit, credit: amount },
      ],
    }
  }

export const paymentPosting = moneyPosting('in', 'payment_date')
export const refundPosting = moneyPosting('out', 'refund_date')
