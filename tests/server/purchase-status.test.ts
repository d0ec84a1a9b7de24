import { expect, it } from 'vitest'
import { describeEachDatabase } from './helpers/app'

/**
 * The purchase statuses (api-contract §4.10; issue 21): the contract's five, seeded at every
 * start in their order under `purchase_statuses`, none of which may be renamed or deleted;
 * others may be added and removed.
 */
const BASE = '/purchase_status/api/v1/purchase_status'

describeEachDatabase('purchase statuses', (t) => {
  it('lists the contract’s five, in their order, under its key', async () => {
    const listed = await t.current.call({ method: 'GET', url: `${BASE}/all/` })
    expect(listed.status).toBe(200)
    expect((listed.body.purchase_statuses as Array<{ name: string }>).map((s) => s.name)).toEqual(['pending', 'processing', 'submitted', 'verified', 'cancelled'])
    expect(Object.keys(listed.body.purchase_statuses[0]).sort()).toEqual(expect.arrayContaining(['id', 'name']))
  })

  it('refuses to rename or delete one the flow relies on, saying which; another comes and goes', async () => {
    const all = (await t.current.call({ method: 'GET', url: `${BASE}/all/` })).body.purchase_statuses as Array<{ id: number; name: string }>
    const pending = all.find((s) => s.name === 'pending')!
    const renamed = await t.current.call({ method: 'PUT', url: `${BASE}/update/${pending.id}`, payload: { name: 'waiting' } })
    expect(renamed.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(renamed.body)).toContain("The purchase status 'pending' is one the purchasing flow relies on")
    expect((await t.current.call({ method: 'DELETE', url: `${BASE}/delete/${pending.id}` })).status).toBeGreaterThanOrEqual(400)
    const added = await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: { name: 'on_hold' } })
    expect(added.status).toBe(201)
    expect((await t.current.call({ method: 'DELETE', url: `${BASE}/delete/${added.body.id}` })).status).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${BASE}/all/` })).body.purchase_statuses).toHaveLength(5)
  })
})
