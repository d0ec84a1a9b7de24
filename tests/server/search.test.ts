import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { describeEachDatabase } from './helpers/app'
import { createReferences, createRow, sampleInput } from './helpers/samples'

/**
 * `q` on `search/` and `all/` (issue 7): any searchable field matches, ignoring case and
 * accents, served by an index; the contract's named parameters keep working; a count is
 * exact whatever the cache behind it.
 */
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id)

describeEachDatabase('search with q', (t) => {
  it('finds a user by first name, whatever its case and accents', async () => {
    const user = await createRow(t.current, registry.user, { ...sampleInput(registry.user, {}), first_name: 'Şükrü', last_name: 'Öztürk', email: 'sukru@example.com' })
    for (const q of ['sukru', 'ŞÜKRÜ', 'şükrü', 'ozturk']) {
      const res = await t.current.call({ method: 'GET', url: `${registry.user.api.base}/search/?q=${encodeURIComponent(q)}` })
      expect(res.status, q).toBe(200)
      expect(ids(res.body.users), q).toContain(user.id)
    }
    // The list search box uses all/ with q too.
    const all = await t.current.call({ method: 'GET', url: `${registry.user.api.base}/all/?q=sukru` })
    expect(ids(all.body.users)).toEqual([user.id])
    expect(all.body.total_elements).toBe(1)
  })

  it('finds an employee by part of a phone number, and a country by its code', async () => {
    const refIds = await createReferences(t.current, registry.employee)
    const employee = await createRow(t.current, registry.employee, { ...sampleInput(registry.employee, refIds), primary_phone: '+8801987654321' })
    const byPhone = await t.current.call({ method: 'GET', url: `${registry.employee.api.base}/search/?q=987654` })
    expect(ids(byPhone.body.employees)).toEqual([employee.id])
    const country = await createRow(t.current, registry.country, { name: 'Qatarland', country_code: 'QZ' })
    const byCode = await t.current.call({ method: 'GET', url: `${registry.country.api.base}/all/?q=qz` })
    expect(ids(byCode.body.countries)).toContain(country.id)
    // And by its phone code and its continent, as people know a country.
    const other = await createRow(t.current, registry.country, { name: 'Zedonia', phone_code: '+997', continent_name: 'Atlantis' })
    for (const q of ['%2B997', 'atlant']) expect(ids((await t.current.call({ method: 'GET', url: `${registry.country.api.base}/all/?q=${q}` })).body.countries), q).toEqual([other.id])
  })

  it("matches a searchable reference by its row's label, and keeps the contract's named parameters", async () => {
    const role = await createRow(t.current, registry.role, { name: 'warehouse keeper' })
    await t.current.call({ method: 'POST', url: '/role_menu/api/v1/role_menu/create/', payload: { role: role.id, menu_items: [] } })
    const byLabel = await t.current.call({ method: 'GET', url: '/role_menu/api/v1/role_menu/search/?q=warehouse' })
    expect(byLabel.body.role_menus.map((r: { role: string }) => r.role)).toEqual(['WAREHOUSE_KEEPER'])
    const named = await t.current.call({ method: 'GET', url: '/role_menu/api/v1/role_menu/search/?role=keeper' })
    expect(ids(named.body.role_menus)).toEqual([role.id])
    const byId = await t.current.call({ method: 'GET', url: `/role_menu/api/v1/role_menu/search/?role=${role.id}` })
    expect(ids(byId.body.role_menus)).toEqual([role.id])
    // q and a named filter together narrow each other.
    const both = await t.current.call({ method: 'GET', url: `${registry.country.api.base}/search/?q=land&name=qatar` })
    expect(both.body.countries.every((c: { name: string }) => c.name.toLowerCase().includes('qatar'))).toBe(true)
  })

  it('uses a search index for q (the plan of a search on a large table)', async () => {
    await sql`insert into department (name) select 'Dept ' || g from generate_series(1, 3000) g`.execute(t.current.db)
    await sql`analyze department`.execute(t.current.db)
    await sql`set enable_seqscan = off`.execute(t.current.db)
    try {
      const plan = await sql<{ 'QUERY PLAN': string }>`explain select id from department where bo_unaccent(name) ilike bo_unaccent('%ept 12%')`.execute(t.current.db)
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('department_name_search')
    } finally {
      await sql`reset enable_seqscan`.execute(t.current.db)
    }
  })

  it('keeps total_elements exact as rows are added, changed and removed between searches', async () => {
    const url = `${registry.department.api.base}/search/?q=zebra&size=2`
    const total = async () => (await t.current.call({ method: 'GET', url })).body.total_elements as number
    expect(await total()).toBe(0)
    const created = await Promise.all(['Zebra one', 'Zebra two', 'Zebra three'].map((name) => createRow(t.current, registry.department, { name })))
    expect(await total()).toBe(3)
    // Paging through counts once; the count stays right page after page.
    const page2 = await t.current.call({ method: 'GET', url: `${url}&page=2` })
    expect(page2.body).toMatchObject({ total_elements: 3, total_pages: 2, page: 2 })
    await t.current.call({ method: 'PUT', url: `${registry.department.api.base}/update/${created[0]!.id}`, payload: { name: 'Horse' } })
    expect(await total()).toBe(2)
    await sql`update department set name = 'Zebra again' where id = ${created[0]!.id}`.execute(t.current.db)
    expect(await total()).toBe(3)
    await t.current.call({ method: 'DELETE', url: `${registry.department.api.base}/delete/${created[1]!.id}` })
    expect(await total()).toBe(2)
  })

  it('refuses q with a NUL character and cuts a very long one', async () => {
    const nul = await t.current.call({ method: 'GET', url: `${registry.department.api.base}/search/?q=a%00b` })
    expect(nul.status).toBe(400)
    const long = await t.current.call({ method: 'GET', url: `${registry.department.api.base}/all/?q=${'x'.repeat(5000)}` })
    expect(long.status).toBe(200)
    expect(long.body.total_elements).toBe(0)
  })
})

describe('searchable label fields', () => {
  it('every entity can be found by its label: a picker searches it', () => {
    for (const e of Object.values(registry)) expect(e.searchFields, e.name).toContain(e.labelField)
  })
})
