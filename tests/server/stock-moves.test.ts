import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkRegistry, entities } from '../../schema'
import { stockLedgerOf, stockReferenceTypes } from '../../schema/entities/inventory/stock-ledger'
import { defineEntity, f } from '../../schema/kit'
import { buildApp, defaultModules } from '../../server/app'
import type { DomainModule } from '../../server/engine/modules'
import { catalogues } from '../../server/i18n'
import { addThrowawayLabels } from '../support/throwaway-registry'
import { JWT_SECRET, describeEachDatabase } from './helpers/app'
import { freshDatabase } from './helpers/databases'

/**
 * Documents that move stock, declared in the registry (`moves`, the engine — issue 21), for
 * entities defined at run time: a goods receipt whose lines come in when it is confirmed and
 * go back when it is cancelled (refused, with the status unchanged, once they have gone
 * out), and a stock count that moves what differs from what is on hand as it is written,
 * again when changed, and back when deleted — each in the transaction of its write.
 */
const receiptLine = defineEntity({
  name: 'goods_receipt_line',
  module: 'test',
  lineOf: 'goods_receipt',
  labelField: 'product',
  fields: {
    product: f.ref('product', { required: true }),
    quantity: f.integer({ required: true, min: 1 }),
    unit_cost: f.decimal({ precision: 18, scale: 4, min: '0', default: '0' }),
  },
})
const receipt = defineEntity({
  name: 'goods_receipt',
  module: 'test',
  listKey: 'goods_receipts',
  labelField: 'note',
  route: { area: 'goodsReceipt-management', list: 'goodsReceipts' },
  fields: {
    number: f.text({ max: 30, readOnly: true, search: true, code: true, label: 'field.invoice_no' }),
    note: f.text({ max: 100, required: true, search: true, label: 'field.details' }),
    status: f.choice(['draft', 'confirmed', 'cancelled'], { label: 'field.type' }),
    items: f.lines(receiptLine, { min: 1, label: 'field.items' }),
  },
  numbering: { field: 'number', prefix: 'GR', reset: 'year' },
  moves: { number: 'number', on: 'confirm', reverseOn: ['cancel'] },
  workflow: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    transitions: { confirm: { from: ['draft'], to: 'confirmed' }, cancel: { from: ['draft', 'confirmed'], to: 'cancelled' } },
  },
})
const countLine = defineEntity({
  name: 'stock_count_line',
  module: 'test',
  lineOf: 'stock_count',
  labelField: 'product',
  fields: { product: f.ref('product', { required: true }), counted_quantity: f.integer({ required: true, min: 0, label: 'field.quantity' }) },
})
const count = defineEntity({
  name: 'stock_count',
  module: 'test',
  listKey: 'stock_counts',
  labelField: 'note',
  route: { area: 'stockCount-management', list: 'stockCounts' },
  fields: {
    number: f.text({ max: 30, readOnly: true, search: true, code: true, label: 'field.invoice_no' }),
    note: f.text({ max: 100, required: true, search: true, label: 'field.details' }),
    items: f.lines(countLine, { min: 1, label: 'field.items' }),
  },
  numbering: { field: 'number', prefix: 'SC', reset: 'year' },
  moves: { number: 'number' },
})

/**
 * Goods sent out when an issue is confirmed, and — the issue still editable once confirmed —
 * sent out again as it now is when its lines change; each line keeps the unit cost it went out
 * at (`lineCost`), which the server alone writes.
 */
