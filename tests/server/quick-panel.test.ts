import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { deliveryNote, memo } from '../support/throwaway-registry'
import { ADMIN, JWT_SECRET, callerWith, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { ledgerUnder } from './helpers/ledgers'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

const PANEL = '/api/quick-panel/data'

describeEachDatabase('the quick panel', (t) => {
  it("gives today's date, a count per entity and the latest changes with their actor", async () => {
    const created = await t.current.call({ method: 'POST', url: '/city/api/v1/city/create/', payload: { name: 'Quickpanel town', country: await countryId() } })
    expect(created.status).toBe(201)
    const r = await t.current.call({ method: 'GET', url: PANEL })
    expect(r.status).toBe(200)
    expect(r.body.date).toBe(new Date().toISOString().slice(0, 10))
    const cities = await sql<{ n: string }>`select count(*) as n from city`.execute(t.current.db)
    expect(r.body.counts.cities).toBe(Number(cities.rows[0]!.n))
    expect(Object.keys(r.body.counts)).toEqual(expect.arrayContaining(['thanas', 'users', 'roles', 'homepage_sliders', 'role_menus']))
    // The lines of a document (a role's menu items) are not records of their own.
    expect(Object.keys(r.body.counts).filter((k) => k.endsWith('_lines'))).toEqual([])
    expect(r.body.recent[0]).toMatchObject({ actor: ADMIN.email, entity: 'city', entity_id: created.body.id, action: 'create' })
    expect(r.body.recent.length).toBeLessThanOrEqual(10)
  })

  it('leaves a user saving their own UI settings out of the recent changes: it is not business activity', async () => {
    const before = await t.current.call({ method: 'GET', url: PANEL })
    const saved = await t.current.call({ method: 'POST', url: '/api/auth/user/update', payload: { settings: { theme: { main: 'teal-dark' }, language: 'ar' } } })
    expect(saved.status).toBe(200)
    expect(saved.body.user.settings).toMatchObject({ language: 'ar' })
    const after = await t.current.call({ method: 'GET', url: PANEL })
    expect(after.body.recent[0]).toEqual(before.body.recent[0])
    const audited = await sql<{ n: string }>`select count(*) as n from audit_log where entity = 'user' and changes ? 'settings'`.execute(t.current.db)
    expect(Number(audited.rows[0]!.n)).toBe(0)
  })

  it('shows a USER-role account nothing of the back-office, only the date', async () => {
    const id = await t.current.createUser({ email: 'panel-user@example.com' })
    const role = await sql<{ id: number }>`select id from role where name = 'USER'`.execute(t.current.db)
    await sql`update "user" set role = ${role.rows[0]!.id} where id = ${id}`.execute(t.current.db)
    const r = await t.current.call({ method: 'GET', url: PANEL, headers: { authorization: `Bearer ${await signToken(JWT_SECRET, id)}` } })
    expect(r.status).toBe(200)
    expect(r.body.counts).toEqual({})
    expect(r.body.recent).toEqual([])
  })

  it('counts per entity what its list totals (total_elements): a voucher kept one row per line once, not per line', async () => {
    const db = t.current.db
    const [rent, power, vendor] = [await ledgerUnder(db, 'Office Rent', 'Indirect Expenses'), await ledgerUnder(db, 'Electricity', 'Indirect Expenses'), await ledgerUnder(db, 'Rahim Supplies', 'Sundry Creditors')]
    for (let i = 0; i < 2; i++) {
      const made = await t.current.call({
        method: 'POST',
        url: `${registry.journal.api.base}/create/`,
        payload: { journal_date: '2026-04-15', details: 'Three lines', items: [{ ledger: rent, debit_amount: '70' }, { ledger: power, debit_amount: '30' }, { ledger: vendor, credit_amount: '100' }] },
      })
      expect(made.status, made.raw).toBe(201)
    }
    const stored = await sql<{ rows: number; documents: number }>`select count(*)::int as rows, count(distinct invoice_no)::int as documents from journal`.execute(db)
    expect(stored.rows[0]).toEqual({ rows: 6, documents: 2 })
    const { counts } = (await t.current.call({ method: 'GET', url: PANEL })).body
    expect(counts.journals).toBe(2)
    await expectCountsAsListed(t.current, counts, (o) => t.current.call(o))
    // Every list an admin may open is counted.
    expect(Object.keys(counts).sort()).toEqual(entities.filter((e) => !e.isLine).map((e) => e.listKey).sort())
  })

  it('counts only the lists the caller may open, each as their list totals it', async () => {
    const clerk = await callerWith(t.current, ['CITY_LIST', 'JOURNAL_LIST', 'JOURNAL_DETAILS'])
    const r = await clerk({ method: 'GET', url: PANEL })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body.counts).sort()).toEqual(['cities', 'journals'])
    await expectCountsAsListed(t.current, r.body.counts, clerk)
  })

  async function countryId(): Promise<number> {
    const r = await sql<{ id: number }>`insert into country (name) values ('Quickpanel land') returning id`.execute(t.current.db)
    return r.rows[0]!.id
  }
})

