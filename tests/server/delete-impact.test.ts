import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { referencesTo } from '../../server/engine/delete-impact'
import { migrate } from '../../server/db/sync'
import { registrySchema } from '../../server/db/registry-schema'
import { signToken } from '../../server/auth/tokens'
import { describeEachDatabase, JWT_SECRET, type TestApp } from './helpers/app'
import { ledgerUnder } from './helpers/ledgers'
import { databaseKinds, freshDatabase, isAvailable } from './helpers/databases'
import { countRows, createReferences, createRow, createSample, sampleInput } from './helpers/samples'

/**
 * Deleting a record that others refer to (issue 8): `delete_impact/` says, before anything
 * is done, what refers to it and what a delete would do — refused by default, links cleared
 * where the registry chose `onDelete: 'setNull'`, rows deleted with it, many-to-many links
 * and document lines removed — for one record or a selection; the delete's messages in the
 * request's language; names that must be unique refused with a clear message.
 */
const impact = (t: TestApp, entity: { api: { base: string } }, ids: number[], headers: Record<string, string> = {}) =>
  t.call({ method: 'GET', url: ids.length === 1 ? `${entity.api.base}/delete_impact/${ids[0]}` : `${entity.api.base}/delete_impact/?ids=${ids.join(',')}`, headers })

async function district(t: TestApp) {
  const { row: country } = await createSample(t, registry.country)
  const city = await createRow(t, registry.city, { ...sampleInput(registry.city, {}), country: country.id })
  return { country: country.id as number, city: city.id as number, name: city.name as string }
}

describe('references in the registry', () => {
  it('finds every reference to an entity, with what deleting does to it', () => {
    const shown = (name: string) =>
      referencesTo(entities, entities.find((e) => e.name === name)!)
        .map((r) => `${r.shownAs.name}.${r.field}:${r.effect}`)
        .sort()
    expect(shown('city')).toEqual(['billingaddress.city:refuse', 'branch.city:clear', 'shippingaddress.city:refuse', 'thana.city:refuse', 'user.city:refuse'])
    // Many-to-many links and a document's lines.
    expect(shown('permission')).toEqual(['role.permissions:unlink'])
    expect(shown('menu_item')).toEqual(['menu_item.parent:delete', 'role_menu.menu_items:unlink'])
    // An employee is a user: references to either row count.
    expect(shown('employee')).toEqual(shown('user'))
    expect(shown('user')).toContain('qualification.employee_id:delete')
  })
})

