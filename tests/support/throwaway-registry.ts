import { entities } from '../../schema'
import type { Catalogue } from '../../schema/check'
import { defineEntity, defineReport, f, money, rules } from '../../schema/kit'

/**
 * Entities and a report defined at run time, as an author would add them to schema/: a
 * document with lines (an order of gadgets), two custom actions, a row scope and a report.
 * Server tests (tests/server/documents.test.ts) and browser tests build their app from
 * these to prove that every derived piece appears with no other change.
 *
 * Labels reuse keys the catalogues have where they can; the rest are added to the loaded
 * catalogues for the duration of a test (`withCatalogue`), as an author adds them to the
 * locale files.
 */
export const gadgetOrderLine = defineEntity({
  name: 'gadget_order_line',
  module: 'test',
  lineOf: 'gadget_order',
  labelField: 'gadget',
  fields: {
    gadget: f.ref('city', { required: true, label: 'field.district' }),
    quantity: f.integer({ required: true, min: 1, label: 'field.serial_number' }),
    unit_price: f.money({ required: true, label: 'field.currency_code' }),
    // Worked out by the engine (and live in the form); what a client sends is ignored.
    total_price: f.money({ compute: (line) => money.multiply(line.unit_price as string, line.quantity as number), label: 'field.grade' }),
    note: f.text({ max: 100, label: 'field.details' }),
  },
  rules: [{ field: 'note', message: 'validation.invalid', check: (line) => line.note !== 'not allowed' }],
})

export const gadgetOrder = defineEntity({
  name: 'gadget_order',
  module: 'test',
  listKey: 'gadget_orders',
  labelField: 'number',
  route: { area: 'gadgetOrder-management', list: 'gadgetOrders' },
  nav: { group: 'settings', icon: 'receipt', order: 50 },
  fields: {
    // Given by the server when the order is written (a document number, as accounting gives invoice numbers).
    number: f.text({ max: 20, readOnly: true, search: true, unique: true, label: 'field.name' }),
    // Today when a client leaves it out: a default filled in before validation.
    order_date: f.date({ required: true, label: 'field.emp_join_date' }),
    customer_email: f.email({ search: true, label: 'field.email' }),
    status: f.choice(['draft', 'confirmed', 'cancelled'], { default: 'draft', label: 'field.type' }),
    // Set by the confirm action only (read-only: no client may send it).
    confirmed_at: f.datetime({ readOnly: true, label: 'field.changed_at' }),
    items: f.lines(gadgetOrderLine, { min: 1, totals: ['quantity', 'total_price'], label: 'field.menu_items' }),
    total: f.money({ compute: (order) => money.sum(((order.items as Array<Record<string, string>> | null) ?? []).map((l) => l.total_price)), label: 'field.basic_money' }),
    line_count: f.integer({ compute: (order) => (order.items as unknown[] | null)?.length ?? 0, label: 'field.item_count' }),
    summary: f.text({ virtual: true, compute: (order) => `${String(order.number)} (${String(order.status)})`, label: 'field.short_desc' }),
    note: f.text({ max: 200, label: 'field.full_desc' }),
  },
  listColumns: ['number', 'customer_email', 'status', 'line_count', 'total', 'summary'],
  rules: [rules.distinct('items', 'gadget', 'validation.duplicate_line')],
  actions: {
    confirm: { confirm: true, isAvailable: (order) => order.status === 'draft' },
    cancel: { input: { reason: f.text({ required: true, max: 200, label: 'field.details' }) }, tone: 'danger', aliases: ['cancel_order'], isAvailable: (order) => order.status !== 'cancelled' },
  },
})

/**
 * A document in motion, as a new developer adds one by the README alone (issue 18): a stock
 * transfer of gadgets between districts, drafted, then confirmed (its lines can no longer
 * change) or cancelled — a workflow the engine derives routes, permissions, buttons, locks
 * and a status chip from.
 */
