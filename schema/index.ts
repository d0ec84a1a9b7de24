/**
 * The entity registry: every generic table, endpoint, permission, route and screen
 * is derived from the entities listed here. Adding an entity is one file plus one line.
 */
import type { Entity, Fields, InputOf, ValuesOf, AuditColumns, Report } from './kit'
import { country } from './entities/geo/country'
import { city } from './entities/geo/city'
import { thana } from './entities/geo/thana'
import { branch } from './entities/org/branch'
import { department } from './entities/org/department'
import { designation } from './entities/org/designation'
import { customerType } from './entities/sales/customer-type'
import { customer } from './entities/sales/customer'
import { vendor } from './entities/sales/vendor'
import { billingAddress, shippingAddress } from './entities/sales/shipping-address'
import { orderStatus } from './entities/orders/order-status'
import { order, orderPayment, orderRefund } from './entities/orders/order'
import { user } from './entities/identity/user'
import { employee } from './entities/identity/employee'
import { qualification } from './entities/identity/qualification'
import { permission } from './entities/identity/permission'
import { role } from './entities/identity/role'
import { menuItem } from './entities/identity/menu-item'
import { roleMenu } from './entities/identity/role-menu'
import { generalSetting } from './entities/settings/general-setting'
import { homepageSlider } from './entities/settings/homepage-slider'
import { outboxMessage } from './entities/workspace/outbox-message'
import { notification } from './entities/workspace/notification'
import { note } from './entities/workspace/note'
import { savedView } from './entities/workspace/saved-view'
import { primaryGroup } from './entities/accounting/primary-group'
import { group } from './entities/accounting/group'
import { ledgerAccount } from './entities/accounting/ledger-account'
import { subLedgerAccount } from './entities/accounting/sub-ledger-account'
import { accountLog } from './entities/accounting/account-log'
import { vouchers } from './entities/accounting/vouchers'
import { category } from './entities/catalogue/category'
import { brand } from './entities/catalogue/brand'
import { manufacturer } from './entities/catalogue/manufacturer'
import { color } from './entities/catalogue/color'
import { size } from './entities/catalogue/size'
import { product } from './entities/catalogue/product'
import { productImage } from './entities/catalogue/product-image'
import { inventory } from './entities/inventory/inventory'
import { stockLedger } from './entities/inventory/stock-ledger'
import { purchaseStatus } from './entities/inventory/purchase-status'
import { stockAdjustment } from './entities/inventory/stock-adjustment'
import { purchaseRequest, purchaseReqItemImage } from './entities/purchasing/purchase-request'
import { purchaseFinal, purchasePayment } from './entities/purchasing/purchase-final'
import { discount } from './entities/catalogue/discount'
import { cmsMenu } from './entities/cms/cms-menu'
import { cmsMenuContent } from './entities/cms/cms-menu-content'
import { cmsMenuContentImage } from './entities/cms/cms-menu-content-image'
import { itinerary } from './entities/cms/itinerary'
import { metaData } from './entities/cms/meta-data'
import { cancellation, duration, language, location } from './entities/cms/tour-lookups'
import { blogCategory } from './entities/cms/blog-category'
import { blog } from './entities/cms/blog'
import { member } from './entities/membership/member'
import { executiveMember, adviserMember, generalMember } from './entities/membership/member-kinds'
import { monthlySubscription } from './entities/membership/monthly-subscription'
import { paymentMethod } from './entities/membership/payment-method'
import { cause } from './entities/membership/cause'
import { causeContent } from './entities/membership/cause-content'
import { causeContentImage } from './entities/membership/cause-content-image'
import { donation } from './entities/membership/donation'
import { causeDonation } from './entities/membership/cause-donation'
import { ticketDepartment, ticketPriority, ticketStatus } from './entities/tickets/ticket-lookups'
import { ticket, ticketDetail } from './entities/tickets/ticket'
import { changeLog } from './reports/change-log'
import { staffCosts } from './reports/staff-costs'
import { ledgerReport } from './reports/ledger-report'
import { accountStatement, accountStatementSummary } from './reports/account-statement'
import { trialBalance } from './reports/trial-balance'
import { balanceSheet, profitLoss } from './reports/financial-statements'
import { orderReport, orderSummaryReport } from './reports/order-reports'
import { contraReport, paymentReport, paymentSummaryReport, purchaseVoucherReport, purchaseVoucherSummaryReport, receiptReport, receiptSummaryReport, salesReport, salesSummaryReport } from './reports/voucher-reports'
import { stockReport } from './reports/stock-report'
import { purchaseFinalReport, purchaseRequestSummaryReport } from './reports/purchase-reports'
import { dashboardWidgets } from './dashboards'
import type { Widget } from './kit/widget'

