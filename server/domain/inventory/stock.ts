import { sql } from 'kysely'
import type { Message } from '../../../schema/kit'
import { fromMinor, toMinor } from '../../../schema/kit/money'
import { utcDay } from '../../../schema/kit/dates'
import { isCalendarDate } from '../../../schema/kit/validators'
import type { Executor, Trx } from '../../db/types'
import { ConflictError, ValidationError } from '../../engine/errors'
import type { StockMovement } from '../../engine/stock-moves'
import { isShortfall, issue, rateFromText, rateToText, receive, reverse, unitRateOf, type Moved, type Shortfall, type StockState } from './valuation'

/**
 * The stock kernel: the only writer of the stock ledger (`stock_ledger`) and of each
 * product's stock (`inventory`), modelled on the posting service of the general ledger
 * (server/domain/accounting/posting.ts). A document moves stock through `moveStock`, inside
 * its own transaction: the products' stock rows are locked in product order (two documents
 * never wait for each other in a circle), every movement is judged against what is on hand
 * — no issue of more than that, no movement dated before the product's last — and valued
 * at the moving average (valuation.ts); one refusal throws before anything is written, so
 * the caller's transaction holds nothing of it. A cancelled document calls `reverseStock`:
 * rows are never changed (the database refuses: the entity is `appendOnly`), they are
 * undone by opposite rows, refused while what they brought in has already gone out.
 */

/** A line of a document as it moves stock: units in (+, at a unit cost) or out (−), or a count (see the engine's StockMovement). */
export type { StockMovement } from '../../engine/stock-moves'

/** The document that moves the stock: what the ledger's rows name. */
export type StockDocument = {
  /** The moving entity's name (`stock_adjustment`, `purchase_final`): one of the stock ledger's `reference_type` options. */
  type: string
  id: number
  /** Its number (`SA20261127001`). */
  number: string
  /** `YYYY-MM-DD`. */
  date: string
}

/** Where a problem is reported in the 400's field map: the names of the caller's body (`items.2.quantity`). */
export type StockFieldNames = { lines: string; product: string; quantity: string; counted: string; unitCost: string; date: string }

export const defaultStockFieldNames: StockFieldNames = { lines: 'items', product: 'product', quantity: 'quantity', counted: 'counted_quantity', unitCost: 'unit_cost', date: 'date' }

/** A stock-ledger row as written (decimals as strings). */
export type StockRow = {
  id: number
  product: number
  movement_date: string
  quantity: number
  unit_cost: string
  value_change: string
  quantity_after: number
  valuation_rate_after: string
  stock_value_after: string
  reference_type: string
  reference_id: number
  reference_no: string
  reverses: number | null
  /** The place, in what `moveStock` was given, of the movement the row is (not for reversals). */
  movement?: number
}

export type StockOptions = { actor?: number | null; fieldNames?: Partial<StockFieldNames> }

/** Units a document may move on one line: well inside what any sum of them can hold. */
export const MAX_UNITS = 1_000_000_000
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0
const RATE = /^\d{1,14}(\.\d{0,4})?$/

type Locked = { id: number; name: string; quantity: number; valuation_rate: string; stock_value: string; last_movement_date: string | null }

const stateOf = (row: Locked): StockState => ({ quantity: BigInt(row.quantity), rate: rateFromText(row.valuation_rate), value: toMinor(row.stock_value) })

/**
 * Gives products their stock row (nothing on hand) where they have none: the given ones, or
 * every product. In product order, so that two callers never wait for each other in a circle.
 */
export async function openStock(db: Executor, products?: readonly number[]): Promise<void> {
  await sql`
    insert into inventory (id, product) select p.id, p.id from product p
    ${products ? sql`where p.id = any(${[...products]}::bigint[])` : sql``} order by p.id
    on conflict (id) do nothing`.execute(db)
}

/**
 * Makes sure each product has its stock row and locks them all, in product order, for the
 * rest of the transaction. Products that do not exist have none: the caller refuses them.
 */
async function lockStock(trx: Trx, products: readonly number[]): Promise<Map<number, Locked>> {
  const ids = [...new Set(products)].sort((a, b) => a - b)
  if (ids.length === 0) return new Map()
  await openStock(trx, ids)
  const rows = await sql<Locked>`
    select i.id, p.name, i.quantity, i.valuation_rate, i.stock_value, i.last_movement_date
    from inventory i join product p on p.id = i.id
    where i.id = any(${ids}::bigint[]) order by i.id for update of i`.execute(trx)
  return new Map(rows.rows.map((r) => [r.id, r]))
}

const shortfallMessage = (name: string, short: Shortfall, asked: bigint): Message => ({
  key: 'validation.insufficient_stock',
  params: { product: name, on_hand: Number(short.onHand), asked: Number(asked) },
})