describeEachDatabase('deleting referenced records', (t) => {
  it('says what refers to a district and that the delete is refused, and refuses it (409) in the same words, naming things as the screens do', async () => {
    const { city, country, name } = await district(t.current)
    for (let i = 0; i < 3; i++) await createRow(t.current, registry.thana, { ...sampleInput(registry.thana, {}), city })
    await createRow(t.current, registry.branch, { ...sampleInput(registry.branch, {}), city, country, thana: null })
    const res = await impact(t.current, registry.city, [city])
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toEqual({
      ids: [city],
      can_delete: false,
      references: [
        { entity: 'thana', field: 'city', count: 3, effect: 'refuse' },
        { entity: 'branch', field: 'city', count: 1, effect: 'clear' },
      ],
      detail: `District '${name}' cannot be deleted: 3 Police Stations refer to it.`,
    })
    const del = await t.current.call({ method: 'DELETE', url: `${registry.city.api.base}/delete/${city}` })
    expect(del.status).toBe(409)
    expect(del.body).toEqual({ detail: `District '${name}' cannot be deleted: 3 Police Stations refer to it.` })
    const tr = await impact(t.current, registry.city, [city], { 'accept-language': 'tr' })
    expect(tr.body.detail).toBe(`İlçe '${name}' silinemez: Karakollar kayıtlarından 3 tanesi ona bağlı.`)
    const delTr = await t.current.call({ method: 'DELETE', url: `${registry.city.api.base}/delete/${city}`, headers: { 'accept-language': 'ar' } })
    expect(delTr.body).toEqual({ detail: `لا يمكن حذف منطقة '${name}': يشير إليه 3 من مراكز الشرطة.` })
  })

  it('clears the links the registry chose to clear (a branch’s district), and says so first', async () => {
    const { city, country } = await district(t.current)
    const branch = await createRow(t.current, registry.branch, { ...sampleInput(registry.branch, {}), city, country, thana: null })
    expect((await impact(t.current, registry.city, [city])).body).toEqual({
      ids: [city],
      can_delete: true,
      references: [{ entity: 'branch', field: 'city', count: 1, effect: 'clear' }],
    })
    expect((await t.current.call({ method: 'DELETE', url: `${registry.city.api.base}/delete/${city}` })).status).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${registry.branch.api.base}/${branch.id}` })).body).toMatchObject({ city: null, country })
  })

  it('writes an audit entry, by the caller, for every row a delete clears (a deleted category’s products)', async () => {
    const category = await createRow(t.current, registry.category, { name: `Cleared ${t.current.kind}` })
    const products: number[] = []
    for (const n of [1, 2]) products.push((await createRow(t.current, registry.product, { name: `Cleared product ${n} ${t.current.kind}`, category: category.id })).id as number)
    expect((await t.current.call({ method: 'DELETE', url: `${registry.category.api.base}/delete/${category.id}` })).status).toBe(200)
    const audit = await sql<{ entity_id: number; action: string; changes: unknown; actor: number | null }>`
      select entity_id, action, changes, actor from audit_log where entity = 'product' and entity_id = any(${products}::bigint[]) and action <> 'create' order by entity_id`.execute(t.current.db)
    expect(audit.rows).toEqual(products.map((id) => ({ entity_id: id, action: 'update', changes: { category: [category.id, null] }, actor: t.current.adminId })))
    for (const id of products) expect((await t.current.call({ method: 'GET', url: `${registry.product.api.base}/${id}` })).body.category).toBeNull()
  })

  it('counts what a user wrote: one who posted a voucher cannot be deleted (the general ledger keeps its authors), and delete_impact says so first in the same words', async () => {
    const asUser = async (email: string) => {
      const id = await t.current.createUser({ email, isAdmin: true })
      const token = await signToken(JWT_SECRET, id)
      return { id, call: (o: Parameters<TestApp['call']>[0]) => t.current.call({ ...o, headers: { authorization: `Bearer ${token}` } }) }
    }
    const accountant = await asUser(`poster-${t.current.kind}@example.com`)
    const [rent, vendor] = [await ledgerUnder(t.current.db, `Impact Rent ${t.current.kind}`, 'Indirect Expenses'), await ledgerUnder(t.current.db, `Impact Vendor ${t.current.kind}`, 'Sundry Creditors')]
    const posted = await accountant.call({ method: 'POST', url: `${registry.journal.api.base}/create/`, payload: { journal_date: '2026-04-15', items: [{ ledger: rent, debit_amount: '5' }, { ledger: vendor, credit_amount: '5' }] } })
    expect(posted.status, posted.raw).toBe(201)
    const detail = `User 'poster-${t.current.kind}@example.com' cannot be deleted: 2 General Ledger refer to it.`
    const res = await impact(t.current, registry.user, [accountant.id])
    expect(res.body).toEqual({
      ids: [accountant.id],
      can_delete: false,
      references: [
        { entity: 'account_log', field: 'created_by', count: 2, effect: 'refuse' },
        { entity: 'account_log', field: 'updated_by', count: 2, effect: 'refuse' },
        // A voucher counts once, whatever its lines.
        { entity: 'journal', field: 'created_by', count: 1, effect: 'clear' },
        { entity: 'journal', field: 'updated_by', count: 1, effect: 'clear' },
      ],
      detail,
    })
    const del = await t.current.call({ method: 'DELETE', url: `${registry.user.api.base}/delete/${accountant.id}` })
    expect([del.status, del.body]).toEqual([409, { detail }])

    // One who wrote only what may lose its author: told so, and deleted.
    const clerk = await asUser(`clerk-${t.current.kind}@example.com`)
    expect((await clerk.call({ method: 'POST', url: `${registry.department.api.base}/create/`, payload: { name: `Clerk's ${t.current.kind}` } })).status).toBe(201)
    expect((await impact(t.current, registry.user, [clerk.id])).body).toEqual({
      ids: [clerk.id],
      can_delete: true,
      references: [
        { entity: 'department', field: 'created_by', count: 1, effect: 'clear' },
        { entity: 'department', field: 'updated_by', count: 1, effect: 'clear' },
      ],
    })
    expect((await t.current.call({ method: 'DELETE', url: `${registry.user.api.base}/delete/${clerk.id}` })).status).toBe(200)
  })

  it('refuses by default a reference the registry did not choose to clear (a user’s role, an employee’s department)', async () => {
    const role = await createRow(t.current, registry.role, { name: `impact role ${t.current.kind}` })
    const userId = await t.current.createUser({ email: `holder-${t.current.kind}@example.com` })
    await t.current.call({ method: 'PUT', url: `${registry.user.api.base}/update/${userId}`, payload: { role: role.id } })
    expect((await impact(t.current, registry.role, [role.id as number])).body).toMatchObject({ can_delete: false, references: [{ entity: 'user', field: 'role', count: 1, effect: 'refuse' }] })
    const del = await t.current.call({ method: 'DELETE', url: `${registry.role.api.base}/delete/${role.id}` })
    expect(del.status).toBe(409)
    expect(del.body.detail).toBe(`Role '${role.name}' cannot be deleted: one of the Users refers to it.`)

    const { row: employee } = await createSample(t.current, registry.employee)
    const res = await t.current.call({ method: 'DELETE', url: `${registry.department.api.base}/delete/${employee.department}` })
    expect(res.status).toBe(409)
    expect(res.body.detail).toMatch(/^Department '.+' cannot be deleted: one of the Employees refers to it\.$/)
  })

  it('counts many-to-many links and document lines, which a delete removes', async () => {
    const permission = await createRow(t.current, registry.permission, { name: `impact thing ${t.current.kind}` })
    for (const name of ['a', 'b']) await createRow(t.current, registry.role, { name: `impact ${name} ${t.current.kind}`, permissions: [permission.id] })
    expect((await impact(t.current, registry.permission, [permission.id as number])).body).toEqual({
      ids: [permission.id],
      can_delete: true,
      references: [{ entity: 'role', field: 'permissions', count: 2, effect: 'unlink' }],
    })

    const parent = await createRow(t.current, registry.menu_item, { translate: 'nav.x', type: 'collapse', title: 'Impact parent' })
    const child = await createRow(t.current, registry.menu_item, { translate: 'nav.y', type: 'item', title: 'Impact child', parent: parent.id })
    const role = await createRow(t.current, registry.role, { name: `impact menu ${t.current.kind}` })
    await t.current.call({ method: 'POST', url: '/role_menu/api/v1/role_menu/create/', payload: { role: role.id, menu_items: [parent.id, child.id] } })
    expect((await impact(t.current, registry.menu_item, [parent.id as number])).body.references).toEqual([
      { entity: 'menu_item', field: 'parent', count: 1, effect: 'delete' },
      { entity: 'role_menu', field: 'menu_items', count: 1, effect: 'unlink' },
    ])
    // A selection: rows deleted together do not count against each other.
    expect((await impact(t.current, registry.menu_item, [parent.id as number, child.id as number])).body).toEqual({
      ids: [parent.id, child.id],
      can_delete: true,
      references: [{ entity: 'role_menu', field: 'menu_items', count: 1, effect: 'unlink' }],
    })
  })

  it('counts what refers to an employee through the user it is (qualifications go with it)', async () => {
    const refIds = await createReferences(t.current, registry.qualification)
    await createRow(t.current, registry.qualification, sampleInput(registry.qualification, refIds))
    const expected = [{ entity: 'qualification', field: 'employee_id', count: 1, effect: 'delete' }]
    expect((await impact(t.current, registry.employee, [refIds.employee!])).body.references).toEqual(expected)
    expect((await impact(t.current, registry.user, [refIds.employee!])).body.references).toEqual(expected)
  })

  it('answers a selection, 404 for a row that does not exist, 400 for bad ids', async () => {
    const a = await district(t.current)
    const b = await district(t.current)
    await createRow(t.current, registry.thana, { ...sampleInput(registry.thana, {}), city: b.city })
    const res = await impact(t.current, registry.city, [a.city, b.city])
    expect(res.body).toEqual({
      ids: [a.city, b.city],
      can_delete: false,
      references: [{ entity: 'thana', field: 'city', count: 1, effect: 'refuse' }],
      detail: `District #${a.city}, #${b.city} cannot be deleted: one of the Police Stations refers to them.`,
    })
    const many = await t.current.call({ method: 'DELETE', url: `${registry.city.api.base}/delete_multiple/`, payload: { ids: [a.city, b.city] } })
    expect(many).toMatchObject({ status: 409, body: { detail: `District #${a.city}, #${b.city} cannot be deleted: one of the Police Stations refers to them.` } })
    expect((await impact(t.current, registry.city, [999_999_999])).status).toBe(404)
    expect((await impact(t.current, registry.city, [a.city, 999_999_999])).status).toBe(404)
    for (const query of ['', '?ids=', '?ids=x', '?ids=0', '?ids=1,,a']) {
      const bad = await t.current.call({ method: 'GET', url: `${registry.city.api.base}/delete_impact/${query}` })
      expect(bad.status, query).toBe(400)
      expect(bad.body).toEqual({ detail: expect.any(String) })
    }
  })

  it('answers a delete in the contract’s English words, and in Turkish and Arabic with the screens’ names', async () => {
    const ids: number[] = []
    for (let i = 0; i < 4; i++) ids.push((await createRow(t.current, registry.department, sampleInput(registry.department, {}))).id as number)
    const del = (id: number, language?: string) =>
      t.current.call({ method: 'DELETE', url: `${registry.department.api.base}/delete/${id}`, headers: language ? { 'accept-language': language } : {} })
    // The contract's `detail`; an entity with a Trash adds the delete's `batch` beside it.
    expect((await del(ids[0]!)).body).toMatchObject({ detail: `Department id - ${ids[0]} is deleted successfully` })
    expect((await del(ids[1]!, 'tr-TR,tr;q=0.9')).body).toMatchObject({ detail: `${ids[1]} numaralı Departman silindi.` })
    expect((await del(ids[2]!, 'ar')).body).toMatchObject({ detail: `تم حذف قسم رقم ${ids[2]} بنجاح.` })
    const many = (language?: string) =>
      t.current.call({ method: 'DELETE', url: `${registry.department.api.base}/delete_multiple/`, payload: { ids: [ids[3]] }, headers: language ? { 'accept-language': language } : {} })
    expect((await many()).body).toMatchObject({ detail: `Department ids - [${ids[3]}] deleted successfully` })
    const more = await createRow(t.current, registry.department, sampleInput(registry.department, {}))
    const trMany = await t.current.call({ method: 'DELETE', url: `${registry.department.api.base}/delete_multiple/`, payload: { ids: [more.id] }, headers: { 'accept-language': 'tr' } })
    expect(trMany.body).toMatchObject({ detail: `Departmanlar silindi: [${more.id}]` })
  })

  describe('names that must be unique', () => {
    const duplicateOf = async (entity: (typeof entities)[number], input: Record<string, unknown>) => {
      expect((await t.current.call({ method: 'POST', url: `${entity.api.base}/create/`, payload: input })).status).toBe(201)
      const before = await countRows(t.current, entity.name)
      const again = await t.current.call({ method: 'POST', url: `${entity.api.base}/create/`, payload: input })
      expect(await countRows(t.current, entity.name)).toBe(before)
      return again
    }

    it('refuses a second department, designation, customer type or branch of the same name', async () => {
      const cases: Array<[(typeof entities)[number], string]> = [
        [registry.department, 'Department'],
        [registry.designation, 'Designation'],
        [registry.customer_type, 'Customer Type'],
        [registry.branch, 'Branch'],
      ]
      for (const [entity, one] of cases) {
        const res = await duplicateOf(entity, { name: `Twice ${t.current.kind.slice(0, 3)}${entity.name.length}` })
        expect(res.status, entity.name).toBe(400)
        expect(res.body).toEqual({ name: [`${one} with this Name already exists.`] })
      }
      const tr = await t.current.call({ method: 'POST', url: `${registry.department.api.base}/create/`, payload: { name: `Twice ${t.current.kind.slice(0, 3)}10` }, headers: { 'accept-language': 'tr' } })
      expect(tr.body).toEqual({ name: ['Bu Ad değerine sahip bir Departman zaten var.'] })
    })

    it('refuses a second district of a name in a country, and a police station in a district; the same names elsewhere are fine', async () => {
      const one = await district(t.current)
      const other = await district(t.current)
      const res = await duplicateOf(registry.city, { name: 'Twin town', country: one.country })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ name: ['District with this Name already exists.'] })
      expect((await t.current.call({ method: 'POST', url: `${registry.city.api.base}/create/`, payload: { name: 'Twin town', country: other.country } })).status).toBe(201)
      const station = await duplicateOf(registry.thana, { name: 'Kotwali', city: one.city })
      expect(station.body).toEqual({ name: ['Police Station with this Name already exists.'] })
      expect((await t.current.call({ method: 'POST', url: `${registry.thana.api.base}/create/`, payload: { name: 'Kotwali', city: other.city } })).status).toBe(201)
    })
  })
})