export const stockTransferLine = defineEntity({
  name: 'stock_transfer_line',
  module: 'test',
  lineOf: 'stock_transfer',
  labelField: 'gadget',
  fields: {
    gadget: f.ref('city', { required: true, label: 'field.district' }),
    quantity: f.integer({ required: true, min: 1, label: 'field.item_count' }),
  },
})

export const stockTransfer = defineEntity({
  name: 'stock_transfer',
  module: 'test',
  listKey: 'stock_transfers',
  labelField: 'note',
  route: { area: 'stockTransfer-management', list: 'stockTransfers' },
  nav: { group: 'settings', icon: 'receipt', order: 51 },
  fields: {
    // Numbered as it is drafted (`ST<year>00<n>`), and when confirmed the journal it posted.
    number: f.text({ max: 30, readOnly: true, search: true, code: true, label: 'field.invoice_no' }),
    note: f.text({ max: 100, required: true, search: true, label: 'field.details' }),
    value: f.money({ default: '0.00', min: '0', label: 'field.amount' }),
    status: f.choice(['draft', 'confirmed', 'cancelled'], { label: 'field.type' }),
    journal_no: f.text({ max: 50, readOnly: true, code: true, label: 'field.reference_no' }),
    items: f.lines(stockTransferLine, { min: 1, totals: ['quantity'], label: 'field.menu_items' }),
  },
  listColumns: ['number', 'note', 'value', 'status', 'journal_no'],
  // Two more lists of transfers: the drafts beside the transfers' own list, and those still in motion in an area of their own.
  views: {
    drafts: { route: { area: 'stockTransfer-management', list: 'drafts' }, filter: { status: 'draft' }, columns: ['number', 'note', 'value'] },
    moving: { route: { area: 'transfersInMotion-management', list: 'transfers' }, filter: { status: ['draft', 'confirmed'] } },
  },
  numbering: { field: 'number', prefix: 'ST', reset: 'year' },
  // Its printed form: the company's letterhead, the transfer, its lines and their total, its value in words, two signatures.
  print: {
    header: ['number', 'note', 'status'],
    lines: { field: 'items', columns: ['gadget', 'quantity'] },
    totals: ['quantity'],
    amount: 'value',
    signatures: ['print.prepared_by', 'print.approved_by'],
  },
  // Its value moves between two ledgers when it is confirmed (a journal), and back when it is cancelled.
  posts: { as: 'journal', number: 'journal_no', on: 'confirm', reverseOn: ['cancel'], when: (transfer) => money.toMinor(transfer.value as string) > 0n },
  workflow: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    transitions: {
      confirm: { from: ['draft'], to: 'confirmed', confirm: true },
      cancel: { from: ['draft', 'confirmed'], to: 'cancelled', tone: 'danger', confirm: true },
    },
  },
})

/**
 * A document kept one row per line (as the contract's vouchers are): a delivery note of
 * gadgets to a depot, each row holding the note's header and one line, the rows of a note
 * sharing its number. The engine reads and writes it as a document and lists it a row per note.
 */