/** Each count is what the entity's list for the same caller totals (`total_elements`). */
async function expectCountsAsListed(app: TestApp, counts: Record<string, number>, call: (o: Parameters<TestApp['call']>[0]) => Promise<Reply>): Promise<void> {
  const byListKey = new Map(app.app.engine.registry.map((e) => [e.listKey, e]))
  for (const [listKey, n] of Object.entries(counts)) {
    const entity = byListKey.get(listKey)!
    const list = await call({ method: 'GET', url: `${entity.api.base}/all/?size=1` })
    expect(list.status, `${entity.name}: ${list.raw}`).toBe(200)
    // A list the contract answers unpaged (`paginateAll: false`: menu items) totals its rows.
    expect(n, entity.name).toBe(list.body.total_elements ?? list.body[listKey].length)
  }
}

useThrowawayLabels()

describeEachDatabase(
  'the quick panel’s counts, within row scopes',
  (t) => {
    it('counts only the rows of the caller’s scope, as their list does; a document kept one row per line once', async () => {
      const perms = ['MEMO_LIST', 'MEMO_CREATE']
      const ann = await callerWith(t.current, perms)
      const bob = await callerWith(t.current, perms)
      expect((await ann({ method: 'POST', url: `${memo.api.base}/create/`, payload: { name: 'Ann memo' } })).status).toBe(201)
      for (const name of ['Bob memo 1', 'Bob memo 2']) expect((await bob({ method: 'POST', url: `${memo.api.base}/create/`, payload: { name } })).status).toBe(201)
      const anns = (await ann({ method: 'GET', url: PANEL })).body.counts
      expect(anns).toEqual({ memos: 1 })
      await expectCountsAsListed(t.current, anns, ann)
      expect((await bob({ method: 'GET', url: PANEL })).body.counts).toEqual({ memos: 2 })
      // An admin's scope is every row.
      const admins = (await t.current.call({ method: 'GET', url: PANEL })).body.counts
      expect(admins.memos).toBe(3)

      const country = await sql<{ id: number }>`insert into country (name) values ('Noteland') returning id`.execute(t.current.db)
      const cities = await sql<{ id: number }>`insert into city (name, country) values ('Hub', ${country.rows[0]!.id}), ('North', ${country.rows[0]!.id}) returning id`.execute(t.current.db)
      const [hub, north] = cities.rows.map((r) => r.id)
      const made = await t.current.call({ method: 'POST', url: `${deliveryNote.api.base}/create/`, payload: { note_date: '2026-05-04', depot: north, items: [{ gadget: hub, quantity: 1 }, { gadget: north, quantity: 2 }] } })
      expect(made.status, made.raw).toBe(201)
      const again = (await t.current.call({ method: 'GET', url: PANEL })).body.counts
      expect(again[deliveryNote.listKey]).toBe(1)
      await expectCountsAsListed(t.current, again, (o) => t.current.call(o))
    })
  },
  throwawayApp,
)
