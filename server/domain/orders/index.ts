import { sql } from 'kysely'
import { ORDER_STATUSES } from '../../../schema/entities/orders/order-status'
import type { DomainModule } from '../../engine/modules'
import { paymentHooks, paymentPosting, refundHooks, refundPosting } from './payments'
import { sendInvoiceHandler } from './invoice-mail'
import { registerOrderRoutes } from './routes'
import { orderWidgets } from './widgets'
import { orderReportRows, orderSummaryRows } from './order-reports'
import { cancelHandler, confirmHandler, orderHooks, orderMoves, salePosting } from './sale'

/**
 * Orders (issue 22; api-contract §4.9, §5.3; decisions "Orders"): customers' orders with
 * their lines, payments and refunds, all registry documents — the workflow, the stock that
 * leaves on confirmation and the sale it posts are the engine's. This module holds their
 * business rules — the stock check that names what is short, the sale's and payments'
 * postings, the refunds of a cancellation, a line's snapshot — the seeded order statuses,
 * and the contract's storefront routes.
 */
export function ordersModule(): DomainModule {
  return {
    name: 'orders',
    hooks: { order: orderHooks, order_payment: paymentHooks, order_refund: refundHooks },
    actions: { order: { confirm: confirmHandler, cancel: cancelHandler, send_email: sendInvoiceHandler } },
    stockMoves: { order: orderMoves },
    postings: { order: salePosting, order_payment: paymentPosting, order_refund: refundPosting },
    widgets: orderWidgets,
    reports: { order_report: orderReportRows, order_summary_report: orderSummaryRows },
    routes: registerOrderRoutes,
    async onStart({ db, registry }) {
      // The statuses every order's `order_status` follows: whichever is missing is added, in order.
      if (!registry.some((e) => e.name === 'orderstatus')) return
      await sql`insert into orderstatus (name)
        select name from unnest(${[...ORDER_STATUSES]}::text[]) with ordinality as seed(name, n)
        where not exists (select 1 from orderstatus o where o.name = seed.name) order by n
        on conflict (name) do nothing`.execute(db)
    },
  }
}
