import { useTranslation } from 'react-i18next'
import type { Row } from '../../engine/entity-api'
import { useEntity } from '../../engine/entities-context'
import { SingleRefSelect } from '../../engine/widgets/RefSelect'
import type { WidgetProps } from '../../engine/widgets/types'
import { useFormat } from '../../i18n/useFormat'

/** How many are on hand, beside a product in the search: none in red, few in amber. */
function StockMark({ row }: { row: Row }) {
  const { t } = useTranslation()
  const format = useFormat()
  const units = typeof row.in_stock === 'number' ? row.in_stock : null
  if (units === null) return null
  const alert = typeof row.low_stock_alert === 'number' ? row.low_stock_alert : 5
  const tone = units <= 0 ? 'text-red-700 dark:text-red-300' : units <= alert ? 'text-amber-700 dark:text-amber-300' : 'text-slate-500 dark:text-slate-400'
  return <span className={`ms-auto shrink-0 text-xs tabular-nums ${tone}`}>{t('orders.in_stock', { count: units, units: format.integer(units) })}</span>
}

const markStock = (row: Row) => <StockMark row={row} />

/** An order line's product: found by its name, with the units on hand beside each (issue 22). */
export function ProductStockSelect(props: WidgetProps) {
  const product = useEntity('product')!
  return (
    <div className="min-w-52">
      <SingleRefSelect {...props} target={product} markOf={markStock} />
    </div>
  )
}
