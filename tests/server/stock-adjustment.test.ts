import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from './helpers/app'

/**
 * The stock adjustment (issue 21): a draft names what was counted or changed and why;
 * confirming it moves the stock through the kernel and posts the value moved as a journal
 * (Dr Stock In Hand / Cr Stock Adjustment when found, the other way when lost, nothing when
 * a count found what was on hand); cancelling undoes both. A refusal leaves it a draft with
 * nothing moved or posted, and no stock ever goes below zero — 30 parallel confirms of one
 * unit out, with 10 on hand, confirm exactly 10.
 */
describeEachDatabase('stock adjustments', (t) => {
  const base = '/stock_adjustment/api/v1/stock_adjustment'
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  let product: number
  const today = new Date().toISOString().slice(0, 10)

  beforeAll(async () => {
    const made = await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Counted Tea' } })
    expect(made.status, made.raw).toBe(201)
    product = made.body.id
  })

  const stock = async () => (await call({ method: 'GET', url: `/inventory/api/v1/inventory/${product}` })).body as { quantity: number; stock_value: string; valuation_rate: string; low_stock_alert: number; is_low_stock: boolean }
  const journalOf = async (number: string | null) =>
    number === null
      ? []
      : (
          await sql<{ name: string; debit_amount: string; credit_amount: string }>`
            select l.name, a.debit_amount::text, a.credit_amount::text from account_log a join ledger_account l on l.id = a.ledger
            where a.reference_no = ${number} order by a.id`.execute(t.current.db)
        ).rows.map((r) => [r.name, Number(r.debit_amount), Number(r.credit_amount)])
  const adjust = async (items: object[], reason = 'Shelf count') => {
    const made = await call({ method: 'POST', url: `${base}/create/`, payload: { reason, adjustment_date: today, items } })
    expect(made.status, made.raw).toBe(201)
    return made.body as { id: number; number: string; status: string }
  }
  const confirm = (id: number) => call({ method: 'POST', url: `${base}/confirm/${id}` })

  it('brings found units in at their cost and posts their value to Stock In Hand against Stock Adjustment', async () => {
    const draft = await adjust([{ product, quantity: 10, unit_cost: '2.5' }], 'Opening stock')
    expect(draft.status).toBe('draft')
    expect(draft.number).toMatch(/^ADJ\d{8}00\d+$/)
    expect((await stock()).quantity).toBe(0)
    const confirmed = await confirm(draft.id)
    expect(confirmed.status, confirmed.raw).toBe(200)
    expect(confirmed.body.status).toBe('confirmed')
    expect(confirmed.body.journal_no).toMatch(/^JO/)
    expect(await stock()).toMatchObject({ quantity: 10, stock_value: '25.00' })
    expect(await journalOf(confirmed.body.journal_no)).toEqual([
      ['Stock In Hand', 25, 0],
      ['Stock Adjustment', 0, 25],
    ])
  })

  it('moves what a count finds different, posts a loss the other way, and a count that agrees posts nothing', async () => {
    const same = await adjust([{ product, counted_quantity: 10 }])
    const agreed = await confirm(same.id)
    expect(agreed.status, agreed.raw).toBe(200)
    expect(agreed.body.journal_no).toBeNull()
    const lost = await adjust([{ product, counted_quantity: 7 }], 'Three broken')
    const counted = await confirm(lost.id)
    expect(await stock()).toMatchObject({ quantity: 7, stock_value: '17.50' })
    expect(await journalOf(counted.body.journal_no)).toEqual([
      ['Stock Adjustment', 7.5, 0],
      ['Stock In Hand', 0, 7.5],
    ])

    const cancelled = await call({ method: 'POST', url: `${base}/cancel/${lost.id}` })
    expect(cancelled.status, cancelled.raw).toBe(200)
    expect(await stock()).toMatchObject({ quantity: 10, stock_value: '25.00' })
    // The journal stands reversed: its rows and their opposites.
    expect((await journalOf(counted.body.journal_no)).map(([, d, c]) => Number(d) - Number(c))).toEqual([7.5, -7.5, -7.5, 7.5])
  })

  it('refuses to take out more than is on hand: still a draft, nothing moved, nothing posted, no number spent', async () => {
    const before = await stock()
    const journals = Number((await sql<{ n: string }>`select count(*) as n from journal`.execute(t.current.db)).rows[0]!.n)
    const draft = await adjust([{ product, quantity: -11 }], 'Too many')
    const refused = await confirm(draft.id)
    expect(refused.status, refused.raw).toBe(400)
    expect(refused.body['items.0.quantity']).toEqual(['Only 10 of Counted Tea in stock: 11 cannot go out.'])
    expect((await call({ method: 'GET', url: `${base}/${draft.id}` })).body).toMatchObject({ status: 'draft', journal_no: null })
    expect(await stock()).toEqual(before)
    expect(Number((await sql<{ n: string }>`select count(*) as n from journal`.execute(t.current.db)).rows[0]!.n)).toBe(journals)
  })

  it('refuses a line that both counts and changes, or changes by nothing, with the field named', async () => {
    const both = await call({ method: 'POST', url: `${base}/create/`, payload: { reason: 'Mixed', items: [{ product, quantity: 2, counted_quantity: 3 }, { product: product, quantity: 0 }] } })
    expect(both.status, both.raw).toBe(400)
    expect(both.body['items.0.counted_quantity']).toEqual(['Give either the counted quantity or the quantity change, not both.'])
    expect(both.body['items.1.quantity']).toBeDefined()
    const locked = await adjust([{ product, quantity: 1, unit_cost: '2.5' }])
    await confirm(locked.id)
    const changed = await call({ method: 'PUT', url: `${base}/update/${locked.id}`, payload: { reason: 'Changed', items: [{ product, quantity: 5 }] } })
    expect(changed.status).toBe(409)
    expect((await confirm(locked.id)).status).toBe(409)
    await call({ method: 'POST', url: `${base}/cancel/${locked.id}` })
  })

  it('flags a product at or below its low-stock alert (the product’s, 5 unless set), in its stock row and the stock list', async () => {
    expect(await stock()).toMatchObject({ quantity: 10, low_stock_alert: 5, is_low_stock: false })
    const set = await call({ method: 'PUT', url: `/product/api/v1/product/update/${product}`, payload: { low_stock_alert: 10 } })
    expect(set.status, set.raw).toBe(200)
    expect(await stock()).toMatchObject({ quantity: 10, low_stock_alert: 10, is_low_stock: true })
    const listed = await call({ method: 'GET', url: `/inventory/api/v1/inventory/all/` })
    expect(listed.body.inventories.find((r: { product: { id: number } }) => r.product.id === product)).toMatchObject({ is_low_stock: true, low_stock_alert: 10 })
    await call({ method: 'PUT', url: `/product/api/v1/product/update/${product}`, payload: { low_stock_alert: 5 } })
  })

  it('with 10 on hand, 30 parallel confirms of one unit out confirm exactly 10 and leave 0', async () => {
    expect((await stock()).quantity).toBe(10)
    const drafts = await Promise.all(Array.from({ length: 30 }, () => adjust([{ product, quantity: -1 }], 'Sold at the counter')))
    const answers = await Promise.all(drafts.map((d) => confirm(d.id)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10)
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual(Array(20).fill(400))
    expect(await stock()).toMatchObject({ quantity: 0, stock_value: '0.00' })
    const ledger = (await sql<{ q: string }>`select coalesce(sum(quantity), 0)::text as q from stock_ledger where product = ${product}`.execute(t.current.db)).rows[0]!.q
    expect(Number(ledger)).toBe(0)
    // The general ledger's Stock In Hand holds what the stock is worth: nothing.
    const held = (await sql<{ v: string }>`select coalesce(sum(a.debit_amount - a.credit_amount), 0)::text as v from account_log a join ledger_account l on l.id = a.ledger where l.name = 'Stock In Hand'`.execute(t.current.db)).rows[0]!.v
    expect(Number(held)).toBe(0)
  })
})
