import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import type { Caller } from '../../schema/kit'
import { todayIso } from '../../schema/kit/dates'
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

/**
 * Today's figures (issue 23): open tickets, today's orders (not cancelled) and the products
 * running low — each only for a caller who may open the list it counts, counted by the
 * engine for them (their row scope too) and answered with that list's address, filtered.
 */
describeEachDatabase('the quick panel’s figures of today', (t) => {
  const orders = registry.order.api.base
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const figuresOf = (body: { figures: Array<{ key: string; count: number; href: string }> }) => Object.fromEntries(body.figures.map((f) => [f.key, f]))

  // Three orders of today: one pending, one confirmed, one cancelled.
  beforeAll(async () => {
    const admin = (o: Parameters<TestApp['call']>[0]) => t.current.call(o)
    const { product, customer } = await lowStockProduct(t.current)
    await orderOf(admin, customer, product)
    ok(await admin({ method: 'POST', url: `${orders}/confirm/${await orderOf(admin, customer, product)}` }))
    ok(await admin({ method: 'POST', url: `${orders}/cancel/${await orderOf(admin, customer, product)}` }))
  })

  it('gives an admin today’s orders that are not cancelled and the products running low, each opening its list', async () => {
    const day = todayIso()
    const figures = figuresOf(ok(await t.current.call({ method: 'GET', url: PANEL })))
    const todays = await sql<{ n: string }>`select count(*) as n from "order" where order_date = ${day}::date and status <> 'cancelled'`.execute(t.current.db)
    expect(Number(todays.rows[0]!.n)).toBe(2)
    expect(figures.orders_today).toEqual({ key: 'orders_today', count: 2, href: `${registry.order.ui.listPath}?order_date_after=${day}&order_date_before=${day}` })
    // The order list at that address: today's orders, the cancelled one among them (the address cannot leave it out).
    const listed = ok(await t.current.call({ method: 'GET', url: `${orders}/search/?order_date_after=${day}&order_date_before=${day}` }))
    expect(listed.total_elements).toBe(3)
    // As the dashboard's card counts them: at or below each product's own alert.
    const low = ok(await t.current.call({ method: 'GET', url: '/dashboard/api/v1/get_total_count_of_low_stock_products/' }))
    expect(figures.low_stock_products).toEqual({ key: 'low_stock_products', count: low.count, href: `${registry.inventory.ui.listPath}?ordering=quantity` })
    expect(low.count).toBeGreaterThanOrEqual(1)
    const ticket = t.current.app.engine.registry.find((e) => e.name === 'ticket')
    if (ticket) {
      // The ticket entity (issue 23) is the lead's: when it is there, its open ones are counted.
      const open = await sql<{ n: string }>`select count(*) as n from ticket where status in ('open', 'processing')`.execute(t.current.db)
      expect(figures.open_tickets).toMatchObject({ count: Number(open.rows[0]!.n) })
      expect(figures.open_tickets!.href.startsWith(ticket.ui.areaPath)).toBe(true)
    } else {
      expect(figures.open_tickets).toBeUndefined()
    }
  })

  it('gives each caller only the figures of the lists they may open', async () => {
    const clerk = await callerWith(t.current, [registry.order.permissions.LIST])
    expect(Object.keys(figuresOf(ok(await clerk({ method: 'GET', url: PANEL }))))).toEqual(['orders_today'])
    const storekeeper = await callerWith(t.current, [registry.inventory.permissions.LIST])
    expect(Object.keys(figuresOf(ok(await storekeeper({ method: 'GET', url: PANEL }))))).toEqual(['low_stock_products'])
    const ticket = t.current.app.engine.registry.find((e) => e.name === 'ticket')
    if (ticket) {
      const support = await callerWith(t.current, [ticket.permissions.LIST])
      expect(Object.keys(figuresOf(ok(await support({ method: 'GET', url: PANEL }))))).toEqual(['open_tickets'])
    }
    // Creating orders is not reading them.
    const writer = await callerWith(t.current, [registry.order.permissions.CREATE])
    expect(ok(await writer({ method: 'GET', url: PANEL })).figures).toEqual([])
  })
})

/**
 * Within row scopes: the same figures on a registry whose orders each clerk reaches only as
 * their own, and whose stock list shows a storekeeper one product (scopes as the registry
 * could give): each counts what their list holds.
 */