/** Writes the rows and the products' new stock; `moves` are in the order they were applied. */
async function write(
  trx: Trx,
  document: StockDocument,
  moves: ReadonlyArray<{ product: number; quantity: bigint; unitCost: bigint; moved: Moved; reverses?: number }>,
  actor: number | null,
): Promise<StockRow[]> {
  // A count that found what was on hand moves nothing.
  if (moves.length === 0) return []
  const values = moves.map(
    (m) => sql`(${m.product}::bigint, ${document.date}::date, ${String(m.quantity)}::bigint, ${rateToText(m.unitCost)}::numeric, ${fromMinor(m.moved.valueChange)}::numeric,
      ${String(m.moved.state.quantity)}::bigint, ${rateToText(m.moved.state.rate)}::numeric, ${fromMinor(m.moved.state.value)}::numeric,
      ${document.type}, ${document.id}::bigint, ${document.number}, ${m.reverses ?? null}::bigint, ${actor}::bigint, ${actor}::bigint)`,
  )
  const inserted = await sql<StockRow>`
    insert into stock_ledger (product, movement_date, quantity, unit_cost, value_change, quantity_after, valuation_rate_after, stock_value_after,
      reference_type, reference_id, reference_no, reverses, created_by, updated_by)
    values ${sql.join(values)}
    returning id, product, movement_date, quantity, unit_cost, value_change, quantity_after, valuation_rate_after, stock_value_after, reference_type, reference_id, reference_no, reverses`.execute(trx)
  // Each product ends where its last movement left it.
  const last = new Map(moves.map((m) => [m.product, m.moved.state]))
  for (const [product, state] of last) {
    await sql`
      update inventory set quantity = ${String(state.quantity)}::bigint, valuation_rate = ${rateToText(state.rate)}::numeric, stock_value = ${fromMinor(state.value)}::numeric,
        last_movement_date = greatest(coalesce(last_movement_date, ${document.date}::date), ${document.date}::date), updated_at = now(), updated_by = ${actor}::bigint
      where id = ${product}`.execute(trx)
  }
  return [...inserted.rows].sort((a, b) => a.id - b.id)
}

/**
 * Moves stock for a document, in the caller's transaction: receipts in at their unit cost,
 * issues out at the moving average, each line against what the lines before it left. A 400
 * field map names every line that cannot move (an unknown product, a quantity that is not a
 * whole number of units, a cost that is not a decimal of four places, more out than is on
 * hand, a day before the product's last movement), and nothing is written.
 */
export async function moveStock(trx: Trx, document: StockDocument, movements: readonly StockMovement[], options: StockOptions = {}): Promise<StockRow[]> {
  const names = { ...defaultStockFieldNames, ...options.fieldNames }
  const errors: Record<string, Message[]> = {}
  const refuse = (field: string, message: Message) => (errors[field] ??= []).push(message)
  const at = (i: number, field: string) => `${names.lines}.${i}.${field}`
  if (!isCalendarDate(document.date)) refuse(names.date, { key: 'validation.date', params: { label: 'field.movement_date' } })
  if (movements.length === 0) refuse(names.lines, { key: 'validation.lines_min', params: { min: 1 } })
  const isCost = (v: unknown) => typeof v === 'string' && RATE.test(v.trim())
  movements.forEach((m, i) => {
    if (!isId(m.product)) refuse(at(i, names.product), { key: 'validation.ref', params: { label: 'field.product' } })
    // A cost only for units that come in; none given: they come in at the moving average (units found).
    if (m.unitCost !== undefined && m.unitCost !== null && m.unitCost !== '' && !isCost(m.unitCost)) refuse(at(i, names.unitCost), { key: 'validation.decimal', params: { scale: 4, whole: 14 } })
    if (m.counted !== undefined) {
      // A count: what was found, from nothing up.
      if (!Number.isSafeInteger(m.counted) || m.counted < 0 || m.counted > MAX_UNITS) refuse(at(i, names.counted), { key: 'validation.stock_count', params: { max: MAX_UNITS } })
      return
    }
    const quantity = m.quantity ?? 0
    if (!Number.isSafeInteger(quantity) || quantity === 0 || Math.abs(quantity) > MAX_UNITS) refuse(at(i, names.quantity), { key: 'validation.stock_quantity', params: { max: MAX_UNITS } })
  })
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)

  const stock = await lockStock(trx, movements.map((m) => m.product))
  const states = new Map([...stock].map(([id, row]) => [id, stateOf(row)]))
  const moves: Array<{ product: number; quantity: bigint; unitCost: bigint; moved: Moved; index: number }> = []
  // Applied in product order (as locked), each product's lines in the document's order.
  const order = movements.map((m, i) => ({ m, i })).sort((a, b) => a.m.product - b.m.product || a.i - b.i)
  for (const { m, i } of order) {
    const row = stock.get(m.product)
    if (!row) {
      refuse(at(i, names.product), { key: 'validation.ref', params: { label: 'field.product' } })
      continue
    }
    if (row.last_movement_date !== null && row.last_movement_date > document.date) {
      refuse(at(i, names.product), { key: 'validation.stock_backdated', params: { product: row.name, date: row.last_movement_date } })
      continue
    }
    const state = states.get(m.product)!
    // A count moves what differs from what is on hand now (under the lock): nothing when equal.
    const quantity = m.counted !== undefined ? BigInt(m.counted) - state.quantity : BigInt(m.quantity!)
    if (quantity === 0n) continue
    const unitCost = quantity > 0n && m.unitCost ? rateFromText(m.unitCost.trim()) : state.rate
    const moved = quantity > 0n ? receive(state, quantity, unitCost) : issue(state, -quantity)
    if (isShortfall(moved)) {
      refuse(at(i, m.counted !== undefined ? names.counted : names.quantity), shortfallMessage(row.name, moved, -quantity))
      continue
    }
    states.set(m.product, moved.state)
    moves.push({ product: m.product, quantity, unitCost, moved, index: i })
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  // The rows come back in the order written (their ids), which is the order of `moves`.
  const rows = await write(trx, document, moves, options.actor ?? null)
  return rows.map((row, k) => ({ ...row, movement: moves[k]!.index }))
}

