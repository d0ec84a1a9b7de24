import { sql } from 'kysely'
import { linesIn, money } from '../../../schema/kit'
import { ValidationError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'
import { numberDayOf } from '../../engine/numbering'
import type { PostingOf } from '../../engine/posting'
import { createRow, deleteRow, type ActionHandler } from '../../engine/service'
import type { StockMovesOf } from '../../engine/stock-moves'
import { seededLedger } from '../accounting/ledgers'
import { settle } from './payments'
import { vendorLedger } from './ledgers'

/**
 * A final purchase's confirmation and cancellation (schema/entities/purchasing/purchase-final.ts).
 * The engine confirms it — status, then the goods in (its `moves`) and the payable bill (its
 * `posts`), in the action's transaction; this module says what they are, and adds the
 * payment for what is paid now. A cancellation first takes back its payments (their vouchers
 * reversed), then the engine undoes the stock — refused while its goods have gone out, which
 * rolls all of it back — and the bill.
 */

export const purchaseMoves: StockMovesOf = ({ record }) =>
  linesIn(record, 'items').map((l) => ({ product: Number(l.product), quantity: Number(l.quantity), unitCost: String(l.unit_price) }))

/** The payable bill (checklist 37): Dr Stock In Hand for the goods at cost, Cr the vendor's own ledger. */
export const billPosting: PostingOf = async ({ trx, registry, hooks, actor, record }) => {
  // The purchase's own total (its lines' totals, as stored with it): what its goods came in at.
  const total = String(record.total_price)
  return {
    date: numberDayOf(record, 'purchase_date'),
    details: typeof record.invoice_no === 'string' ? record.invoice_no : null,
    lines: [
      { ledger: await seededLedger(trx, 'Stock In Hand'), debit: total },
      { ledger: await vendorLedger({ trx, registry, hooks, actor }, Number(record.vendor)), credit: total },
    ],
  }
}

/**
 * What is paid at the confirmation: a purchase payment, made before the status moves (a
 * payment may be made against a purchase that is not cancelled — before its goods arrive,
 * an advance, as ERPNext pays against a purchase order), in the confirmation's transaction.
 */
export const confirmHandler: ActionHandler = async ({ id, row, input, registry, engine }) => {
  const amount = String(input.paid_amount ?? '0')
  if (money.toMinor(amount) <= 0n) return
  const owed = money.subtract(String(row.total_price), String(row.paid_amount ?? '0'))
  if (money.compare(amount, owed) > 0) throw new ValidationError({ paid_amount: [{ key: 'validation.more_than_owed', params: { owed } }] })
  const payment = registry.find((e) => e.name === 'purchase_payment')!
  await createRow(engine(payment), { purchase_final: id, amount, ledger: input.ledger, payment_date: numberDayOf(row, 'purchase_date') })
}

export const purchaseHooks: EntityHooks = {
  /** A draft changed never owes less than has been paid against it. */
  beforeWrite({ before, values }) {
    if (!before || !values || values.total_price === undefined) return
    const paid = String(before.paid_amount ?? '0')
    if (money.compare(String(values.total_price), paid) < 0) throw new ValidationError({ items: [{ key: 'validation.below_paid', params: { paid } }] })
  },
}

/** A cancellation takes back the purchase's payments first: their vouchers are reversed with them. */
export const cancelHandler: ActionHandler = async ({ trx, id, registry, engine }) => {
  const payments = await sql<{ id: number }>`select id from purchase_payment where purchase_final = ${id} order by id`.execute(trx)
  const payment = registry.find((e) => e.name === 'purchase_payment')!
  for (const p of payments.rows) await deleteRow(engine(payment), Number(p.id))
  await settle(trx, id)
}