const issueOf = (cost: ReturnType<typeof f.decimal> | ReturnType<typeof f.text>, lineCost: { lines: string; field: string }) => {
  const line = defineEntity({
    name: 'goods_issue_line',
    module: 'test',
    lineOf: 'goods_issue',
    labelField: 'product',
    fields: { product: f.ref('product', { required: true }), quantity: f.integer({ required: true, min: 1 }), unit_cost: cost },
  })
  const document = defineEntity({
    name: 'goods_issue',
    module: 'test',
    listKey: 'goods_issues',
    labelField: 'note',
    route: { area: 'goodsIssue-management', list: 'goodsIssues' },
    fields: {
      number: f.text({ max: 30, readOnly: true, search: true, code: true, label: 'field.invoice_no' }),
      note: f.text({ max: 100, required: true, search: true, label: 'field.details' }),
      status: f.choice(['draft', 'confirmed', 'cancelled'], { label: 'field.type' }),
      items: f.lines(line, { min: 1, label: 'field.items' }),
    },
    numbering: { field: 'number', prefix: 'GI', reset: 'year' },
    moves: { number: 'number', on: 'confirm', reverseOn: ['cancel'], lineCost: lineCost as { lines: 'items'; field: string } },
    workflow: {
      field: 'status',
      initial: 'draft',
      editableIn: ['draft', 'confirmed'],
      transitions: { confirm: { from: ['draft'], to: 'confirmed' }, cancel: { from: ['draft', 'confirmed'], to: 'cancelled' } },
    },
  })
  return [document, line] as const
}
const [issue, issueLine] = issueOf(f.decimal({ precision: 18, scale: 4, readOnly: true }), { lines: 'items', field: 'unit_cost' })

type Line = Record<string, unknown>
const goodsModule: DomainModule = {
  name: 'test-goods',
  stockMoves: {
    goods_receipt: ({ record }) => (record.items as Line[]).map((l) => ({ product: Number(l.product), quantity: Number(l.quantity), unitCost: String(l.unit_cost) })),
    stock_count: ({ record }) => (record.items as Line[]).map((l) => ({ product: Number(l.product), counted: Number(l.counted_quantity) })),
    goods_issue: ({ record }) => (record.items as Line[]).map((l) => ({ product: Number(l.product), quantity: -Number(l.quantity), line: Number(l.id) })),
  },
}
// The stock ledger names these documents too (the registry check refuses a document it does not name).
const ledger = stockLedgerOf([...stockReferenceTypes, 'goods_receipt', 'stock_count', 'goods_issue'])
const registered = [...entities.map((e) => (e.name === 'stock_ledger' ? ledger : e)), receipt, receiptLine, count, countLine, issue, issueLine]
const labels = {
  goods_receipt: { one: 'Goods receipt', other: 'Goods receipts' },
  goods_receipt_line: { one: 'Received line', other: 'Received lines' },
  stock_count: { one: 'Stock count', other: 'Stock counts' },
  stock_count_line: { one: 'Counted line', other: 'Counted lines' },
  goods_issue: { one: 'Goods issue', other: 'Goods issues' },
  goods_issue_line: { one: 'Issued line', other: 'Issued lines' },
}
const options = { goods_receipt: 'Goods receipt', stock_count: 'Stock count', goods_issue: 'Goods issue' }
let undoLabels: () => void
beforeAll(() => {
  undoLabels = addThrowawayLabels(catalogues)
  for (const catalogue of Object.values(catalogues)) {
    Object.assign(catalogue.entity as Record<string, unknown>, labels)
    Object.assign(catalogue.option as Record<string, unknown>, options)
  }
})
afterAll(() => {
  undoLabels()
  for (const catalogue of Object.values(catalogues)) {
    for (const name of Object.keys(labels)) delete (catalogue.entity as Record<string, unknown>)[name]
    for (const name of Object.keys(options)) delete (catalogue.option as Record<string, unknown>)[name]
  }
})