export const deliveryNote = defineEntity({
  name: 'delivery_note',
  module: 'test',
  listKey: 'delivery_notes',
  labelField: 'number',
  route: { area: 'deliveryNote-management', list: 'deliveryNotes' },
  nav: { group: 'settings', icon: 'receipt', order: 52 },
  fields: {
    note_date: f.date({ required: true, label: 'field.emp_join_date' }),
    depot: f.ref('city', { required: true, label: 'field.name' }),
    remark: f.text({ max: 100, label: 'field.details' }),
    gadget: f.ref('city', { required: true, search: true, label: 'field.district' }),
    quantity: f.integer({ required: true, min: 1, label: 'field.item_count' }),
    number: f.text({ max: 30, readOnly: true, search: true, code: true, label: 'field.invoice_no' }),
    total_quantity: f.integer({ virtual: true, compute: () => null, sortable: false, label: 'field.serial_number' }),
    other_gadgets: f.text({ virtual: true, compute: () => null, sortable: false, label: 'field.short_desc' }),
  },
  search: ['number', 'gadget'],
  listColumns: ['note_date', 'number', 'depot', 'gadget', 'other_gadgets', 'total_quantity'],
  ordering: '-id',
  numbering: { field: 'number', prefix: 'DN', reset: 'day', date: 'note_date' },
  rowsPerLine: {
    key: 'number',
    lines: 'items',
    lineFields: ['gadget', 'quantity'],
    min: 1,
    totals: ['quantity'],
    // A fragile gadget (its district's name says so: a fact of the referenced row) goes one at a time.
    lineRules: [
      {
        field: 'quantity',
        message: 'validation.invalid',
        facts: [{ field: 'gadget', target: 'city', name: 'name' }],
        check: (line, context) => !String(context.fact?.('city', line.gadget, 'name') ?? '').startsWith('Fragile') || Number(line.quantity) <= 1,
      },
    ],
    // The list shows a note by its line to the hub, when it has one.
    shownLine: { field: 'gadget', where: { name: 'Hub' } },
    sums: { total_quantity: 'quantity' },
    others: { other_gadgets: 'gadget' },
  },
  rules: [rules.distinct('items', 'gadget', 'validation.duplicate_line')],
  // The notes to the northern depot: a reference filtered by its row's name.
  views: { north: { route: { area: 'deliveryNote-management', list: 'north' }, filter: { depot: 'North' }, nav: false } },
})

/**
 * A branch's notes, seen by the employees of that branch: a row scope on the caller's
 * attribute (schema/caller.ts), which no filter of theirs can lift.
 */
export const branchNote = defineEntity({
  name: 'branch_note',
  module: 'test',
  listKey: 'branch_notes',
  route: { area: 'branchNote-management', list: 'branchNotes' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    branch: f.ref('branch', { required: true }),
  },
  scope: (caller) => (caller.isAdmin ? null : { branch: caller.attributes?.branch ?? null }),
})

/** Memos a non-admin sees only when they wrote them: a row scope. */
export const memo = defineEntity({
  name: 'memo',
  module: 'test',
  listKey: 'memos',
  route: { area: 'memo-management', list: 'memos' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    // Pinned for everyone to see: an admin's choice alone.
    is_pinned: f.boolean({ default: false, adminOnly: true }),
  },
  scope: (caller) => (caller.isAdmin ? null : { created_by: caller.id }),
})

/**
 * Wishes a user files and follows alone (`own`): without the permission they list, read,
 * file, change and star their own; with it, everyone's. Their notes are theirs through the wish.
 */
export const wish = defineEntity({
  name: 'wish',
  module: 'test',
  listKey: 'wishes',
  route: { area: 'wish-management', list: 'wishes' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    owner: f.ref('user', { required: true, label: 'field.user' }),
    // Wanted by then, unless granted: late past it (a flag of the clock, filtered in SQL).
    wanted_by: f.datetime({ label: 'field.changed_at' }),
    state: f.choice(['open', 'granted'], { default: 'open', label: 'field.type' }),
    is_late: f.pastDue({ due: 'wanted_by', unless: { field: 'state', values: ['granted'] }, label: 'field.overdue' }),
  },
  filters: ['state', 'is_late'],
  workflow: { field: 'state', initial: 'open', editableIn: ['open', 'granted'], transitions: { grant: { from: ['open'], to: 'granted' } } },
  own: { field: 'owner', actions: ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'grant'] },
  nav: false,
})

export const wishNote = defineEntity({
  name: 'wish_note',
  module: 'test',
  listKey: 'wish_notes',
  labelField: 'text',
  route: { area: 'wishNote-management', list: 'wishNotes' },
  fields: {
    wish: f.ref('wish', { required: true, search: true, label: 'field.name' }),
    text: f.text({ max: 100, required: true, search: true, label: 'field.details' }),
  },
  own: { via: 'wish', actions: ['LIST', 'DETAILS', 'CREATE'] },
  extraRoutes: [{ kind: 'listBy', path: 'get_all_by_wish_id', field: 'wish' }],
  nav: false,
})

