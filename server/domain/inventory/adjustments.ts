import { isSet, linesIn, money } from '../../../schema/kit'
import type { Row } from '../../db/types'
import { numberDayOf } from '../../engine/numbering'
import type { PostingOf } from '../../engine/posting'
import type { StockMovesOf } from '../../engine/stock-moves'
import { seededLedger } from '../accounting/ledgers'
import { valueMoved } from './stock'

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
