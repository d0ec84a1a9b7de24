import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { signToken } from '../../server/auth/tokens'
import { ADMIN, JWT_SECRET, describeEachDatabase } from './helpers/app'

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

  async function countryId(): Promise<number> {
    const r = await sql<{ id: number }>`insert into country (name) values ('Quickpanel land') returning id`.execute(t.current.db)
    return r.rows[0]!.id
  }
})
