import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { JWT_SECRET, describeEachDatabase, type TestApp } from './helpers/app'
import { countRows, createReferences, createSample } from './helpers/samples'

/**
 * The people of issue 11 (api-contract §4.1, §4.9): customers and vendors are users with
 * their own columns and their own ledger accounts, made in the create's transaction;
 * shipping addresses belong to a user.
 */
const CUSTOMERS = registry.customer.api.base
const VENDORS = registry.vendor.api.base
const ADDRESSES = registry.shippingaddress.api.base
const GROUPS = registry.group.api.base

let sequence = 0
const unique = (prefix: string) => `${prefix}${++sequence}x${process.pid}`

type Ledger = { id: number; name: string; ledger_type: string; reference_id: string; head_group: number; head_primarygroup: number | null }

const groupId = async (t: TestApp, name: string) => Number((await sql<{ id: number }>`select id from "group" where name = ${name}`.execute(t.db)).rows[0]!.id)

const ledgersOf = async (t: TestApp, id: number) =>
  (await sql<Ledger>`select id, name, ledger_type, reference_id, head_group, head_primarygroup from ledger_account where reference_id = ${String(id)} order by id`.execute(t.db)).rows

/** A person's create body with the fields the screens require; `extra` adds the entity's own. */
function person(extra: Record<string, unknown> = {}) {
  const username = unique('person')
  return { first_name: 'Nusrat', last_name: 'Jahan', username, email: `${username}@example.com`, password: 'secret-42', ...extra }
}

async function customerReferences(t: TestApp) {
  const refs = await createReferences(t, registry.customer)
  return { branch: refs.branch!, customerType: refs.customer_type! }
}

