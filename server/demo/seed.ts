import { sql } from 'kysely'
import { entities, registry } from '../../schema'
import type { Entity, Fields } from '../../schema/kit'
import { hashPassword } from '../auth/passwords'
import type { HookRegistry } from '../engine/hooks'
import { createRow, runAction } from '../engine/service'
import { confirmHandler } from '../domain/purchasing/purchases'
import { cancelHandler as cancelOrder, confirmHandler as confirmOrder } from '../domain/orders/sale'
import { validateRecord, type Values } from '../engine/validate'
import type { Db, Trx } from '../db/types'
import { districts } from './data/bangladesh'
import { countries } from './data/countries'

/**
 * First-start data. Demo mode: a demo admin, a staff member and a registered user, the
 * site settings, and realistic organisation and geography data. Production: only the
 * first admin, from ADMIN_EMAIL / ADMIN_PASSWORD. Runs after the app has started (which
 * creates the built-in roles). Rows pass the registry's validation, so demo data obeys
 * the same rules as user input.
 */
export const DEMO_ADMIN = { email: 'admin@example.com', password: 'admin123' } as const
export const DEMO_STAFF = { email: 'staff@example.com', password: 'staff123' } as const
export const DEMO_USER = { email: 'user@example.com', password: 'user1234' } as const

async function insertValidated(trx: Trx, entity: Entity<string, Fields>, rows: Values[], actor: number): Promise<number[]> {
  const ids: number[] = []
  const chunk = 500
  for (let i = 0; i < rows.length; i += chunk) {
    const values = rows.slice(i, i + chunk).map((r) => ({ ...validateRecord(entity, r), created_by: actor, updated_by: actor }))
    const inserted = await trx.insertInto(entity.name).values(values).returning('id').execute()
    ids.push(...inserted.map((r) => Number(r.id)))
  }
  return ids
}

async function createAdmin(trx: Trx, email: string, password: string): Promise<number> {
  const r = await sql<{ id: number }>`
    insert into "user" (first_name, last_name, username, email, password, is_admin, is_active, role)
    values ('Admin', 'User', 'admin', ${email.toLowerCase()}, ${await hashPassword(password)}, true, true,
            (select id from role where name = 'ADMIN')) returning id`.execute(trx)
  return r.rows[0]!.id
}

const roleId = async (trx: Trx, name: string) => (await sql<{ id: number }>`select id from role where name = ${name}`.execute(trx)).rows[0]?.id ?? null