/**
 * Undoes what a document moved and still stands (not reversed yet, not a reversal): for
 * each of its rows, an opposite one dated `date` (today by default) that takes out or puts
 * back exactly the quantity and the value it changed, naming it in `reverses`. A 409 names
 * the product whose stock has already gone out (a purchase whose goods were sold) and
 * nothing is written; another 409 when nothing of the document stands.
 */
export async function reverseStock(trx: Trx, document: Pick<StockDocument, 'type' | 'id'>, options: { date?: string; actor?: number | null } = {}): Promise<StockRow[]> {
  const date = options.date ?? utcDay()
  if (!isCalendarDate(date)) throw new ValidationError({ date: [{ key: 'validation.date', params: { label: 'field.movement_date' } }] })
  // Two cancellations of one document wait for each other: the second finds nothing standing.
  await sql`select pg_advisory_xact_lock(hashtextextended(${`stock_ledger:${document.type}:${document.id}`}, 0))`.execute(trx)
  const standing = await sql<StockRow>`
    select s.id, s.product, s.quantity, s.value_change, s.reference_no from stock_ledger s
    where s.reference_type = ${document.type} and s.reference_id = ${document.id} and s.reverses is null
      and not exists (select 1 from stock_ledger r where r.reverses = s.id)
    order by s.id`.execute(trx)
  if (standing.rows.length === 0) throw new ConflictError({ key: 'detail.stock_nothing_stands' })
  const stock = await lockStock(trx, standing.rows.map((r) => r.product))
  const states = new Map([...stock].map(([id, row]) => [id, stateOf(row)]))
  const moves: Array<{ product: number; quantity: bigint; unitCost: bigint; moved: Moved; reverses: number }> = []
  for (const row of [...standing.rows].sort((a, b) => a.product - b.product || a.id - b.id)) {
    const state = states.get(row.product)!
    const moved = reverse(state, BigInt(row.quantity), toMinor(row.value_change))
    if (isShortfall(moved)) {
      throw new ConflictError({ key: 'detail.stock_already_used', params: { product: stock.get(row.product)!.name, short: Number(moved.shortBy) } })
    }
    const locked = stock.get(row.product)!
    if (locked.last_movement_date !== null && locked.last_movement_date > date) {
      throw new ValidationError({ date: [{ key: 'validation.stock_backdated', params: { product: locked.name, date: locked.last_movement_date } }] })
    }
    states.set(row.product, moved.state)
    const quantity = -BigInt(row.quantity)
    // The cost of one unit as it comes back or goes out.
    moves.push({ product: row.product, quantity, unitCost: unitRateOf(moved.valueChange, quantity), moved, reverses: row.id })
  }
  return write(trx, { type: document.type, id: document.id, number: standing.rows[0]!.reference_no, date }, moves, options.actor ?? null)
}

/** A product's stock as the contract's `check_by_product_id` answers it. */
export async function stockOf(db: Executor, product: number): Promise<{ in_stock: number; is_in_stock: boolean }> {
  const row = await sql<{ quantity: number }>`select quantity from inventory where id = ${product}`.execute(db)
  const inStock = Number(row.rows[0]?.quantity ?? 0)
  return { in_stock: inStock, is_in_stock: inStock > 0 }
}

/** What stands of a document: its rows not reversed (and not reversals), as movements of whole units. */
export async function standingStock(db: Executor, document: Pick<StockDocument, 'type' | 'id'>): Promise<StockMovement[]> {
  const rows = await sql<{ product: number; quantity: number; unit_cost: string }>`
    select s.product, s.quantity, s.unit_cost from stock_ledger s
    where s.reference_type = ${document.type} and s.reference_id = ${document.id} and s.reverses is null
      and not exists (select 1 from stock_ledger r where r.reverses = s.id)
    order by s.id`.execute(db)
  return rows.rows.map((r) => ({ product: r.product, quantity: r.quantity, unitCost: r.unit_cost }))
}

/** The value a document's standing stock rows changed the stock by (a decimal string; out is negative). */
export async function valueMoved(db: Executor, type: string, id: number): Promise<string> {
  const found = await sql<{ total: string | null }>`
    select sum(s.value_change)::text as total from stock_ledger s
    where s.reference_type = ${type} and s.reference_id = ${id} and s.reverses is null
      and not exists (select 1 from stock_ledger r where r.reverses = s.id)`.execute(db)
  return found.rows[0]?.total ?? '0'
}
