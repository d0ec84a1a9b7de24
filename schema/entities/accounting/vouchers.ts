import { defineEntity, f } from '../../kit'
import type { LogType } from './account-log'

/**
 * The six vouchers (api-contract §4.7), declared once as data: each is a line table (one row
 * per ledger line, the lines of one voucher sharing `invoice_no`) whose create, update, list
 * and deletes are the accounting module's (server/domain/accounting/voucher-routes.ts): a
 * voucher is posted to the general ledger as it is written, changed by reversal and repost,
 * cancelled with reversing rows (decisions.md "Accounting").
 */
export type VoucherSpec = {
  /** Entity name, API path and log type: the contract names them alike. */
  readonly kind: LogType
  readonly listKey: string
  readonly dateField: string
  readonly prefix: string
  /** The screens (product-spec "Extra routes"): list at `/apps/<area>/<list>`, a voucher at `/apps/<area>/<form>/{id}`. */
  readonly route: { readonly area: string; readonly list: string; readonly form: string }
  /** The by-invoice route's name (sales answers at the receipt voucher's, as the original). */
  readonly byInvoice: string
  /** Lines come as multipart `items[i][…]` with a file, or as JSON `items` (contra, journal). */
  readonly hasFile: boolean
  readonly hasSubLedger: boolean
  /** Which line the list shows per invoice: the cash/bank line, a seeded ledger's, or the first. */
  readonly listLine: 'cash_bank' | 'Company Sales' | 'Company Purchase' | 'first'
  /** The side whose sum over the invoice's lines is the list's `amount`. */
  readonly amountSide: 'debit_amount' | 'credit_amount'
  readonly flag?: 'npcheck' | 'pcheck'
  /** The invoice this one settles (`ref_invoice_no`: a cause donation's receipt names the cause's sales invoice). */
  readonly hasRefInvoice?: boolean
  readonly order: number
}

export const voucherSpecs = [
  { kind: 'payment_voucher', listKey: 'payment_vouchers', dateField: 'payment_date', prefix: 'PV', route: { area: 'accounts', list: 'paymentvouchers', form: 'paymentvoucher' }, byInvoice: 'payment_voucher_by_invoice_no', hasFile: true, hasRefInvoice: true, hasSubLedger: true, listLine: 'cash_bank', amountSide: 'credit_amount', order: 30 },
  { kind: 'receipt_voucher', listKey: 'receipt_vouchers', dateField: 'receipt_date', prefix: 'RV', route: { area: 'accounts', list: 'receiptvouchers', form: 'receiptvoucher' }, byInvoice: 'receipt_voucher_by_invoice_no', hasFile: true, hasRefInvoice: true, hasSubLedger: true, listLine: 'cash_bank', amountSide: 'debit_amount', order: 31 },
  { kind: 'sales', listKey: 'sales', dateField: 'sales_date', prefix: 'SA', route: { area: 'accounts', list: 'receivable_bills', form: 'receivable_bill' }, byInvoice: 'receipt_voucher_by_invoice_no', hasFile: true, hasSubLedger: true, listLine: 'Company Sales', amountSide: 'credit_amount', flag: 'npcheck', order: 32 },
  { kind: 'purchase', listKey: 'purchases', dateField: 'purchase_date', prefix: 'PU', route: { area: 'accounts', list: 'payable_bills', form: 'payable_bill' }, byInvoice: 'purchase_by_invoice_no', hasFile: true, hasSubLedger: true, listLine: 'Company Purchase', amountSide: 'debit_amount', flag: 'pcheck', order: 33 },
  { kind: 'contra', listKey: 'contras', dateField: 'contra_date', prefix: 'CO', route: { area: 'contra-management', list: 'contras', form: 'contras' }, byInvoice: 'contra_by_invoice_no', hasFile: false, hasSubLedger: false, listLine: 'first', amountSide: 'credit_amount', order: 34 },
  { kind: 'journal', listKey: 'journals', dateField: 'journal_date', prefix: 'JO', route: { area: 'journal-management', list: 'journals', form: 'journals' }, byInvoice: 'journal_by_invoice_no', hasFile: false, hasSubLedger: false, listLine: 'first', amountSide: 'credit_amount', order: 35 },
] as const satisfies readonly VoucherSpec[]

function voucherEntity(spec: VoucherSpec) {
  const fields = {
    ledger: f.ref('ledger_account', { required: true, search: true }),
    ...(spec.hasSubLedger ? { sub_ledger: f.ref('sub_ledger_account') } : {}),
    branch: f.ref('branch'),
    // Given by the server as the voucher is written: `<PREFIX><YYYYMMDD>00<n>` (numbering below).
    invoice_no: f.text({ max: 50, search: true, code: true, readOnly: true }),
    ...(spec.hasRefInvoice ? { ref_invoice_no: f.text({ max: 50, code: true, hideInList: true }) } : {}),
    debit_amount: f.money({ default: '0.00', min: '0' }),
    credit_amount: f.money({ default: '0.00', min: '0' }),
    [spec.dateField]: f.date({ required: true }),
    ...(spec.flag ? { [spec.flag]: f.boolean() } : {}),
    ...(spec.hasFile ? { file: f.file({ hideInList: true }) } : {}),
    details: f.text({ multiline: true }),
    // What the list shows per invoice (voucher-routes.ts): the kind's side summed over every line, the other lines' ledgers.
    amount: f.money({ virtual: true, compute: () => null, sortable: false }),
    ...(spec.listLine === 'first' ? {} : { related_ledgers: f.text({ virtual: true, compute: () => null, sortable: false }) }),
  }
  return defineEntity({
    name: spec.kind,
    module: 'accounting',
    listKey: spec.listKey,
    labelField: 'invoice_no',
    route: spec.route,
    fields,
    search: ['invoice_no', 'ledger'],
    listColumns: [spec.dateField, 'invoice_no', 'ledger', ...(spec.listLine === 'first' ? [] : ['related_ledgers']), 'branch', 'amount', 'details'],
    ordering: `-${spec.dateField}`,
    filters: [spec.dateField, 'ledger', 'branch'],
    numbering: { field: 'invoice_no', prefix: spec.prefix, reset: 'day', date: spec.dateField },
    // Written only with their posting: every write route, and the list (one row per invoice), is the module's.
    routes: { all: 'bespoke', without_pagination: false, search: 'bespoke', create: 'bespoke', update: 'bespoke', delete: 'bespoke', delete_multiple: 'bespoke' },
    nav: { group: 'accounting', icon: 'payments', order: spec.order },
  })
}

export const vouchers = Object.fromEntries(voucherSpecs.map((spec) => [spec.kind, voucherEntity(spec)])) as Record<LogType, ReturnType<typeof voucherEntity>>

export const voucherSpecOf = (kind: string): VoucherSpec | undefined => voucherSpecs.find((s) => s.kind === kind)