describe('the registry check of documents that move stock', () => {
  const problemsOf = (moves: Record<string, unknown>) =>
    checkRegistry([...registered.filter((e) => e !== count), defineEntity({ ...{ name: 'stock_count', module: 'test', listKey: 'stock_counts', labelField: 'note', route: { area: 'stockCount-management', list: 'stockCounts' } }, fields: { number: f.text({ max: 30 }), note: f.text({ required: true, search: true }), day: f.text(), items: f.lines(countLine) }, moves } as never)], catalogues)
      .filter((p) => p.entity === 'stock_count' && !p.message.includes('translation'))
      .map((p) => p.message)

  it('refuses a number the server does not give, a date that is not one, and a time it cannot happen', () => {
    expect(problemsOf({ number: 'number', on: 'confirm', reverseOn: ['cancel'], date: 'day' })).toEqual([
      "moves stock under its own number: give it numbering on 'number'",
      "moves stock dated by 'day', which is not a date field",
      "moves stock on 'confirm', which is neither 'create' nor a transition of its workflow (none)",
      "moves stock back on 'cancel', which is not a transition of its workflow",
    ])
  })

  it('refuses a line cost kept anywhere but a read-only decimal of the document’s lines', () => {
    const withCost = (lineCost: { lines: string; field: string }, cost: Parameters<typeof issueOf>[0] = f.decimal({ precision: 18, scale: 4, readOnly: true })) => {
      const [document, line] = issueOf(cost, lineCost)
      return checkRegistry([...registered.filter((e) => e !== issue && e !== issueLine), document, line], catalogues)
        .filter((p) => p.entity.startsWith('goods_issue') && !p.message.includes('translation'))
        .map((p) => p.message)
    }
    expect(withCost({ lines: 'items', field: 'unit_cost' })).toEqual([])
    const refused = "keeps the unit cost its line moved at in 'unit_cost', which must be a read-only decimal field of the line (f.decimal({ scale: 4, readOnly: true }))"
    expect(withCost({ lines: 'items', field: 'unit_cost' }, f.decimal({ precision: 18, scale: 4 }))).toEqual([refused])
    expect(withCost({ lines: 'items', field: 'unit_cost' }, f.text({ max: 20, readOnly: true }))).toEqual([refused])
    expect(withCost({ lines: 'items', field: 'nothing' })).toEqual(["keeps the unit cost its line moved at in 'nothing', which must be a read-only decimal field of the line (f.decimal({ scale: 4, readOnly: true }))"])
    expect(withCost({ lines: 'note', field: 'unit_cost' })).toEqual(["moves.lineCost names 'note', which is not a lines field of the entity"])
  })

  it('refuses a document the stock ledger does not name', () => {
    const unnamed = checkRegistry([...entities, receipt, receiptLine], catalogues).filter((p) => p.entity === 'goods_receipt').map((p) => p.message)
    expect(unnamed).toEqual(["moves stock, but the stock ledger does not name it: add 'goods_receipt' to stockReferenceTypes (schema/entities/inventory/stock-ledger.ts) and its label option.goods_receipt"])
  })

  it('refuses to start while no module keeps the stock or says what a document moves', async () => {
    const connection = await freshDatabase('pglite')
    try {
      await expect(buildApp({ db: connection.db, jwtSecret: JWT_SECRET, mediaDir: '/tmp', entities: registered, modules: defaultModules() })).rejects.toThrow(
        'goods_receipt: it moves stock, but no module says what: give `stockMoves: { goods_receipt: … }` in a DomainModule',
      )
    } finally {
      await connection.close()
    }
  })
})