/** Shelves within shelves, two levels at most: a tree kept by the engine, in its own words. */
export const shelf = defineEntity({
  name: 'shelf',
  module: 'test',
  listKey: 'shelves',
  route: { area: 'shelf-management', list: 'shelves' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    parent: f.ref('shelf', { maxDepth: 2 }),
  },
})

export const gadgetSales = defineReport({
  name: 'gadget_sales',
  module: 'test',
  route: 'gadget-sales',
  // The original's route of the same rows, and of the amounts by gadget.
  contract: { path: '/gadget_report/api/v1/gadget_report/sales/', key: 'gadget_sales' },
  params: {
    status: f.choice(['draft', 'confirmed', 'cancelled'], { label: 'field.type' }),
    date_after: f.date({ label: 'field.emp_join_date' }),
    date_before: f.date({ label: 'field.marriage_date' }),
  },
  columns: {
    gadget: f.text({ label: 'field.district' }),
    orders: f.integer({ label: 'field.serial_number' }),
    quantity: f.integer({ label: 'field.item_count' }),
    amount: f.money({ label: 'field.basic_money' }),
  },
  totals: ['orders', 'quantity', 'amount'],
  ordering: ['-amount', 'gadget'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date')],
  nav: { group: 'reports', icon: 'assessment', order: 1 },
})

export const throwawayEntities = [...entities, gadgetOrder, gadgetOrderLine, stockTransfer, stockTransferLine, deliveryNote, branchNote, memo, shelf, wish, wishNote]
export const throwawayReports = [gadgetSales]

/** The labels an author adds with these: entity, action and report names, and the status options. */
export const throwawayCatalogue: Record<string, Catalogue> = {
  entity: {
    gadget_order: { one: 'Gadget order', other: 'Gadget orders' },
    gadget_order_line: { one: 'Gadget order line', other: 'Gadget order lines' },
    memo: { one: 'Memo', other: 'Memos' },
    stock_transfer: { one: 'Stock transfer', other: 'Stock transfers' },
    stock_transfer_line: { one: 'Stock transfer line', other: 'Stock transfer lines' },
    delivery_note: { one: 'Delivery note', other: 'Delivery notes' },
    branch_note: { one: 'Branch note', other: 'Branch notes' },
    shelf: { one: 'Shelf', other: 'Shelves' },
    wish: { one: 'Wish', other: 'Wishes' },
    wish_note: { one: 'Wish note', other: 'Wish notes' },
  },
  view: {
    stock_transfer: { drafts: 'Draft transfers', moving: 'Transfers in motion' },
    delivery_note: { north: 'To the north' },
  },
  option: { draft: 'Draft', confirmed: 'Confirmed', cancelled: 'Cancelled', granted: 'Granted', open: 'Open' },
  action: { confirm: 'Confirm', confirm_question: 'Confirm this order? Its lines can no longer change.', cancel: 'Cancel order', cancel_question: 'Cancel it? What it posted is reversed.', grant: 'Grant' },
  report: { gadget_sales: 'Gadget sales' },
  field: { is_pinned: 'Pinned' },
}

type Mutable = Record<string, Record<string, Record<string, unknown>>>

/** Adds the throwaway labels to loaded catalogues (every language gets the English ones); returns the undo. */
export function addThrowawayLabels(catalogues: Record<string, unknown>): () => void {
  const target = catalogues as unknown as Mutable
  const before = new Map<string, Record<string, unknown>>()
  for (const lang of Object.keys(target)) {
    for (const [section, values] of Object.entries(throwawayCatalogue)) {
      const key = `${lang}.${section}`
      before.set(key, target[lang]![section] ?? {})
      target[lang]![section] = { ...(target[lang]![section] ?? {}), ...(values as object) }
    }
  }
  return () => {
    for (const [key, value] of before) {
      const [lang, section] = key.split('.') as [string, string]
      target[lang]![section] = value
    }
  }
}