export async function seedDemo(trx: Trx, admin: number, hooks?: HookRegistry): Promise<void> {
  const countryIds = await insertValidated(trx, registry.country, [...countries], admin)
  const bangladesh = countryIds[countries.findIndex((c) => c.country_code === 'BD')]!
  const cityIds = await insertValidated(
    trx,
    registry.city,
    districts.map(({ thanas: _thanas, ...d }) => ({ ...d, country: bangladesh })),
    admin,
  )
  const thanaRows = districts.flatMap((d, i) => d.thanas.map((t) => ({ ...t, city: cityIds[i] })))
  const thanaIds = await insertValidated(trx, registry.thana, thanaRows, admin)
  const cityOf = (name: string) => cityIds[districts.findIndex((d) => d.name === name)]
  const thanaOf = (district: string, name: string) => thanaIds[thanaRows.findIndex((t) => t.city === cityOf(district) && t.name === name)] ?? null
  const branchIds = await insertValidated(
    trx,
    registry.branch,
    [
      { name: 'Head office', short_desc: 'Head office and central warehouse', street_address_one: 'House 12, Road 113, Gulshan 2', city: cityOf('Dhaka'), thana: thanaOf('Dhaka', 'Gulshan'), country: bangladesh, postal_code: '1212' },
      { name: 'Chattogram branch', street_address_one: 'Agrabad Commercial Area', city: cityOf('Chattogram'), country: bangladesh, postal_code: '4100' },
      { name: 'Sylhet branch', street_address_one: 'Zindabazar', city: cityOf('Sylhet'), country: bangladesh, postal_code: '3100' },
      { name: 'Khulna branch', street_address_one: 'KDA Avenue', city: cityOf('Khulna'), country: bangladesh, postal_code: '9100' },
      { name: 'Rajshahi branch', street_address_one: 'Shaheb Bazar', city: cityOf('Rajshahi'), country: bangladesh, postal_code: '6100', is_active: false },
    ],
    admin,
  )
  const names = (list: string[]) => list.map((name) => ({ name }))
  const departmentIds = await insertValidated(trx, registry.department, names(['Accounts', 'Sales', 'Support', 'Human resources', 'Marketing', 'Operations', 'Procurement', 'Information technology']), admin)
  const designationIds = await insertValidated(trx, registry.designation, names(['Managing director', 'General manager', 'Manager', 'Assistant manager', 'Senior executive', 'Executive', 'Accountant', 'Sales representative', 'Support engineer', 'Officer']), admin)
  const customerTypeIds = await insertValidated(trx, registry.customer_type, names(['Retail', 'Wholesale', 'Corporate', 'VIP', 'Online']), admin)

  // People and settings go through the engine: passwords are hashed, the employee spans two tables.
  const write = (entity: Entity<string, Fields>, input: Values) =>
    createRow({ db: trx, registry: entities, entity, actor: { id: admin, isAdmin: true, permissions: new Set() }, access: 'system', hooks }, input)
  await write(registry.general_setting, {
    title: 'Back-office', site_name: 'Back-office', site_address: 'House 12, Road 113, Gulshan 2, Dhaka 1212',
    email: 'info@example.com', phone: '+8801712000000', address: 'House 12, Road 113, Gulshan 2, Dhaka 1212, Bangladesh',
    facebook_url: 'https://www.facebook.com/example', twitter_url: 'https://twitter.com/example', instagram_url: 'https://www.instagram.com/example',
    is_registration_open: true,
  })
  const sadia = await write(registry.employee, {
    ...DEMO_STAFF, first_name: 'Sadia', last_name: 'Rahman', username: 'staff', gender: 'female', primary_phone: '+8801711000001',
    street_address_one: 'Road 5, Dhanmondi', thana: thanaOf('Dhaka', 'Dhanmondi'), city: cityOf('Dhaka'), country: bangladesh, postal_code: '1205',
    role: await roleId(trx, 'STAFF'), branch: branchIds[0], department: departmentIds[3], designation: designationIds[2],
    emp_id_no: 'EMP-0001', emp_join_date: '2022-01-10',
  })
  const rafiq = await write(registry.user, { ...DEMO_USER, first_name: 'Rafiq', last_name: 'Islam', username: 'user', role: await roleId(trx, 'USER') })
  // Customers and vendors sign in as registered users; with the app's hooks each gets its ledger account.
  const person = { password: 'demo-password', role: await roleId(trx, 'USER'), country: bangladesh }
  await write(registry.customer, {
    ...person, first_name: 'Farhana', last_name: 'Akter', username: 'farhana', email: 'farhana@example.com', gender: 'female', primary_phone: '+8801812000101',
    street_address_one: 'House 7, Road 2, Banani', city: cityOf('Dhaka'), thana: thanaOf('Dhaka', 'Banani'), postal_code: '1213',
    branch: branchIds[0], cusotmer_type: customerTypeIds[0], customer_credit_limit: '20000.00',
  })
  await write(registry.customer, {
    ...person, first_name: 'Tanvir', last_name: 'Hossain', username: 'tanvir', email: 'tanvir@example.com', primary_phone: '+8801812000102',
    street_address_one: 'Agrabad Commercial Area', city: cityOf('Chattogram'), postal_code: '4100',
    branch: branchIds[1], cusotmer_type: customerTypeIds[1], customer_credit_limit: '150000.00', is_online: false,
  })
  const padma = Number(
    (
      await write(registry.vendor, {
        ...person, first_name: 'Mahmud', last_name: 'Chowdhury', username: 'padma-traders', email: 'sales@padma-traders.example.com', primary_phone: '+8801912000201',
        street_address_one: 'Tejgaon Industrial Area', city: cityOf('Dhaka'), postal_code: '1208',
        branch: branchIds[0], is_company: true, company_name: 'Padma Traders Ltd.', contact_person: 'Mahmud Chowdhury', customer_credit_limit: '500000.00', is_online: false,
      })
    ).id,
  )
  const shirin = Number(
    (
      await write(registry.vendor, {
        ...person, first_name: 'Shirin', last_name: 'Begum', username: 'shirin', email: 'shirin@example.com', gender: 'female', primary_phone: '+8801912000202',
        street_address_one: 'Zindabazar', city: cityOf('Sylhet'), postal_code: '3100', branch: branchIds[2],
      })
    ).id,
  )

  // Goods bought and on hand: products, a purchase from Padma Traders paid in part and confirmed (its
  // stock, bill and payment posted as "Pay Bill & Confirm" posts them), and an offer from Shirin to review.
  const products = []
  for (const [name, price] of [['Srimangal Green Tea 500g', '450.00'], ['Clay Tea Cup', '80.00'], ['Jute Shopping Bag', '220.00'], ['Nakshi Kantha Cushion Cover', '550.00']] as const) {
    products.push(Number((await write(registry.product, { name, unit_price: price })).id))
  }
  const purchase = await write(registry.purchase_final, {
    vendor: padma,
    note: 'Opening stock',
    items: [
      { product: products[0], quantity: 40, unit_price: '320.00' },
      { product: products[1], quantity: 120, unit_price: '45.00' },
      { product: products[2], quantity: 4, unit_price: '150.00' },
    ],
  })
  const cash = (await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(trx)).rows[0]!.id
  const purchases = { db: trx, registry: entities, entity: registry.purchase_final, actor: { id: admin, isAdmin: true, permissions: new Set<string>() }, access: 'system' as const, hooks }
  await runAction(purchases, Number(purchase.id), 'confirm', { paid_amount: '10000.00', ledger: cash }, confirmHandler)
  // The shop's orders as the desk takes them: one delivered and paid by bkash, one on its way and paid in part,
  // one cancelled and refunded, and a customer's cart not yet confirmed (server/domain/orders).
  const [farhana, tanvir] = (await sql<{ id: number }>`select id from customer order by id`.execute(trx)).rows.map((r) => Number(r.id))
  const orders = { db: trx, registry: entities, entity: registry.order, actor: { id: admin, isAdmin: true, permissions: new Set<string>() }, access: 'system' as const, hooks }
  const bkash = (await sql<{ id: number }>`select id from payment_method where name = 'bkash'`.execute(trx)).rows[0]?.id ?? null
  const order = async (customer: number, items: Values[], steps: Array<[string, Values?]>, extra: Values = {}) => {
    const made = await write(registry.order, { user: customer, order_items: items, ...extra })
    await write(registry.shippingaddress, { user: customer, order: made.id, name: customer === farhana ? 'Farhana Akter' : 'Tanvir Hossain', phone: customer === farhana ? '+8801812000101' : '+8801812000102', street_address: customer === farhana ? 'House 7, Road 2, Banani' : 'Agrabad Commercial Area', city: cityOf(customer === farhana ? 'Dhaka' : 'Chattogram'), country: bangladesh })
    for (const [step, input] of steps) await runAction(orders, Number(made.id), step, input ?? {}, step === 'confirm' ? confirmOrder : step === 'cancel' ? cancelOrder : undefined)
  }
  await order(farhana!, [{ product: products[0], quantity: 2 }, { product: products[1], quantity: 4 }], [['confirm', { pay_amount: '1220.00', payment_method: bkash, bkash: 'BK7Q2M9X' }], ['pack'], ['ship'], ['deliver']])
  await order(tanvir!, [{ product: products[1], quantity: 10 }, { product: products[2], quantity: 1 }], [['confirm', { pay_amount: '500.00', ledger: cash }], ['pack'], ['ship']], { shipping_price: '120.00' })
  await order(tanvir!, [{ product: products[1], quantity: 3 }], [['confirm', { pay_amount: '240.00', ledger: cash }], ['cancel']])
  await order(farhana!, [{ product: products[0], quantity: 1 }], [])
  await write(registry.purchase_request, {
    vendor: shirin, first_name: 'Shirin', last_name: 'Begum', email: 'shirin@example.com', contact_no: '+8801912000202', vendor_comment: 'Hand-stitched in Sylhet, ready in two weeks.',
    purchase_request_items: [
      { name: 'Nakshi Kantha Cushion Cover', unit_price: '380.00', quantity: 25, description: 'Cotton, 16 × 16 in, assorted colours' },
      { name: 'Jute Shopping Bag', unit_price: '140.00', quantity: 60 },
    ],
  })

  // Support tickets as the desk sees them (server/domain/tickets): the registered user's question answered by
  // Sadia and waiting on them, a customer's sales question still open, and an accounts question closed.
  const as = (actor: number) => ({ db: trx, registry: entities, actor: { id: actor, isAdmin: false, permissions: new Set<string>() }, access: 'system' as const, hooks })
  const ticketOf = (actor: number, input: Values) => createRow({ ...as(actor), entity: registry.ticket }, input)
  const reply = (actor: number, ticket: unknown, message: string) => createRow({ ...as(actor), entity: registry.ticket_detail }, { ticket, message })
  const parcel = await ticketOf(Number(rafiq.id), { user: rafiq.id, subject: 'Where is my parcel?', ticket_department: 'support', ticket_priority: 'high', message: '<p>I ordered a jute bag last week and it has not arrived yet.</p>' })
  await reply(Number(sadia.id), parcel.id, '<p>Sorry for the wait! It left our warehouse yesterday and should reach you by Thursday.</p>')
  await ticketOf(Number(farhana), { user: farhana, subject: 'Bulk price for cushion covers', ticket_department: 'sales', ticket_priority: 'medium', message: '<p>Do you offer a discount for 40 cushion covers?</p>' })
  const invoice = await ticketOf(Number(tanvir), { user: tanvir, subject: 'Copy of my invoice', ticket_department: 'accounts', ticket_priority: 'low', message: '<p>Please send me a copy of my last invoice.</p>' })
  await reply(admin, invoice.id, '<p>We have mailed the invoice to you again.</p>')
  await runAction({ ...as(admin), entity: registry.ticket }, Number(invoice.id), 'close', {}, undefined)

  // The site's content, as an editor writes it: formatted text sanitised and slugs made by the engine.
  const tours = await write(registry.cms_menu, { name: 'Tours', position: 1 })
  const sylhet = await write(registry.cms_menu, { name: 'Sylhet', parent: tours.id, position: 2 })
  await write(registry.cms_menu, { name: 'About Us', position: 3 })
  await write(registry.cms_menu_content, {
    cms_menu: sylhet.id, name: 'Tea Gardens of Srimangal', type: 'Tours', location: 'Srimangal', duration: '2 days', price: '4500', published: true,
    value: '<p>Walk the green hills of <strong>Srimangal</strong> at dawn, with a tea-tasting at a garden estate.</p>',
  })
  const travel = await write(registry.cms_blog_category, { name: 'Travel' })
  await write(registry.cms_blog, {
    title: 'Monsoon in Sylhet', blog_category: travel.id, date: '2026-07-01', is_published: true, short_des: 'Rain, rivers and tea: the north-east at its greenest.',
    description: '<h2>When to go</h2><p>From June to September the haors fill and the hills turn <em>emerald</em>.</p>',
  })

  // Membership: a member (with their ledger) and a cause (its ledger and the sales entry of its
  // goal), as creates through the API make them. The cash book stays empty for the demo's own first receipt.
  await write(registry.member, {
    ...person, first_name: 'Abdul', last_name: 'Jalil', username: 'jalil', email: 'jalil@example.com', primary_phone: '+8801712000301',
    village: 'Kulaura', profession: 'Teacher',
  })
  await write(registry.cause, { name: 'Clean Water for Sunamganj', goal_amount: '250000.00' })
}

/** `hooks`: the app's engine hooks, so that seeded people get what a create through the API gives (their ledger accounts). */
export type SeedOptions = { isDemo: boolean; adminEmail?: string; adminPassword?: string; hooks?: HookRegistry }

/** Seeds once: only a database without users is seeded. Returns what it did. */
export async function seed(db: Db, options: SeedOptions): Promise<'demo' | 'admin' | 'none'> {
  return db.transaction().execute(async (trx) => {
    const users = await sql<{ n: number }>`select count(*) as n from "user"`.execute(trx)
    if (Number(users.rows[0]?.n) > 0) return 'none'
    if (options.adminEmail && options.adminPassword) {
      const admin = await createAdmin(trx, options.adminEmail, options.adminPassword)
      if (options.isDemo) await seedDemo(trx, admin, options.hooks)
      return options.isDemo ? 'demo' : 'admin'
    }
    if (!options.isDemo) return 'none'
    await seedDemo(trx, await createAdmin(trx, DEMO_ADMIN.email, DEMO_ADMIN.password), options.hooks)
    return 'demo'
  })
}