let storekeepersProduct = 0
const scopedOrders = entities.map((e) =>
  e.name === 'order'
    ? { ...e, scope: (caller: Caller) => (caller.isAdmin ? null : { created_by: caller.id }) }
    : e.name === 'inventory'
      ? { ...e, scope: (caller: Caller) => (caller.isAdmin ? null : { product: storekeepersProduct }) }
      : e,
)

describeEachDatabase(
  'the quick panel’s figures, within row scopes',
  (t) => {
    it('counts today’s orders of the caller’s scope only, as their list totals them', async () => {
      const perms = [registry.order.permissions.LIST, registry.order.permissions.CREATE]
      const [ann, bob] = [await callerWith(t.current, perms), await callerWith(t.current, perms)]
      const { product, customer } = await lowStockProduct(t.current)
      await orderOf(ann, customer, product)
      for (let i = 0; i < 2; i++) await orderOf(bob, customer, product)
      const day = todayIso()
      for (const [call, n] of [[ann, 1], [bob, 2], [(o: Parameters<TestApp['call']>[0]) => t.current.call(o), 3]] as const) {
        const figure = (await call({ method: 'GET', url: PANEL })).body.figures.find((f: { key: string }) => f.key === 'orders_today')
        expect(figure.count).toBe(n)
        const listed = await call({ method: 'GET', url: `${registry.order.api.base}/search/?order_date_after=${day}&order_date_before=${day}` })
        expect(listed.body.total_elements).toBe(n)
      }
    })

    it('counts the products running low within the caller’s scope of the stock list', async () => {
      // Never stocked: none on hand, at or below the default alert.
      const unstocked = okOf(await t.current.call({ method: 'POST', url: `${registry.product.api.base}/create/`, payload: { name: 'Panel Saucer', unit_price: '4.00' } }), 201).id
      storekeepersProduct = unstocked
      const storekeeper = await callerWith(t.current, [registry.inventory.permissions.LIST])
      const figureOf = async (call: (o: Parameters<TestApp['call']>[0]) => Promise<Reply>) =>
        (await call({ method: 'GET', url: PANEL })).body.figures.find((f: { key: string }) => f.key === 'low_stock_products').count
      expect(await figureOf(storekeeper)).toBe(1)
      expect((await storekeeper({ method: 'GET', url: `${registry.inventory.api.base}/all/` })).body.total_elements).toBe(1)
      const low = await sql<{ n: string }>`select count(*) as n from inventory i join product p on p.id = i.id where i.quantity <= coalesce(p.low_stock_alert, 5)`.execute(t.current.db)
      expect(Number(low.rows[0]!.n)).toBeGreaterThanOrEqual(2)
      expect(await figureOf((o) => t.current.call(o))).toBe(Number(low.rows[0]!.n))
    })
  },
  { entities: scopedOrders },
)

const okOf = (r: Reply, status = 200) => {
  expect(r.status, r.raw).toBe(status)
  return r.body
}

/** A product running low (50 on hand against an alert of 100), and a customer to sell it to. */
async function lowStockProduct(app: TestApp): Promise<{ product: number; customer: number }> {
  const admin = (o: Parameters<TestApp['call']>[0]) => app.call(o)
  const product = okOf(await admin({ method: 'POST', url: `${registry.product.api.base}/create/`, payload: { name: 'Panel Cup', unit_price: '8.00', low_stock_alert: 100 } }), 201).id
  const adjustment = okOf(await admin({ method: 'POST', url: `${registry.stock_adjustment.api.base}/create/`, payload: { reason: 'Opening', items: [{ product, quantity: 50, unit_cost: '3.00' }] } }), 201)
  okOf(await admin({ method: 'POST', url: `${registry.stock_adjustment.api.base}/confirm/${adjustment.id}` }))
  const customer = okOf(
    await admin({
      method: 'POST',
      url: `${registry.customer.api.base}/create/`,
      payload: { username: 'panelbuyer', email: 'panel.buyer@shop.example', first_name: 'Panel', last_name: 'Buyer', password: 'panel-pass-1234', confirm_password: 'panel-pass-1234' },
    }),
    201,
  ).id
  return { product, customer }
}

/** An order of today (pending) of one unit, made by `call`. */
async function orderOf(call: (o: Parameters<TestApp['call']>[0]) => Promise<Reply>, customer: number, product: number): Promise<number> {
  return okOf(await call({ method: 'POST', url: `${registry.order.api.base}/create/`, payload: { user: customer, order_items: [{ product, quantity: 1 }] } }), 201).id
}

