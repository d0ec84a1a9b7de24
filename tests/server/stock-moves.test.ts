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

type Line = Record<string, unknown>
const goodsModule: DomainModule = {
  name: 'test-goods',
  stockMoves: {
    goods_receipt: ({ record }) => (record.items as Line[]).map((l) => ({ product: Number(l.product), quantity: Number(l.quantity), unitCost: String(l.unit_cost) })),
    stock_count: ({ record }) => (record.items as Line[]).map((l) => ({ product: Number(l.product), counted: Number(l.counted_quantity) })),
  },
}
// The stock ledger names these documents too (the registry check refuses a document it does not name).
const ledger = stockLedgerOf([...stockReferenceTypes, 'goods_receipt', 'stock_count'])
const registered = [...entities.map((e) => (e.name === 'stock_ledger' ? ledger : e)), receipt, receiptLine, count, countLine]
const labels = {
  goods_receipt: { one: 'Goods receipt', other: 'Goods receipts' },
  goods_receipt_line: { one: 'Received line', other: 'Received lines' },
  stock_count: { one: 'Stock count', other: 'Stock counts' },
  stock_count_line: { one: 'Counted line', other: 'Counted lines' },
}
let undoLabels: () => void
beforeAll(() => {
  undoLabels = addThrowawayLabels(catalogues)
  for (const catalogue of Object.values(catalogues)) {
    Object.assign(catalogue.entity as Record<string, unknown>, labels)
    Object.assign(catalogue.option as Record<string, unknown>, { goods_receipt: 'Goods receipt', stock_count: 'Stock count' })
  }
})
afterAll(() => {
  undoLabels()
  for (const catalogue of Object.values(catalogues)) {
    for (const name of Object.keys(labels)) delete (catalogue.entity as Record<string, unknown>)[name]
    for (const name of ['goods_receipt', 'stock_count']) delete (catalogue.option as Record<string, unknown>)[name]
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
  },
  { entities: registered, modules: [goodsModule] },
)