for (const kind of databaseKinds) {
  describe.skipIf(!isAvailable(kind))(`bringing an existing database to these rules [${kind}]`, () => {
    it('makes again a foreign key whose ON DELETE the registry changed, and refuses a uniqueness its rows break', async () => {
      const connection = await freshDatabase(kind)
      const db = connection.db
      try {
        // An earlier version cleared a user's role when the role was deleted.
        await sql`alter table "user" drop constraint user_role_fkey, add constraint user_role_fkey foreign key (role) references role (id) on delete set null`.execute(db)
        const result = await migrate(db, entities)
        expect(result.applied).toEqual(['on delete restrict for user.role'])
        const action = await sql<{ a: string }>`select confdeltype as a from pg_constraint where conname = 'user_role_fkey'`.execute(db)
        expect(action.rows[0]!.a).toBe('r')

        // Unique among the rows not in a Trash (an index) where the entity has one, else a constraint.
        const isLive = registrySchema(entities).uniques.find((u) => u.name === 'department_name_key')!.live === true
        await sql`${isLive ? sql`drop index department_name_key` : sql`alter table department drop constraint department_name_key`}`.execute(db)
        await sql`insert into department (name) values ('Same'), ('Same')`.execute(db)
        await expect(migrate(db, entities)).rejects.toThrow(/department\.name became unique but 1 value\(s\) appear more than once/)
        await sql`delete from department where name = 'Same'`.execute(db)
        expect((await migrate(db, entities)).applied).toEqual([`unique department.name${isLive ? ' outside the Trash' : ''}`])
      } finally {
        await connection.close()
      }
    })
  })
}
