import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { PEOPLE_SEARCH_PATH, peopleKinds } from '../../server/domain/identity/people-search'
import { describeEachDatabase, JWT_SECRET, type TestApp } from './helpers/app'
import { createReferences, sampleInput } from './helpers/samples'

/**
 * The people search (issue 11): every kind of person at once — each entity extending the
 * users, then the user accounts — matching name, username, e-mail or any part of a phone
 * number, each kind through its own list (its permission, its row scope), only the kinds the
 * caller may list, and no 403 for a role that lacks one of them.
 */
type Group = { entity: string; list_key: string; total: number; people: Array<{ id: number; username: string; primary_phone: string | null }> }

async function roleWith(t: TestApp, name: string, permissions: string[]): Promise<Record<string, string>> {
  const ids = (await sql<{ id: number }>`select id from permission where name = any(${permissions}::text[])`.execute(t.db)).rows.map((r) => r.id)
  const role = await t.call({ method: 'POST', url: '/role/api/v1/role/create/', payload: { name, permissions: ids } })
  expect(role.status, role.raw).toBe(201)
  const id = await t.createUser({ email: `${name.toLowerCase()}-${t.kind}@example.com` })
  await sql`update "user" set role = ${role.body.id} where id = ${id}`.execute(t.db)
  return { authorization: `Bearer ${await signToken(JWT_SECRET, id)}` }
}

describeEachDatabase('people search', (t) => {
  let employee: { id: number; username: string }

  beforeAll(async () => {
    const refIds = await createReferences(t.current, registry.employee)
    const input = { ...sampleInput(registry.employee, refIds), username: `karimpeople${t.current.kind}`, primary_phone: t.current.kind === 'pglite' ? '+8801711223344' : '+8801811223344', secondary_phone: null }
    const created = await t.current.call({ method: 'POST', url: '/employee/api/v1/employee/create/', payload: input })
    expect(created.status, created.raw).toBe(201)
    employee = { id: created.body.id, username: created.body.username }
  })

  const search = (q: string, headers?: Record<string, string>) => t.current.call({ method: 'GET', url: `${PEOPLE_SEARCH_PATH}?q=${encodeURIComponent(q)}`, headers })

  it('knows every kind of person in the registry: the entities extending the users, then the users', () => {
    const kinds = peopleKinds(Object.values(registry)).map((e) => e.name)
    expect(kinds.at(-1)).toBe('user')
    expect(kinds).toContain('employee')
    for (const name of kinds.slice(0, -1)) expect(registry[name as keyof typeof registry].parent?.name).toBe('user')
  })

  it('finds a person by the last four digits of a phone, by username and by e-mail, grouped by kind', async () => {
    for (const q of ['3344', employee.username.slice(0, 8).toUpperCase(), `${employee.username.slice(0, 5)}`]) {
      const r = await search(q)
      expect(r.status, r.raw).toBe(200)
      const groups = r.body.groups as Group[]
      const employees = groups.find((g) => g.entity === 'employee')!
      expect(employees.people.map((p) => p.id), q).toContain(employee.id)
      expect(employees.list_key).toBe('employees')
      // The same person is a user account too.
      expect(groups.find((g) => g.entity === 'user')!.people.map((p) => p.id), q).toContain(employee.id)
      expect(groups.map((g) => g.entity).at(-1)).toBe('user')
    }
    const none = await search('no-such-person-zq')
    expect(none.body).toEqual({ q: 'no-such-person-zq', groups: [] })
    expect((await search('')).body).toEqual({ q: '', groups: [] })
  })

  it('finds an employee by first name and by last name, in the employee list and the people search, for STAFF too', async () => {
    const refIds = await createReferences(t.current, registry.employee)
    const suffix = t.current.kind === 'pglite' ? 'a' : 'b'
    const input = { ...sampleInput(registry.employee, refIds), first_name: `Sadia${suffix}`, last_name: `Rahmanq${suffix}`, username: `srq${suffix}${t.current.kind}`, primary_phone: t.current.kind === 'pglite' ? '+8801711220011' : '+8801811220011', secondary_phone: null }
    const created = await t.current.call({ method: 'POST', url: '/employee/api/v1/employee/create/', payload: input })
    expect(created.status, created.raw).toBe(201)
    const staff = await roleWith(t.current, `STAFFLIKE${suffix.toUpperCase()}`, ['EMPLOYEE_LIST'])
    for (const q of [input.first_name, input.last_name]) {
      const list = await t.current.call({ method: 'GET', url: `/employee/api/v1/employee/all/?q=${q}` })
      expect(list.body.employees.map((e: { id: number }) => e.id), q).toContain(created.body.id)
      const found = await search(q, staff)
      expect(found.status, found.raw).toBe(200)
      expect((found.body.groups as Group[]).find((g) => g.entity === 'employee')!.people.map((p) => p.id), q).toContain(created.body.id)
    }
  })

  it('searches every field a person is known by, on every kind of person', () => {
    for (const kind of peopleKinds(Object.values(registry))) {
      for (const field of ['first_name', 'last_name', 'username', 'email', 'primary_phone', 'secondary_phone']) expect(kind.searchFields, `${kind.name}.${field}`).toContain(field)
    }
  })

  it('finds a customer created through the API by the last four digits of the phone, with the customer’s ledger made', async () => {
    const refIds = await createReferences(t.current, registry.customer)
    const phone = t.current.kind === 'pglite' ? '+8801911305577' : '+8801911405577'
    const input = { ...sampleInput(registry.customer, refIds), username: `rahimcustomer${t.current.kind}`, primary_phone: phone, secondary_phone: null }
    const created = await t.current.call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: input })
    expect(created.status, created.raw).toBe(201)
    const ledger = await sql<{ name: string; group: string }>`
      select l.name, g.name as group from ledger_account l join "group" g on g.id = l.head_group
      where l.ledger_type = 'customer_ledger' and l.reference_id = ${String(created.body.id)}`.execute(t.current.db)
    // Named after the username, capitalised as ledger names are.
    expect(ledger.rows).toEqual([{ name: `R${input.username.slice(1)}`, group: 'Sundry Debtors' }])
    const r = await search(phone.slice(-4))
    const customers = (r.body.groups as Group[]).find((g) => g.entity === 'customer')!
    expect(customers.list_key).toBe('customers')
    expect(customers.people.map((p) => p.id)).toContain(created.body.id)
  })

  it('searches only the kinds the caller may list, without a 403 for the others; none at all is a 403', async () => {
    const clerk = await roleWith(t.current, `PEOPLE_CLERK_${t.current.kind.toUpperCase()}`, ['EMPLOYEE_LIST'])
    const r = await search('3344', clerk)
    expect(r.status, r.raw).toBe(200)
    expect((r.body.groups as Group[]).map((g) => g.entity)).toEqual(['employee'])
    const nobody = await roleWith(t.current, `PEOPLE_NONE_${t.current.kind.toUpperCase()}`, ['COUNTRY_LIST'])
    expect((await search('3344', nobody)).status).toBe(403)
    expect((await t.current.call({ method: 'GET', url: `${PEOPLE_SEARCH_PATH}?q=3344`, asAnonymous: true })).status).toBe(401)
  })

  it('refuses a NUL character with 400 {detail}', async () => {
    const r = await t.current.call({ method: 'GET', url: `${PEOPLE_SEARCH_PATH}?q=a%00b` })
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ detail: expect.any(String) })
  })
})