export const registry = {
  country,
  city,
  thana,
  branch,
  department,
  designation,
  customer_type: customerType,
  user,
  employee,
  customer,
  vendor,
  shippingaddress: shippingAddress,
  qualification,
  permission,
  role,
  menu_item: menuItem,
  role_menu: roleMenu,
  general_setting: generalSetting,
  homepage_slider: homepageSlider,
  outbox_message: outboxMessage,
  notification,
  note,
  saved_view: savedView,
  primary_group: primaryGroup,
  group,
  ledger_account: ledgerAccount,
  sub_ledger_account: subLedgerAccount,
  account_log: accountLog,
  payment_voucher: vouchers.payment_voucher,
  receipt_voucher: vouchers.receipt_voucher,
  sales: vouchers.sales,
  purchase: vouchers.purchase,
  contra: vouchers.contra,
  journal: vouchers.journal,
  category,
  brand,
  manufacturer,
  color,
  size,
  product,
  productimage: productImage,
  inventory,
  stock_ledger: stockLedger,
  purchase_status: purchaseStatus,
  stock_adjustment: stockAdjustment,
  purchase_request: purchaseRequest,
  purchase_req_item_image: purchaseReqItemImage,
  purchase_final: purchaseFinal,
  purchase_payment: purchasePayment,
  discount,
  cms_menu: cmsMenu,
  cms_menu_content: cmsMenuContent,
  cms_menu_content_image: cmsMenuContentImage,
  cms_itinerary: itinerary,
  cms_meta_data: metaData,
  language,
  cancellation,
  location,
  duration,
  cms_blog_category: blogCategory,
  cms_blog: blog,
  member,
  executive_member: executiveMember,
  adviser_member: adviserMember,
  general_member: generalMember,
  monthly_subscription: monthlySubscription,
  payment_method: paymentMethod,
  cause,
  cause_content: causeContent,
  cause_content_image: causeContentImage,
  donation,
  cause_donation: causeDonation,
  orderstatus: orderStatus,
  order,
  order_payment: orderPayment,
  order_refund: orderRefund,
  billingaddress: billingAddress,
  ticket_department: ticketDepartment,
  ticket_priority: ticketPriority,
  ticket_status: ticketStatus,
  ticket,
  ticket_detail: ticketDetail,
} as const

export type Registry = typeof registry
export type EntityName = keyof Registry
type FieldsOf<N extends EntityName> = Registry[N] extends Entity<string, infer F> ? F : never

/** What a client sends to `create/` for entity N. */
export type EntityInput<N extends EntityName> = InputOf<FieldsOf<N>>
/** A stored row as `{id}` returns it (references as raw ids). */
export type EntityRow<N extends EntityName> = ValuesOf<FieldsOf<N>> & AuditColumns

/**
 * Every entity with its line entities (the children of documents' `f.lines` fields, which
 * need not be listed above), field types erased, for the generic engine that walks them all.
 */
export function withLineEntities(list: readonly Entity<string, Fields>[]): Entity<string, Fields>[] {
  const out: Entity<string, Fields>[] = []
  const add = (e: Entity<string, Fields>) => {
    if (out.includes(e)) return
    out.push(e)
    for (const name of e.linesFieldNames) add(e.fields[name]!.lines!.entity)
  }
  list.forEach(add)
  return out
}

export const entities: readonly Entity<string, Fields>[] = withLineEntities(Object.values(registry))

/** The registry's reports (schema/reports/); their rows come from the domain modules. */
export const reportRegistry = {
  staff_costs: staffCosts,
  change_log: changeLog,
  ledger_report: ledgerReport,
  account_statement: accountStatement,
  account_statement_summary: accountStatementSummary,
  trial_balance: trialBalance,
  profit_loss: profitLoss,
  balance_sheet: balanceSheet,
  stock_report: stockReport,
  purchase_final_report: purchaseFinalReport,
  purchase_request_summary_report: purchaseRequestSummaryReport,
  payment_report: paymentReport,
  payment_summary_report: paymentSummaryReport,
  receipt_report: receiptReport,
  receipt_summary_report: receiptSummaryReport,
  order_report: orderReport,
  order_summary_report: orderSummaryReport,
  sales_report: salesReport,
  sales_summary_report: salesSummaryReport,
  purchase_voucher_report: purchaseVoucherReport,
  purchase_voucher_summary_report: purchaseVoucherSummaryReport,
  contra_report: contraReport,
} as const

export const reports: readonly Report[] = Object.values(reportRegistry)

/** The dashboards' widgets (schema/dashboards/); their data come from the domain modules. */
export const widgets: readonly Widget[] = dashboardWidgets

export function entityByName(name: string): Entity<string, Fields> | undefined {
  return entities.find((e) => e.name === name)
}

export { checkRegistry, RegistryError, type RegistryProblem } from './check'
export { navigationEntries, navGroups, navPages, type NavEntry, type NavGroup, type NavPage } from './navigation'
