import { sql } from 'kysely'
import { isSet, linesIn, money } from '../../../schema/kit'
import type { Row } from '../../db/types'
import { numberDayOf } from '../../engine/numbering'
import type { PostingOf } from '../../engine/posting'
import type { StockMovesOf } from '../../engine/stock-moves'
import { seededLedger } from '../accounting/ledgers'

/**
 * What a stock adjustment (schema/entities/inventory/stock-adjustment.ts) moves and posts.
 * Its lines move as counted (the difference from what is on hand under the lock) or as a
 * change; the journal it posts is the value the kernel actually moved — read back from the
 * stock ledger's rows of the document, which the engine writes before it posts — so the
 * general ledger's Stock In Hand always equals the stock's value.
 */

export const adjustmentMoves: StockMovesOf = ({ record }) =>
  linesIn(record, 'items').map((l) => ({
    product: Number(l.product),
    ...(isSet(l.counted_quantity) ? { counted: Number(l.counted_quantity) } : { quantity: Number(l.quantity) }),
    unitCost: isSet(l.unit_cost) ? String(l.unit_cost) : null,
  }))

/** The value a document's standing stock rows changed the stock by (a decimal string). */
async function valueMoved(trx: Parameters<PostingOf>[0]['trx'], type: string, id: number): Promise<string> {
  const found = await sql<{ total: string | null }>`
    select sum(s.value_change)::text as total from stock_ledger s
    where s.reference_type = ${type} and s.reference_id = ${id} and s.reverses is null
      and not exists (select 1 from stock_ledger r where r.reverses = s.id)`.execute(trx)
  return found.rows[0]?.total ?? '0'
}

export const adjustmentPosting: PostingOf = async ({ trx, record }) => {
  const moved = await valueMoved(trx, 'stock_adjustment', Number((record as Row).id))
  const units = money.toMinor(moved)
  if (units === 0n) return null
  const amount = money.fromMinor(units < 0n ? -units : units)
  const [stock, adjustment] = [await seededLedger(trx, 'Stock In Hand'), await seededLedger(trx, 'Stock Adjustment')]
  const [debit, credit] = units > 0n ? [stock, adjustment] : [adjustment, stock]
  return {
    date: numberDayOf(record, 'adjustment_date'),
    details: typeof record.reason === 'string' ? record.reason : null,
    lines: [
      { ledger: debit, debit: amount },
      { ledger: credit, credit: amount },
    ],
  }
}