/**
 * The caller's own (issue 23): their newest unread notifications and their notes — never
 * another's, an admin's panel included.
 */
describeEachDatabase('the quick panel’s notifications and notes', (t) => {
  const notes = registry.note.api.base
  const asUserRole = async (email: string) => {
    const id = await t.current.createUser({ email })
    const role = await sql<{ id: number }>`select id from role where name = 'USER'`.execute(t.current.db)
    await sql`update "user" set role = ${role.rows[0]!.id} where id = ${id}`.execute(t.current.db)
    const token = await signToken(JWT_SECRET, id)
    return { id, call: (o: Parameters<TestApp['call']>[0]) => t.current.call({ ...o, headers: { authorization: `Bearer ${token}` } }) }
  }
  const notify = async (user: number, message: string, isRead = false) => {
    await sql`insert into notification ("user", kind, message, params, is_read) values (${user}, 'low_stock', ${message}, ${JSON.stringify({ product: message })}::jsonb, ${isRead})`.execute(t.current.db)
  }
  const hasNotifications = () => t.current.app.engine.registry.some((e) => e.name === 'notification')

  it('answers the caller’s five newest unread notifications, never a read one nor another’s', async () => {
    if (!hasNotifications()) return
    const other = await t.current.createUser({ email: 'panel-other@example.com' })
    for (let i = 1; i <= 7; i++) await notify(t.current.adminId, `notification.test_${i}`)
    await notify(t.current.adminId, 'notification.test_read', true)
    await notify(other, 'notification.test_other')
    const { notifications } = (await t.current.call({ method: 'GET', url: PANEL })).body
    expect(notifications.map((n: { message: string }) => n.message)).toEqual([7, 6, 5, 4, 3].map((i) => `notification.test_${i}`))
    expect(notifications[0]).toMatchObject({ kind: 'low_stock', params: { product: 'notification.test_7' } })
    expect(typeof notifications[0].at).toBe('string')
  })

  it('never shows another user’s notes: the admin’s count of notes is their own', async () => {
    const ann = await callerWith(t.current, ['NOTE_LIST', 'NOTE_CREATE'])
    expect((await ann({ method: 'POST', url: `${notes}/create/`, payload: { text: 'Ann’s panel note' } })).status).toBe(201)
    expect((await ann({ method: 'GET', url: PANEL })).body.counts.notes).toBe(1)
    expect((await t.current.call({ method: 'GET', url: PANEL })).body.counts.notes).toBe(0)
    const admins = await t.current.call({ method: 'GET', url: `${notes}/all/` })
    expect(admins.body.notes).toEqual([])
  })

  // LEAD: depends on the engine's `own` option (EntityConfig.own, server/engine/access.ts) — a USER holds no NOTE_* nor NOTIFICATION_* permission.
  it('[own] gives a USER-role account no figures, but their own notes and unread notifications', async () => {
    const member = await asUserRole('panel-member@example.com')
    const made = await member.call({ method: 'POST', url: `${notes}/create/`, payload: { text: 'Bring the receipt', pinned: true } })
    expect(made.status, made.raw).toBe(201)
    if (hasNotifications()) await notify(member.id, 'notification.test_member')
    const panel = await member.call({ method: 'GET', url: PANEL })
    expect(panel.status).toBe(200)
    expect(panel.body.figures).toEqual([])
    expect(panel.body.counts).toEqual({})
    if (hasNotifications()) expect(panel.body.notifications.map((n: { message: string }) => n.message)).toEqual(['notification.test_member'])
    const theirs = await member.call({ method: 'GET', url: `${notes}/all/?ordering=-pinned` })
    expect(theirs.status, theirs.raw).toBe(200)
    expect(theirs.body.notes.map((n: { text: string; pinned: boolean }) => [n.text, n.pinned])).toEqual([['Bring the receipt', true]])
    // Nobody else's: an admin's note is not theirs to read.
    const adminsNote = (await t.current.call({ method: 'POST', url: `${notes}/create/`, payload: { text: 'Admin only' } })).body.id
    expect((await member.call({ method: 'GET', url: `${notes}/${adminsNote}` })).status).toBe(404)
    expect((await member.call({ method: 'DELETE', url: `${notes}/delete/${adminsNote}` })).status).toBe(404)
  })
})
