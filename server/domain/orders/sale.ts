import { sql } from 'kysely'
import { isSet, linesIn, money } from '../../../schema/kit'
import { rowIdValueOf } from '../../../schema/kit/validators'
import type { Row, Trx } from '../../db/types'
import { ConflictError, ValidationError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'
import { notify } from '../../engine/notify'
import { numberDayOf } from '../../engine/numbering'
import type { PostingOf } from '../../engine/posting'
import { createRow, updateRow, type ActionHandler } from '../../engine/service'
import type { StockMovesOf } from '../../engine/stock-moves'
import { seededLedger } from '../accounting/ledgers'
import { openStock, valueMoved } from '../inventory/stock'
import { customerLedger } from './ledgers'
import { settle } from './payments'

/**
 * An order's sale (schema/entities/orders/order.ts; decisions "Orders"). The engine confirms
 * it — the status, then the goods out (its `moves`, each line's cost kept on the line) and
 * the sale (its `posts`), in the action's transaction; this module says what they are,
 * checks the stock first so a shortfall is a 409 naming the product, takes what is paid with
 * the confirmation, and refunds what was paid when it is cancelled.
 */

/** Each line's units out, at the moving average (the kernel's): the line's id goes with it, for its cost. */
export const orderMoves: StockMovesOf = ({ record }) =>
  linesIn(record, 'order_items').map((l) => ({ product: Number(l.product), quantity: -Number(l.quantity), line: Number(l.id) }))

/**
 * The sale (checklist 49): Dr the customer for what they owe; Cr Company Sales for the goods
 * less the discount, Shipping Charges and Output Tax for the rest; and the cost of the goods
 * as the stock ledger took them out — Dr Cost of Goods Sold, Cr Stock In Hand — so the books'
 * stock always equals the stock's value. Lines of nothing are left out.
 */
export const salePosting: PostingOf = async (args) => {
  const { trx, record } = args
  const cost = money.subtract('0', await valueMoved(trx, 'order', Number(record.id)))
  const goods = money.subtract(String(record.items_total), String(record.discount_amount ?? '0'))
  const lines = [
    { ledger: await customerLedger(args, Number(record.user)), debit: String(record.net_amount) },
    { ledger: await seededLedger(trx, 'Company Sales'), credit: goods },
    { ledger: await seededLedger(trx, 'Shipping Charges'), credit: String(record.shipping_price ?? '0') },
    { ledger: await seededLedger(trx, 'Output Tax'), credit: String(record.tax_price ?? '0') },
    { ledger: await seededLedger(trx, 'Cost of Goods Sold'), debit: cost },
    { ledger: await seededLedger(trx, 'Stock In Hand'), credit: cost },
  ].filter((l) => !money.isZero(l.debit ?? l.credit))
  if (lines.length === 0) return null
  return { date: numberDayOf(record, 'confirmed_at'), details: typeof record.order_no === 'string' ? record.order_no : null, lines }
}

type Wanted = { product: number; name: string; quantity: number; on_hand: number }

/**
 * Every product of the order with the units asked and on hand, its stock row locked — in
 * product order, as the stock kernel locks them, so two confirmations never wait for each
 * other in a circle. Held to the end of the transaction: nobody takes the units in between.
 */
async function lockWanted(trx: Trx, order: number): Promise<Wanted[]> {
  const wanted = await sql<{ product: number; quantity: string }>`
    select product, sum(quantity)::text as quantity from orderitem where "order" = ${order} group by product order by product`.execute(trx)
  const ids = wanted.rows.map((w) => Number(w.product))
  await openStock(trx, ids)
  const locked = await sql<{ id: number; name: string; quantity: string }>`
    select p.id, p.name, i.quantity::text as quantity from inventory i join product p on p.id = i.id
    where i.id = any(${ids}::bigint[]) order by i.id for update of i`.execute(trx)
  const stock = new Map(locked.rows.map((r) => [Number(r.id), r]))
  return wanted.rows.map((w) => ({ product: Number(w.product), name: stock.get(Number(w.product))?.name ?? '', quantity: Number(w.quantity), on_hand: Number(stock.get(Number(w.product))?.quantity ?? 0) }))
}

/**
 * The confirmation's own part, before the engine moves the status and the stock: every
 * product's stock checked under its lock (a 409 naming the first one short and what is on
 * hand; nothing is taken), and what is paid now taken as a payment.
 */
export const confirmHandler: ActionHandler = async ({ trx, id, row, input, registry, hooks, actor, engine }) => {
  for (const want of await lockWanted(trx, id)) {
    if (want.on_hand < want.quantity) {
      throw new ConflictError({ key: 'detail.order_stock_short', params: { product: want.name, available: want.on_hand, asked: want.quantity } })
    }
  }
  // Those who handle orders hear of it (issue 23), but whoever confirmed it.
  const order = registry.find((e) => e.name === 'order')!
  const message = { key: 'notification.order_confirmed', params: { number: String(row.order_no ?? id) } }
  await notify(trx, registry, hooks, { to: { permission: order.permissions.LIST }, kind: 'order_confirmed', message, entity: order.name, recordId: id, except: actor?.id })
  const method = rowIdValueOf(input.payment_method)
  // The method it is paid by becomes the order's, through the engine (judged, audited).
  if (method !== null) await updateRow(engine(order), id, { payment_method: method })
  const amount = String(input.pay_amount ?? '0')
  if (money.toMinor(amount) <= 0n) return
  const reference = [input.bkash, input.rocket, input.nagad].find(isSet) ?? null
  const payment = registry.find((e) => e.name === 'order_payment')!
  await createRow(engine(payment), {
    order: id,
    amount,
    payment_method: method ?? row.payment_method ?? null,
    ledger: input.ledger ?? null,
    reference,
  }).catch((e: unknown) => {
    // The payment's field is the confirmation's `pay_amount`.
    if (e instanceof ValidationError && e.fields.amount) throw new ValidationError({ pay_amount: e.fields.amount })
    throw e
  })
}

/**
 * A cancellation gives back what was paid (checklist 48): a refund per ledger the money came
 * into, of what that ledger still holds of the order's — before the engine moves the status,
 * brings the goods back at the cost they left at and reverses the sale, all in one transaction.
 */
export const cancelHandler: ActionHandler = async ({ trx, id, registry, engine }) => {
  const held = await sql<{ ledger: number; amount: string }>`
    select ledger, sum(amount)::text as amount from (
      select ledger, amount from order_payment where "order" = ${id}
      union all select ledger, -amount from order_refund where "order" = ${id}) m
    group by ledger having sum(amount) > 0 order by ledger`.execute(trx)
  const refund = registry.find((e) => e.name === 'order_refund')!
  for (const h of held.rows) await createRow(engine(refund), { order: id, amount: h.amount, ledger: h.ledger })
  await settle(trx, id)
}

/** Names and default prices of the products a document's lines name. */
async function productsOf(trx: Trx, ids: readonly number[]): Promise<Map<number, { name: string; unit_price: string }>> {
  if (ids.length === 0) return new Map()
  const found = await sql<{ id: number; name: string; unit_price: string }>`select id, name, unit_price::text from product where id = any(${[...ids]}::bigint[])`.execute(trx)
  return new Map(found.rows.map((r) => [Number(r.id), r]))
}

const productIdsOf = (lines: ReadonlyArray<Row>) => [...new Set(lines.map((l) => rowIdValueOf(l.product)).filter((id): id is number => id !== null))]

export const orderHooks: EntityHooks = {
  /**
   * Each line keeps the product's name as it was sold (checklist 45): set when the line is
   * written new or names another product. A changed order never owes less than was paid.
   */
  async beforeWrite({ trx, before, values }) {
    if (!values) return
    const lines = linesIn(values, 'order_items') as Row[]
    const stored = new Map(linesIn(before ?? {}, 'order_items').map((l) => [Number(l.id), l]))
    const renamed = lines.filter((l) => {
      const was = isSet(l.id) ? stored.get(Number(l.id)) : undefined
      return !was || rowIdValueOf(was.product) !== rowIdValueOf(l.product) || !isSet(was.product_name)
    })
    const products = await productsOf(trx, productIdsOf(renamed))
    for (const line of renamed) line.product_name = products.get(rowIdValueOf(line.product) ?? -1)?.name ?? null
    if (before && values.net_amount !== undefined) {
      const paid = String(before.paid_amount ?? '0')
      if (money.compare(String(values.net_amount), paid) < 0) throw new ValidationError({ order_items: [{ key: 'validation.below_paid', params: { paid } }] })
    }
  },
}
