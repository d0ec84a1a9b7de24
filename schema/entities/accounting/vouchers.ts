import { defineEntity, f, money, type ComputeInput } from '../../kit'
import { voucherRules } from './voucher-rules'
import type { LogType } from './account-log'

/**
 * The six vouchers (api-contract §4.7), declared once as data: each is a document kept one row
 * per ledger line (the lines of one voucher share `invoice_no`), judged by its kind's rules
 * (voucher-rules.ts), numbered, posted to the general ledger as it is written, changed by
 * reversal and repost, cancelled with reversing rows (decisions.md "Accounting") — by the
 * engine; the contract's per-line create, update and deletes are an adapter over it
 * (server/domain/accounting/voucher-routes.ts).
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
  /** Who the printed voucher is with: the ledgers of the lines on that side (a payment's payees), under that heading. */
  readonly party?: { readonly label: `print.${string}`; readonly side: 'debit_amount' | 'credit_amount' }
  readonly order: number
}

export const voucherSpecs = [
  { kind: 'payment_voucher', listKey: 'payment_vouchers', dateField: 'payment_date', prefix: 'PV', route: { area: 'accounts', list: 'paymentvouchers', form: 'paymentvoucher' }, byInvoice: 'payment_voucher_by_invoice_no', hasFile: true, hasRefInvoice: true, hasSubLedger: true, listLine: 'cash_bank', amountSide: 'credit_amount', party: { label: 'print.paid_to', side: 'debit_amount' }, order: 30 },
  { kind: 'receipt_voucher', listKey: 'receipt_vouchers', dateField: 'receipt_date', prefix: 'RV', route: { area: 'accounts', list: 'receiptvouchers', form: 'receiptvoucher' }, byInvoice: 'receipt_voucher_by_invoice_no', hasFile: true, hasRefInvoice: true, hasSubLedger: true, listLine: 'cash_bank', amountSide: 'debit_amount', party: { label: 'print.received_from', side: 'credit_amount' }, order: 31 },
  { kind: 'sales', listKey: 'sales', dateField: 'sales_date', prefix: 'SA', route: { area: 'accounts', list: 'receivable_bills', form: 'receivable_bill' }, byInvoice: 'receipt_voucher_by_invoice_no', hasFile: true, hasSubLedger: true, listLine: 'Company Sales', amountSide: 'credit_amount', flag: 'npcheck', party: { label: 'print.billed_to', side: 'debit_amount' }, order: 32 },
  { kind: 'purchase', listKey: 'purchases', dateField: 'purchase_date', prefix: 'PU', route: { area: 'accounts', list: 'payable_bills', form: 'payable_bill' }, byInvoice: 'purchase_by_invoice_no', hasFile: true, hasSubLedger: true, listLine: 'Company Purchase', amountSide: 'debit_amount', flag: 'pcheck', party: { label: 'print.supplied_by', side: 'credit_amount' }, order: 33 },
  { kind: 'contra', listKey: 'contras', dateField: 'contra_date', prefix: 'CO', route: { area: 'contra-management', list: 'contras', form: 'contras' }, byInvoice: 'contra_by_invoice_no', hasFile: false, hasSubLedger: false, listLine: 'first', amountSide: 'credit_amount', order: 34 },
  { kind: 'journal', listKey: 'journals', dateField: 'journal_date', prefix: 'JO', route: { area: 'journal-management', list: 'journals', form: 'journals' }, byInvoice: 'journal_by_invoice_no', hasFile: false, hasSubLedger: false, listLine: 'first', amountSide: 'credit_amount', order: 35 },
] as const satisfies readonly VoucherSpec[]

/** The names of the ledgers a voucher's lines on one side name (from the lines' `_labels`). */
const partyOf =
  (side: 'debit_amount' | 'credit_amount') =>
  (voucher: ComputeInput): string | null => {
    const lines = (voucher.items as ReadonlyArray<Record<string, unknown>> | null) ?? []
    const names = lines
      .filter((line) => money.toMinor(line[side] as string) > 0n)
      .map((line) => (line._labels as Record<string, unknown> | undefined)?.ledger)
      .filter((name): name is string => typeof name === 'string')
    return names.length > 0 ? names.join(', ') : null
  }

