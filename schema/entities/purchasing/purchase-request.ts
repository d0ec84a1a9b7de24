import { defineEntity, f, lineTotal, linesTotal } from '../../kit'

/** What a vendor offers on one line: a name, a price per unit, how many (api-contract §4.10 PurchaseReqItem). */
export const purchaseReqItem = defineEntity({
  name: 'purchase_req_item',
  module: 'purchasing',
  lineOf: 'purchase_request',
  labelField: 'name',
  fields: {
    name: f.text({ max: 200, required: true, search: true, label: 'field.item_name' }),
    unit_price: f.money({ required: true, min: '0' }),
    quantity: f.integer({ required: true, min: 1, max: 1_000_000 }),
    description: f.text({ max: 2000, multiline: true }),
    total_price: f.money({ compute: (line) => lineTotal(line) }),
  },
})

/** The stages of an offer, as the lookup `purchase_status` names them; a request moves only by its transitions. */
export const REQUEST_STATES = ['pending', 'processing', 'submitted', 'verified', 'cancelled'] as const

/**
 * A vendor's offer to sell goods to the company (api-contract §4.10 PurchaseRequest; §5.2):
 * its vendor and their contact, its lines (each may have pictures: purchase_req_item_image),
 * its total. It starts `pending`; staff take it into `processing`, `submit` it and `verify`
 * it, or cancel it — the workflow's `status`, mirrored as the contract's `purchase_status`
 * (the lookup's row of that name) by server/domain/purchasing. It can be changed while
 * pending or processing; a verified one becomes a final purchase once.
 * It writes nothing to stock or the general ledger (domain-anchors §6, 36).
 */
export const purchaseRequest = defineEntity({
  name: 'purchase_request',
  module: 'purchasing',
  listKey: 'purchase_requests',
  labelField: 'invoice_no',
  ordering: '-id',
  // The spec's addresses of its items and of its invoice open its form: its lines, and its print.
  route: { area: 'purchase-management', list: 'purchase-requests', form: 'purchase-request', formAt: ['purchase-management/purchase-request/items', 'purchase-management/purchase-request/purchase-invoice'] },
  fields: {
    invoice_no: f.text({ max: 30, readOnly: true, search: true, code: true }),
    request_date: f.date({ initial: 'today' }),
    vendor: f.ref('vendor', { search: true }),
    first_name: f.text({ max: 100, search: true }),
    last_name: f.text({ max: 100, search: true }),
    email: f.email({ search: true }),
    contact_no: f.phone(),
    street_address: f.text({ max: 255, hideInList: true }),
    contact_type: f.text({ max: 50, hideInList: true }),
    is_subscribed: f.boolean({ default: false, hideInList: true }),
    vendor_comment: f.text({ max: 2000, multiline: true, hideInList: true }),
    status: f.choice(REQUEST_STATES, { default: 'pending' }),
    purchase_status: f.ref('purchase_status', { readOnly: true }),
    purchase_request_items: f.lines(purchaseReqItem, { min: 1, label: 'field.items' }),
    total_price: f.money({ compute: (request) => linesTotal(request, 'purchase_request_items') }),
  },
  search: ['invoice_no', 'first_name', 'last_name', 'email'],
  listColumns: ['invoice_no', 'request_date', 'vendor', 'first_name', 'last_name', 'email', 'contact_no', 'status', 'total_price'],
  filters: ['status', 'vendor', 'request_date'],
  sections: [
    { key: 'vendor', label: 'section.vendor', fields: ['vendor', 'first_name', 'last_name', 'email', 'contact_no', 'street_address', 'contact_type', 'is_subscribed'] },
    { key: 'offer', label: 'section.offer', fields: ['request_date', 'vendor_comment', 'purchase_request_items'] },
  ],
  numbering: { field: 'invoice_no', prefix: 'PR', reset: 'day', date: 'request_date' },
  workflow: {
    field: 'status',
    initial: 'pending',
    editableIn: ['pending', 'processing'],
    // The contract's `purchase_status`: the lookup's row of the same name.
    lookup: { field: 'purchase_status' },
    transitions: {
      process: { from: ['pending'], to: 'processing' },
      submit: { from: ['processing'], to: 'submitted' },
      verify: { from: ['submitted'], to: 'verified' },
      cancel: { from: ['pending', 'processing', 'submitted'], to: 'cancelled', confirm: true, tone: 'danger' },
    },
  },
  // A verified offer becomes a final purchase once (server/domain/purchasing/from-request.ts), which then shows under it.
  actions: {
    make_purchase: { label: 'action.make_purchase', confirm: 'action.make_purchase_question', isAvailable: (r) => r.status === 'verified' },
  },
  related: [{ entity: 'purchase_final', via: 'purchase_request', columns: ['invoice_no', 'purchase_date', 'status', 'total_price', 'payment_status'] }],
  print: {
    header: ['invoice_no', 'request_date', 'status'],
    party: { label: 'print.offered_by', of: (r) => [r.first_name, r.last_name].filter(Boolean).join(' ') || (r.email as string | null) || null },
    lines: { field: 'purchase_request_items', columns: ['name', 'description', 'quantity', 'unit_price', 'total_price'] },
    totals: ['total_price'],
    amount: 'total_price',
    signatures: ['print.prepared_by', 'print.approved_by'],
  },
  nav: { group: 'purchasing', icon: 'receipt', order: 1 },
})

/** A picture of an offered item (api-contract §4.10 PurchaseReqItemImage): full CRUD, judged by its bytes, in its place among the item's. */
export const purchaseReqItemImage = defineEntity({
  name: 'purchase_req_item_image',
  module: 'purchasing',
  listKey: 'purchase_req_item_images',
  labelField: 'purchase_req_item',
  route: { area: 'purchase-management', list: 'purchase-request-item-images' },
  fields: {
    purchase_req_item: f.ref('purchase_req_item', { required: true, onDelete: 'cascade', search: true }),
    image: f.image({ required: true }),
    // The pictures of an item in the order they were sent (`items[i][images][j]`), smaller first.
    position: f.integer({ default: 0, min: 0 }),
  },
  ordering: 'position',
  filters: ['purchase_req_item'],
  nav: false,
})