describeEachDatabase('people', (t) => {
  it('creates a customer through create/ with its ledger under Sundry Debtors (customer_ledger, reference_id its id)', async () => {
    const { branch, customerType } = await customerReferences(t.current)
    const body = person({ branch, cusotmer_type: customerType, customer_credit_limit: '5000', primary_phone: '+8801711223344' })
    const created = await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: body })
    expect(created.status, created.raw).toBe(201)
    expect(created.body).toMatchObject({ username: body.username, cusotmer_type: customerType, branch, customer_credit_limit: '5000.00', is_online: true })
    expect(created.body).not.toHaveProperty('password')

    const ledgers = await ledgersOf(t.current, created.body.id)
    expect(ledgers).toHaveLength(1)
    expect(ledgers[0]).toMatchObject({ ledger_type: 'customer_ledger', reference_id: String(created.body.id), head_primarygroup: null })
    expect(Number(ledgers[0]!.head_group)).toBe(await groupId(t.current, 'Sundry Debtors'))
    expect(ledgers[0]!.name.toLowerCase()).toBe(body.username.toLowerCase())
    // One user row under it: the customer is that user (multi-table inheritance).
    expect((await sql<{ email: string }>`select email from "user" where id = ${created.body.id}`.execute(t.current.db)).rows).toEqual([{ email: body.email }])
  })

  it('keeps the contract\'s cusotmer_type spelling on the wire: create, {id}, lists and filters; customer_type is not it', async () => {
    const { branch, customerType } = await customerReferences(t.current)
    const body = person({ branch, cusotmer_type: customerType })
    const id = (await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: body })).body.id as number
    const typeName = (await t.current.call({ method: 'GET', url: `/customer_type/api/v1/customer_type/${customerType}` })).body.name

    const one = await t.current.call({ method: 'GET', url: `${CUSTOMERS}/${id}` })
    expect(one.body).toMatchObject({ cusotmer_type: customerType, _labels: { cusotmer_type: typeName } })
    expect(one.body).not.toHaveProperty('customer_type')
    const listed = (await t.current.call({ method: 'GET', url: `${CUSTOMERS}/search/?cusotmer_type=${customerType}` })).body.customers as Array<Record<string, unknown>>
    expect(listed.map((c) => c.id)).toContain(id)
    expect(listed.find((c) => c.id === id)!.cusotmer_type).toEqual({ id: customerType, name: typeName })

    // As the contract's serializer, a field it does not have is ignored: the type is not set.
    const misspelt = await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: { ...person(), customer_type: customerType } })
    expect(misspelt.status).toBe(201)
    expect(misspelt.body.cusotmer_type).toBeNull()
  })

  it('searches customers by ?username= (part of it, any case)', async () => {
    const { branch } = await customerReferences(t.current)
    const wanted = person({ branch })
    const wantedId = (await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: wanted })).body.id as number
    expect((await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: person({ branch }) })).status).toBe(201)
    const found = await t.current.call({ method: 'GET', url: `${CUSTOMERS}/search/?username=${wanted.username.slice(2).toUpperCase()}` })
    expect(found.status).toBe(200)
    expect(found.body.customers.map((c: { id: number }) => c.id)).toEqual([wantedId])
    expect(found.body).toMatchObject({ total_elements: 1, page: 1 })
  })

  it('creates a vendor with its ledger under Sundry Creditors (vendor_ledger) and the contract\'s defaults', async () => {
    const body = person({ company_name: 'Padma Traders', contact_person: 'Karim' })
    const created = await t.current.call({ method: 'POST', url: `${VENDORS}/create/`, payload: body })
    expect(created.status, created.raw).toBe(201)
    expect(created.body).toMatchObject({ is_company: false, is_online: true, company_name: 'Padma Traders', customer_credit_limit: null })
    const ledgers = await ledgersOf(t.current, created.body.id)
    expect(ledgers).toHaveLength(1)
    expect(ledgers[0]).toMatchObject({ ledger_type: 'vendor_ledger', reference_id: String(created.body.id) })
    expect(Number(ledgers[0]!.head_group)).toBe(await groupId(t.current, 'Sundry Creditors'))
    const listed = await t.current.call({ method: 'GET', url: `${VENDORS}/search/?username=${body.username}` })
    expect(listed.body.vendors.map((v: { id: number }) => v.id)).toEqual([created.body.id])
  })

  it('leaves no ledger, user or customer behind when a create is refused (a duplicate e-mail, a missing Sundry Debtors group)', async () => {
    const { branch } = await customerReferences(t.current)
    const first = person({ branch })
    expect((await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: first })).status).toBe(201)
    const counts = async () => Promise.all(['user', 'customer', 'ledger_account'].map((table) => countRows(t.current, table)))
    const before = await counts()

    const duplicate = await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: { ...person({ branch }), email: first.email } })
    expect(duplicate.status).toBe(400)
    expect(Object.keys(duplicate.body)).toEqual(['email'])
    expect(await counts()).toEqual(before)

    // The ledger is written in the customer's transaction: when it cannot be, the customer is not either.
    const debtors = await groupId(t.current, 'Sundry Debtors')
    expect((await t.current.call({ method: 'PATCH', url: `${GROUPS}/update/${debtors}`, payload: { name: 'Trade Debtors' } })).status).toBe(200)
    try {
      const refused = await t.current.call({ method: 'POST', url: `${CUSTOMERS}/create/`, payload: person({ branch }) })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ detail: "Please insert a 'Sundry Debtors' data in the Group table and then try again" })
      expect(await counts()).toEqual(before)
    } finally {
      await t.current.call({ method: 'PATCH', url: `${GROUPS}/update/${debtors}`, payload: { name: 'Sundry Debtors' } })
    }
  })

  it('keeps a shipping address\'s police station within its district, lists it under shipping_addresses, and deletes it with its user', async () => {
    const customer = await createSample(t.current, registry.customer)
    const here = await createSample(t.current, registry.thana)
    const elsewhere = await createSample(t.current, registry.thana)
    const address = { user: customer.id, name: 'Nusrat Jahan', phone: '+8801811000222', street_address: 'Road 5, Dhanmondi', zip_code: '1205', country: here.refIds.country, city: here.refIds.city }

    const mismatched = await t.current.call({ method: 'POST', url: `${ADDRESSES}/create/`, payload: { ...address, thana: elsewhere.id } })
    expect(mismatched.status).toBe(400)
    expect(Object.keys(mismatched.body)).toEqual(['thana'])

    const created = await t.current.call({ method: 'POST', url: `${ADDRESSES}/create/`, payload: { ...address, thana: here.id } })
    expect(created.status, created.raw).toBe(201)
    expect(created.body).toMatchObject({ user: customer.id, thana: here.id, zip_code: '1205' })
    const listed = await t.current.call({ method: 'GET', url: `${ADDRESSES}/search/?user=${customer.id}` })
    expect(Object.keys(listed.body)).toContain('shipping_addresses')
    expect(listed.body.shipping_addresses.map((a: { id: number }) => a.id)).toEqual([created.body.id])
    // The contract's words name the original's model, ShippingAddress.
    const second = await t.current.call({ method: 'POST', url: `${ADDRESSES}/create/`, payload: { ...address, thana: here.id } })
    const deleted = await t.current.call({ method: 'DELETE', url: `${ADDRESSES}/delete/${second.body.id}` })
    expect(deleted.body).toEqual({ detail: `ShippingAddress id - ${second.body.id} is deleted successfully` })

    expect((await t.current.call({ method: 'DELETE', url: `${CUSTOMERS}/delete/${customer.id}` })).status).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${ADDRESSES}/${created.body.id}` })).status).toBe(404)
  })

  it('gives ADMIN and STAFF the people\'s permissions (SHIPPING_ADDRESS as the contract names it), and STAFF lists customers', async () => {
    const names = ['CUSTOMER', 'VENDOR', 'SHIPPING_ADDRESS'].flatMap((p) => ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE'].map((a) => `${p}_${a}`))
    for (const role of ['ADMIN', 'STAFF']) {
      const held = await sql<{ name: string }>`
        select p.name from role r join role_permissions rp on rp.owner_id = r.id join permission p on p.id = rp.target_id
        where r.name = ${role} and p.name = any(${names})`.execute(t.current.db)
      expect(held.rows.map((r) => r.name).sort(), role).toEqual([...names].sort())
    }
    const staff = await t.current.createUser({ email: `${unique('staff')}@example.com` })
    await sql`update "user" set role = (select id from role where name = 'STAFF') where id = ${staff}`.execute(t.current.db)
    const headers = { authorization: `Bearer ${await signToken(JWT_SECRET, staff)}` }
    expect((await t.current.call({ method: 'GET', url: `${CUSTOMERS}/all/`, headers })).status).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${ADDRESSES}/all/`, headers })).status).toBe(200)
  })
})