function voucherEntity(spec: VoucherSpec) {
  const { rules, lineRules } = voucherRules(spec.kind)
  // The header first (the form's order), then a line's own fields, then the list's values.
  const fields = {
    [spec.dateField]: f.date({ required: true, initial: 'today' }),
    branch: f.ref('branch'),
    ...(spec.hasSubLedger ? { sub_ledger: f.ref('sub_ledger_account') } : {}),
    ...(spec.flag ? { [spec.flag]: f.boolean() } : {}),
    ...(spec.hasFile ? { file: f.file({ hideInList: true }) } : {}),
    ...(spec.hasRefInvoice ? { ref_invoice_no: f.text({ max: 50, code: true, hideInList: true }) } : {}),
    details: f.text({ multiline: true }),
    ledger: f.ref('ledger_account', { required: true, search: true }),
    debit_amount: f.money({ default: '0.00', min: '0' }),
    credit_amount: f.money({ default: '0.00', min: '0' }),
    // Given by the server as the voucher is written: `<PREFIX><YYYYMMDD>00<n>` (numbering below).
    invoice_no: f.text({ max: 50, search: true, code: true, readOnly: true }),
    // What the list shows per invoice (rowsPerLine below): the kind's side summed over every line, the other lines' ledgers.
    amount: f.money({ virtual: true, compute: () => null, sortable: false }),
    ...(spec.listLine === 'first' ? {} : { related_ledgers: f.text({ virtual: true, compute: () => null, sortable: false }) }),
  }
  return defineEntity({
    name: spec.kind,
    module: 'accounting',
    confidential: true,
    listKey: spec.listKey,
    labelField: 'invoice_no',
    route: spec.route,
    fields,
    search: ['invoice_no', 'ledger'],
    listColumns: [spec.dateField, 'invoice_no', 'ledger', ...(spec.listLine === 'first' ? [] : ['related_ledgers']), 'branch', 'amount', 'details'],
    // The contract's order: contras and journals by number, the others newest first.
    ordering: spec.listLine === 'first' ? 'invoice_no' : '-id',
    filters: [spec.dateField, 'ledger', 'branch'],
    numbering: { field: 'invoice_no', prefix: spec.prefix, reset: 'day', date: spec.dateField },
    // A line table (api-contract §4.7): the rows sharing an invoice number are one voucher.
    rowsPerLine: {
      key: 'invoice_no',
      lines: 'items',
      lineFields: ['ledger', 'debit_amount', 'credit_amount'],
      min: 2,
      totals: ['debit_amount', 'credit_amount'],
      lineRules,
      // Payments and receipts are listed by their cash or bank line, sales and purchases by the seeded ledger's.
      ...(spec.listLine === 'cash_bank' ? { shownLine: { field: 'ledger', where: { is_cash_bank: true } } } : {}),
      ...(spec.listLine === 'Company Sales' || spec.listLine === 'Company Purchase' ? { shownLine: { field: 'ledger', where: { name: spec.listLine, is_deletable: false } } } : {}),
      sums: { amount: spec.amountSide },
      ...(spec.listLine === 'first' ? {} : { others: { related_ledgers: 'ledger' } }),
    },
    rules,
    // Posted to the general ledger as it is written, reposted when changed, reversed when deleted.
    posts: { as: 'ledger', number: 'invoice_no' },
    print: {
      header: ['invoice_no', spec.dateField, 'branch', ...(spec.hasSubLedger ? ['sub_ledger'] : []), ...(spec.hasRefInvoice ? ['ref_invoice_no'] : []), 'details'],
      lines: { field: 'items', columns: ['ledger', 'debit_amount', 'credit_amount'] },
      totals: ['debit_amount', 'credit_amount'],
      ...(spec.party ? { party: { label: spec.party.label, of: partyOf(spec.party.side) } } : {}),
      amount: { sum: 'debit_amount' },
      signatures: ['print.prepared_by', 'print.checked_by', 'print.approved_by'],
    },
    // The contract's create, update and deletes speak per line (server/domain/accounting/voucher-routes.ts adapts them).
    routes: { create: 'bespoke', update: 'bespoke', delete: 'bespoke', delete_multiple: 'bespoke' },
    nav: { group: 'accounting', icon: 'payments', order: spec.order },
  })
}

export const vouchers = Object.fromEntries(voucherSpecs.map((spec) => [spec.kind, voucherEntity(spec)])) as Record<LogType, ReturnType<typeof voucherEntity>>

export const voucherSpecOf = (kind: string): VoucherSpec | undefined => voucherSpecs.find((s) => s.kind === kind)