describeEachDatabase(
  'documents that move stock',
  (t) => {
    let product: number
    beforeAll(async () => {
      product = (await sql<{ id: number }>`insert into product (name) values ('Moving Tea') returning id`.execute(t.current.db)).rows[0]!.id
    })
    const onHand = async () => Number((await sql<{ quantity: number }>`select quantity from inventory where id = ${product}`.execute(t.current.db)).rows[0]?.quantity ?? 0)
    const rowsOf = async (type: string, id: number) =>
      (await sql<{ quantity: number; reference_no: string; reverses: number | null }>`select quantity, reference_no, reverses from stock_ledger where reference_type = ${type} and reference_id = ${id} order by id`.execute(t.current.db)).rows
    const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)

    it('brings a receipt’s goods in when it is confirmed, under its number, and back out when it is cancelled', async () => {
      const made = await call({ method: 'POST', url: '/goods_receipt/api/v1/goods_receipt/create/', payload: { note: 'From the farm', items: [{ product, quantity: 10, unit_cost: '2.5' }] } })
      expect(made.status, made.raw).toBe(201)
      expect(await onHand()).toBe(0)
      const confirmed = await call({ method: 'POST', url: `/goods_receipt/api/v1/goods_receipt/confirm/${made.body.id}` })
      expect(confirmed.status, confirmed.raw).toBe(200)
      expect(await onHand()).toBe(10)
      expect(await rowsOf('goods_receipt', made.body.id)).toEqual([{ quantity: 10, reference_no: made.body.number, reverses: null }])
      const cancelled = await call({ method: 'POST', url: `/goods_receipt/api/v1/goods_receipt/cancel/${made.body.id}` })
      expect(cancelled.status, cancelled.raw).toBe(200)
      expect(await onHand()).toBe(0)
      expect((await rowsOf('goods_receipt', made.body.id)).map((r) => r.quantity)).toEqual([10, -10])
    })

    it('counts: moves what differs from what is on hand as written, again when changed, back when deleted', async () => {
      const received = await call({ method: 'POST', url: '/goods_receipt/api/v1/goods_receipt/create/', payload: { note: 'Stock', items: [{ product, quantity: 10, unit_cost: '3' }] } })
      await call({ method: 'POST', url: `/goods_receipt/api/v1/goods_receipt/confirm/${received.body.id}` })
      expect(await onHand()).toBe(10)
      const counted = await call({ method: 'POST', url: '/stock_count/api/v1/stock_count/create/', payload: { note: 'Shelf count', items: [{ product, counted_quantity: 7 }] } })
      expect(counted.status, counted.raw).toBe(201)
      expect(await onHand()).toBe(7)
      const recount = await call({ method: 'PUT', url: `/stock_count/api/v1/stock_count/update/${counted.body.id}`, payload: { note: 'Shelf count', items: [{ product, counted_quantity: 9 }] } })
      expect(recount.status, recount.raw).toBe(200)
      expect(await onHand()).toBe(9)
      expect((await rowsOf('stock_count', counted.body.id)).map((r) => r.quantity)).toEqual([-3, 3, -1])
      expect((await call({ method: 'DELETE', url: `/stock_count/api/v1/stock_count/delete/${counted.body.id}` })).status).toBe(200)
      expect(await onHand()).toBe(10)
    })

    it('refuses to cancel a receipt whose goods have gone out: the status and the stock stay as they were', async () => {
      const made = await call({ method: 'POST', url: '/goods_receipt/api/v1/goods_receipt/create/', payload: { note: 'Sold on', items: [{ product, quantity: 5, unit_cost: '1' }] } })
      await call({ method: 'POST', url: `/goods_receipt/api/v1/goods_receipt/confirm/${made.body.id}` })
      const before = await onHand()
      const counted = await call({ method: 'POST', url: '/stock_count/api/v1/stock_count/create/', payload: { note: 'All gone', items: [{ product, counted_quantity: 0 }] } })
      expect(counted.status, counted.raw).toBe(201)
      const cancelled = await call({ method: 'POST', url: `/goods_receipt/api/v1/goods_receipt/cancel/${made.body.id}` })
      expect(cancelled.status).toBe(409)
      expect(cancelled.body.detail).toBe('It cannot be cancelled: 5 of the Moving Tea it brought in have already gone out.')
      expect((await call({ method: 'GET', url: `/goods_receipt/api/v1/goods_receipt/${made.body.id}` })).body.status).toBe('confirmed')
      expect(await onHand()).toBe(0)
      expect(before).toBeGreaterThan(0)
    })

    describe('a document moved on a transition and changed while still editable', () => {
      const ISSUES = '/goods_issue/api/v1/goods_issue'
      type Ledgered = { id: number; product: number; quantity: number; unit_cost: string; reverses: number | null; reference_no: string }
      const ledgerOf = async (id: number) =>
        (await sql<Ledgered>`select id, product, quantity, unit_cost::text as unit_cost, reverses, reference_no from stock_ledger where reference_type = 'goods_issue' and reference_id = ${id} order by id`.execute(t.current.db)).rows.map((r) => ({
          ...r,
          id: Number(r.id),
          product: Number(r.product),
          quantity: Number(r.quantity),
          reverses: r.reverses === null ? null : Number(r.reverses),
        }))
      const linesOf = async (id: number) =>
        (await sql<{ id: number; product: number; quantity: number; unit_cost: string | null }>`select id, product, quantity, unit_cost::text as unit_cost from goods_issue_line where goods_issue = ${id} order by id`.execute(t.current.db)).rows.map((r) => ({
          id: Number(r.id),
          product: Number(r.product),
          quantity: Number(r.quantity),
          unit_cost: r.unit_cost === null ? null : Number(r.unit_cost),
        }))
      const stockOf = async (p: number) => Number((await sql<{ quantity: number }>`select quantity from inventory where id = ${p}`.execute(t.current.db)).rows[0]?.quantity ?? 0)
      const newProduct = async (name: string) => Number((await sql<{ id: number }>`insert into product (name) values (${`${name} ${Math.random()}`}) returning id`.execute(t.current.db)).rows[0]!.id)
      const receive = async (p: number, quantity: number, unitCost: string) => {
        const made = await call({ method: 'POST', url: '/goods_receipt/api/v1/goods_receipt/create/', payload: { note: 'In', items: [{ product: p, quantity, unit_cost: unitCost }] } })
        expect(made.status, made.raw).toBe(201)
        expect((await call({ method: 'POST', url: `/goods_receipt/api/v1/goods_receipt/confirm/${made.body.id}` })).status).toBe(200)
      }

      it('moves the goods again as the lines now are: the first movement reversed, the new one moved under the same number, each line’s cost written', async () => {
        // Sugar is the older product: moved first (stock moves in product order), though its line comes last.
        const sugar = await newProduct('Issued Sugar')
        const tea = await newProduct('Issued Tea')
        await receive(tea, 10, '2.5')
        const made = await call({ method: 'POST', url: `${ISSUES}/create/`, payload: { note: 'To the shop', items: [{ product: tea, quantity: 3 }] } })
        expect(made.status, made.raw).toBe(201)
        const lineId = Number(made.body.items[0].id)
        // A draft changed moves nothing: nothing of it stands.
        const drafted = await call({ method: 'PATCH', url: `${ISSUES}/update/${made.body.id}`, payload: { note: 'To the shop, soon' } })
        expect(drafted.status, drafted.raw).toBe(200)
        expect(await ledgerOf(made.body.id)).toEqual([])
        expect(await linesOf(made.body.id)).toEqual([{ id: lineId, product: tea, quantity: 3, unit_cost: null }])

        const confirmed = await call({ method: 'POST', url: `${ISSUES}/confirm/${made.body.id}` })
        expect(confirmed.status, confirmed.raw).toBe(200)
        expect(await stockOf(tea)).toBe(7)
        const [first] = await ledgerOf(made.body.id)
        expect(await ledgerOf(made.body.id)).toEqual([{ id: first!.id, product: tea, quantity: -3, unit_cost: '2.5000', reverses: null, reference_no: made.body.number }])
        // The line keeps the cost it went out at: the moving average then.
        expect(await linesOf(made.body.id)).toEqual([{ id: lineId, product: tea, quantity: 3, unit_cost: 2.5 }])
        expect(Number(confirmed.body.items[0].unit_cost)).toBe(2.5)

        // More comes in at another cost: the average moves.
        await receive(tea, 10, '4')
        // Confirmed, still editable: 3 → 5.
        const changed = await call({ method: 'PUT', url: `${ISSUES}/update/${made.body.id}`, payload: { note: 'To the shop', items: [{ id: lineId, product: tea, quantity: 5 }] } })
        expect(changed.status, changed.raw).toBe(200)
        expect(changed.body.status).toBe('confirmed')
        const rows = await ledgerOf(made.body.id)
        expect(rows.map(({ quantity, reverses, reference_no }) => ({ quantity, reverses, reference_no }))).toEqual([
          { quantity: -3, reverses: null, reference_no: made.body.number },
          { quantity: 3, reverses: first!.id, reference_no: made.body.number },
          { quantity: -5, reverses: null, reference_no: made.body.number },
        ])
        expect(await stockOf(tea)).toBe(10 - 3 + 10 + 3 - 5)
        // Back in at what it went out at (3 × 2.5), then out at the average of 20 units worth 65.00.
        expect(rows[2]!.unit_cost).toBe('3.2500')
        expect(await linesOf(made.body.id)).toEqual([{ id: lineId, product: tea, quantity: 5, unit_cost: 3.25 }])
        expect(Number((await call({ method: 'GET', url: `${ISSUES}/${made.body.id}` })).body.items[0].unit_cost)).toBe(3.25)

        // Nothing it moves changed (its note): nothing moves again.
        expect((await call({ method: 'PATCH', url: `${ISSUES}/update/${made.body.id}`, payload: { note: 'To the big shop' } })).status).toBe(200)
        expect(await ledgerOf(made.body.id)).toHaveLength(3)
        // A client cannot set the cost itself.
        await call({ method: 'PATCH', url: `${ISSUES}/update/${made.body.id}`, payload: { items: [{ id: lineId, product: tea, quantity: 5, unit_cost: '0.01' }] } })
        expect((await linesOf(made.body.id))[0]!.unit_cost).toBe(3.25)
        expect(await ledgerOf(made.body.id)).toHaveLength(3)

        // A line added: moved with the others, its own cost written on its new row.
        await receive(sugar, 4, '1.2')
        const added = await call({ method: 'PUT', url: `${ISSUES}/update/${made.body.id}`, payload: { note: 'To the shop', items: [{ id: lineId, product: tea, quantity: 5 }, { product: sugar, quantity: 2 }] } })
        expect(added.status, added.raw).toBe(200)
        expect(await stockOf(sugar)).toBe(2)
        expect(await stockOf(tea)).toBe(15)
        const lines = await linesOf(made.body.id)
        expect(lines).toEqual([
          { id: lineId, product: tea, quantity: 5, unit_cost: 3.25 },
          { id: expect.any(Number), product: sugar, quantity: 2, unit_cost: 1.2 },
        ])
        expect((await ledgerOf(made.body.id)).slice(3).map((r) => [r.product, r.quantity, r.reverses])).toEqual([
          [tea, 5, rows[2]!.id],
          [sugar, -2, null],
          [tea, -5, null],
        ])

        // Cancelled: what stands goes back, and a change no longer moves anything.
        expect((await call({ method: 'POST', url: `${ISSUES}/cancel/${made.body.id}` })).status).toBe(200)
        expect([await stockOf(tea), await stockOf(sugar)]).toEqual([20, 4])
      })

      it('refuses a change that sends out more than is on hand: 400 on the line, and nothing written — the lines, the stock and its ledger as they were', async () => {
        const salt = await newProduct('Issued Salt')
        await receive(salt, 6, '1.5')
        const made = await call({ method: 'POST', url: `${ISSUES}/create/`, payload: { note: 'Salt out', items: [{ product: salt, quantity: 3 }] } })
        expect((await call({ method: 'POST', url: `${ISSUES}/confirm/${made.body.id}` })).status).toBe(200)
        const before = { ledger: await ledgerOf(made.body.id), lines: await linesOf(made.body.id), stock: await stockOf(salt) }
        expect(before.stock).toBe(3)
        expect(before.lines[0]!.unit_cost).toBe(1.5)

        // 6 were on hand before it went out: 7 cannot.
        const refused = await call({ method: 'PUT', url: `${ISSUES}/update/${made.body.id}`, payload: { note: 'Salt out, more', items: [{ id: before.lines[0]!.id, product: salt, quantity: 7 }] } })
        expect(refused.status, refused.raw).toBe(400)
        expect(Object.keys(refused.body)).toEqual(['items.0.quantity'])
        expect(await ledgerOf(made.body.id)).toEqual(before.ledger)
        expect(await linesOf(made.body.id)).toEqual(before.lines)
        expect(await stockOf(salt)).toBe(3)
        const read = await call({ method: 'GET', url: `${ISSUES}/${made.body.id}` })
        expect(read.body).toMatchObject({ note: 'Salt out', status: 'confirmed', items: [{ quantity: 3 }] })
        // Exactly what was on hand goes.
        const all = await call({ method: 'PUT', url: `${ISSUES}/update/${made.body.id}`, payload: { note: 'Salt out', items: [{ id: before.lines[0]!.id, product: salt, quantity: 6 }] } })
        expect(all.status, all.raw).toBe(200)
        expect(await stockOf(salt)).toBe(0)
      })
    })
  },
  { entities: registered, modules: [goodsModule] },
)
