import { sql } from 'kysely'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { signToken } from '../../server/auth/tokens'
import { MARK_ALL_LIMIT } from '../../server/domain/workspace/notifications'
import { queueMail } from '../../server/mail/outbox'
import { startMailSender, type MailSender } from '../../server/mail/sender'
import type { MailTransport } from '../../server/mail/transport'
import { MAX_RECIPIENTS, notify, type Notice } from '../../server/engine/notify'
import { JWT_SECRET, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { pngPart } from './helpers/images'
import { multipart } from './helpers/multipart'

/**
 * The Inbox (issue 23): notifications kept per user on the server, written through the engine
 * in the transaction of the write that causes them — a purchase request received, a product
 * reaching its low-stock alert, an order confirmed, a mail that failed for good — each read,
 * marked read and deleted by its recipient alone, an admin included; the unread count and
 * "mark all as read" for anyone signed in.
 */
const BASE = '/notification/api/v1/notification'

type Person = { id: number; call: (o: Parameters<TestApp['call']>[0]) => Promise<Reply> }
type Stored = { kind: string; message: string; params: Record<string, unknown>; entity: string; record_id: number; is_read: boolean }

describeEachDatabase('notifications', (t) => {
  const call = (o: Parameters<TestApp['call']>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  let people = 0

  /** A signed-in user: with a role of their own holding `permissions`, or of the built-in role `USER` (no permission at all). */
  async function person(permissions: readonly string[] | 'USER'): Promise<Person> {
    const n = ++people
    const id = await t.current.createUser({ email: `inbox-${n}-${t.current.kind}@example.com` })
    if (permissions === 'USER') {
      await sql`update "user" set role = (select id from role where name = 'USER') where id = ${id}`.execute(t.current.db)
    } else {
      const role = await sql<{ id: number }>`insert into role (name) values (${`INBOX_${n}`}) returning id`.execute(t.current.db)
      await sql`insert into role_permissions (owner_id, target_id) select ${role.rows[0]!.id}, id from permission where name = any(${[...permissions]})`.execute(t.current.db)
      await sql`update "user" set role = ${role.rows[0]!.id} where id = ${id}`.execute(t.current.db)
    }
    const token = await signToken(JWT_SECRET, id)
    return { id, call: (o) => t.current.call({ ...o, headers: { authorization: `Bearer ${token}`, ...(o.headers as Record<string, string>) } }) }
  }

  /** What a user has been told, oldest first. */
  const storedFor = async (user: number, kind?: string): Promise<Stored[]> =>
    (
      await sql<Stored>`select kind, message, params, entity, record_id, is_read from notification
        where "user" = ${user} ${kind ? sql`and kind = ${kind}` : sql``} order by id`.execute(t.current.db)
    ).rows.map((r) => ({ ...r, record_id: Number(r.record_id) }))

  const send = (notice: Notice) => t.current.db.transaction().execute((trx) => notify(trx, t.current.app.engine.registry, t.current.app.engine.hooks, notice))
  const notice = (to: Notice['to'], extra: Partial<Notice> = {}): Notice => ({
    to,
    kind: 'order_confirmed',
    message: { key: 'notification.order_confirmed', params: { number: 'OR1' } },
    entity: 'order',
    recordId: 1,
    ...extra,
  })

  describe('notify', () => {
    it('tells every active holder of a permission and every admin, but the actor and the inactive, through the engine (audited)', async () => {
      const clerk = await person(['CITY_LIST'])
      const actor = await person(['CITY_LIST'])
      const away = await person(['CITY_LIST'])
      const other = await person(['THANA_LIST'])
      await sql`update "user" set is_active = false where id = ${away.id}`.execute(t.current.db)
      const ids = await send(notice({ permission: 'CITY_LIST' }, { kind: 'low_stock', except: actor.id }))
      const told = await sql<{ user: number }>`select "user" from notification where id = any(${ids}::bigint[]) order by "user"`.execute(t.current.db)
      expect(told.rows.map((r) => Number(r.user))).toEqual([t.current.adminId, clerk.id])
      expect(await storedFor(clerk.id)).toEqual([{ kind: 'low_stock', message: 'notification.order_confirmed', params: { number: 'OR1' }, entity: 'order', record_id: 1, is_read: false }])
      for (const nobody of [actor, away, other]) expect(await storedFor(nobody.id)).toEqual([])
      const audited = await sql<{ n: number }>`select count(*)::int as n from audit_log where entity = 'notification' and action = 'create' and entity_id = any(${ids}::bigint[])`.execute(t.current.db)
      expect(audited.rows[0]!.n).toBe(2)
    })

    it('writes nothing when the transaction that causes it rolls back', async () => {
      const clerk = await person([])
      await expect(
        t.current.db.transaction().execute(async (trx) => {
          await notify(trx, t.current.app.engine.registry, t.current.app.engine.hooks, notice([clerk.id]))
          throw new Error('the write failed')
        }),
      ).rejects.toThrow('the write failed')
      expect(await storedFor(clerk.id)).toEqual([])
    })

    it('refuses a record of no entity: a notification opens its record', async () => {
      await expect(send(notice([t.current.adminId], { entity: 'no_such_thing' }))).rejects.toThrow(/not an entity/)
    })
  })

  describe('one’s own notifications', () => {
    let staff: Person
    let mine: number[]
    let admins: number[]

    beforeAll(async () => {
      staff = await person(['NOTIFICATION_LIST', 'NOTIFICATION_DETAILS', 'NOTIFICATION_DELETE', 'NOTIFICATION_MARK_READ'])
      mine = await send(notice([staff.id], { kind: 'purchase_request', message: { key: 'notification.purchase_request', params: { number: 'PR7', from: 'Rina Akter' } }, entity: 'purchase_request', recordId: 7 }))
      mine.push(...(await send(notice([staff.id]))))
      admins = await send(notice([t.current.adminId], { kind: 'mail_failed', message: { key: 'notification.mail_failed', params: { subject: 'Hello' } }, entity: 'outbox_message', recordId: 3 }))
    })

    it('lists the caller’s own, newest first — an admin’s list holds only theirs too', async () => {
      const listed = ok(await staff.call({ method: 'GET', url: `${BASE}/all/` }))
      expect(listed.notifications.map((n: { id: number }) => n.id)).toEqual([...mine].reverse())
      expect(listed.notifications[1]).toMatchObject({ kind: 'purchase_request', message: 'notification.purchase_request', params: { number: 'PR7', from: 'Rina Akter' }, entity: 'purchase_request', record_id: 7, is_read: false, read_at: null })
      const adminList = ok(await call({ method: 'GET', url: `${BASE}/all/?size=100` }))
      expect(adminList.notifications.every((n: { user: { id: number } | number }) => (typeof n.user === 'object' ? n.user.id : n.user) === t.current.adminId)).toBe(true)
      expect(adminList.notifications.map((n: { id: number }) => n.id)).toEqual(expect.arrayContaining(admins))
      expect(adminList.notifications.map((n: { id: number }) => n.id)).not.toContain(mine[0])
    })

    it('filters them by kind', async () => {
      const filtered = ok(await staff.call({ method: 'GET', url: `${BASE}/search/?kind=purchase_request` }))
      expect(filtered.notifications.map((n: { id: number }) => n.id)).toEqual([mine[0]])
    })

    it('answers another’s notification as one that does not exist — to read, mark read or delete, even to an admin', async () => {
      expect((await staff.call({ method: 'GET', url: `${BASE}/${admins[0]}` })).status).toBe(404)
      expect((await staff.call({ method: 'POST', url: `${BASE}/mark_read/${admins[0]}` })).status).toBe(404)
      expect((await staff.call({ method: 'DELETE', url: `${BASE}/delete/${admins[0]}` })).status).toBe(404)
      expect((await call({ method: 'GET', url: `${BASE}/${mine[0]}` })).status).toBe(404)
      expect((await call({ method: 'POST', url: `${BASE}/mark_read/${mine[0]}` })).status).toBe(404)
      expect((await call({ method: 'DELETE', url: `${BASE}/delete/${mine[0]}` })).status).toBe(404)
      expect((await storedFor(staff.id)).map((n) => n.is_read)).toEqual([false, false])
    })

    it('has no create or update route: only the server writes them', async () => {
      expect((await call({ method: 'POST', url: `${BASE}/create/`, payload: { user: t.current.adminId, kind: 'low_stock', message: 'x' } })).status).toBe(404)
      expect((await call({ method: 'PUT', url: `${BASE}/update/${admins[0]}`, payload: { is_read: true } })).status).toBe(404)
    })

    it('marks one read with the time it was read, once; being read is not business activity the audit log keeps', async () => {
      const read = ok(await staff.call({ method: 'POST', url: `${BASE}/mark_read/${mine[1]}` }))
      expect(read).toMatchObject({ id: mine[1], is_read: true, read_at: expect.any(String) })
      expect((await staff.call({ method: 'POST', url: `${BASE}/mark_read/${mine[1]}` })).status).toBe(409)
      const changes = await sql<{ changes: Record<string, unknown> }>`select changes from audit_log where entity = 'notification' and entity_id = ${mine[1]} and action <> 'create'`.execute(t.current.db)
      expect(changes.rows.flatMap((r) => Object.keys(r.changes))).toEqual([])
      expect(ok(await staff.call({ method: 'GET', url: `${BASE}/unread_count/` }))).toEqual({ unread: 1 })
    })

    it('deletes one of one’s own', async () => {
      const extra = await send(notice([staff.id]))
      ok(await staff.call({ method: 'DELETE', url: `${BASE}/delete/${extra[0]}` }))
      expect((await staff.call({ method: 'GET', url: `${BASE}/${extra[0]}` })).status).toBe(404)
    })
  })

  describe('the unread count and “mark all as read”', () => {
    it('counts the caller’s unread and marks them all read — the newest thousand at once — leaving others’ alone', async () => {
      const reader = await person([])
      const neighbour = await person([])
      await sql`insert into notification ("user", kind, message, params, entity, record_id)
        select ${reader.id}, 'low_stock', 'notification.low_stock', '{}'::jsonb, 'inventory', g from generate_series(1, ${MARK_ALL_LIMIT + 5}) g`.execute(t.current.db)
      await send(notice([neighbour.id]))
      expect(ok(await reader.call({ method: 'GET', url: `${BASE}/unread_count/` }))).toEqual({ unread: MARK_ALL_LIMIT + 5 })
      expect(ok(await reader.call({ method: 'POST', url: `${BASE}/mark_all_read/` }))).toEqual({ marked: MARK_ALL_LIMIT, unread: 5 })
      // The oldest are left for the next time.
      const left = await sql<{ record_id: number }>`select record_id from notification where "user" = ${reader.id} and not is_read order by record_id`.execute(t.current.db)
      expect(left.rows.map((r) => Number(r.record_id))).toEqual([1, 2, 3, 4, 5])
      const stamped = await sql<{ n: number }>`select count(*)::int as n from notification where "user" = ${reader.id} and is_read and read_at is not null`.execute(t.current.db)
      expect(stamped.rows[0]!.n).toBe(MARK_ALL_LIMIT)
      expect(ok(await reader.call({ method: 'POST', url: `${BASE}/mark_all_read/` }))).toEqual({ marked: 5, unread: 0 })
      expect(ok(await neighbour.call({ method: 'GET', url: `${BASE}/unread_count/` }))).toEqual({ unread: 1 })
    })
  })

  // Needs the engine's `own` (EntityConfig.own, server/engine/access.ts): a USER holds no
  // NOTIFICATION_* permission and still has their inbox. Without it these answer 403.
  describe('a USER without any permission (EntityConfig.own)', () => {
    it('[own] lists, reads, marks read and deletes their own notifications, and no one else’s', async () => {
      const customer = await person('USER')
      const [first, second] = [...(await send(notice([customer.id]))), ...(await send(notice([customer.id], { kind: 'low_stock' })))]
      const others = await send(notice([t.current.adminId]))
      const listed = ok(await customer.call({ method: 'GET', url: `${BASE}/all/` }))
      expect(listed.notifications.map((n: { id: number }) => n.id)).toEqual([second, first])
      expect(ok(await customer.call({ method: 'GET', url: `${BASE}/search/?kind=low_stock` })).notifications.map((n: { id: number }) => n.id)).toEqual([second])
      expect(ok(await customer.call({ method: 'GET', url: `${BASE}/${first}` }))).toMatchObject({ id: first, is_read: false })
      expect(ok(await customer.call({ method: 'POST', url: `${BASE}/mark_read/${first}` }))).toMatchObject({ id: first, is_read: true })
      ok(await customer.call({ method: 'DELETE', url: `${BASE}/delete/${second}` }))
      expect((await customer.call({ method: 'GET', url: `${BASE}/${others[0]}` })).status).toBe(404)
      expect((await customer.call({ method: 'POST', url: `${BASE}/mark_read/${others[0]}` })).status).toBe(404)
      expect((await customer.call({ method: 'DELETE', url: `${BASE}/delete/${others[0]}` })).status).toBe(404)
    })

    it('counts and marks all their own read (the Inbox’s own routes: for anyone signed in)', async () => {
      const customer = await person('USER')
      await send(notice([customer.id]))
      expect(ok(await customer.call({ method: 'GET', url: `${BASE}/unread_count/` }))).toEqual({ unread: 1 })
      expect(ok(await customer.call({ method: 'POST', url: `${BASE}/mark_all_read/` }))).toEqual({ marked: 1, unread: 0 })
    })
  })

  describe('what notifies', () => {
    const requests = '/purchase_request/api/v1/purchase_request'

    it('a purchase request received: those who list purchase requests', async () => {
      const buyer = await person(['PURCHASE_REQUEST_LIST'])
      const bystander = await person(['PRODUCT_LIST'])
      const offer = multipart(
        { first_name: 'Rina', last_name: 'Akter', email: `rina-${t.current.kind}@garden.example`, contact_no: '+8801711000777', 'items[0][item_name]': 'Garden Tea', 'items[0][item_price]': '12.50', 'items[0][item_quantity]': '8' },
        [pngPart('items[0][images][0]')],
      )
      const made = ok(await call({ method: 'POST', url: `${requests}/create_vendor_purchase_request/`, payload: offer.payload, headers: offer.headers, asAnonymous: true }), 201)
      const id = made.data.id as number
      const number = ok(await call({ method: 'GET', url: `${requests}/${id}` })).invoice_no
      for (const user of [buyer.id, t.current.adminId]) {
        expect(await storedFor(user, 'purchase_request')).toContainEqual({ kind: 'purchase_request', message: 'notification.purchase_request', params: { number, from: 'Rina Akter' }, entity: 'purchase_request', record_id: id, is_read: false })
      }
      expect(await storedFor(bystander.id)).toEqual([])
    })

    it('a product reaching its low-stock alert: those who list the stock, once as it crosses', async () => {
      const keeper = await person(['INVENTORY_LIST'])
      const product = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Brass Kettle', low_stock_alert: 5 } }), 201).id as number
      const adjust = async (quantity: number, unitCost?: string) => {
        const made = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Count', items: [{ product, quantity, ...(unitCost ? { unit_cost: unitCost } : {}) }] } }), 201)
        ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${made.id}` }))
      }
      const lowFor = async (user: number) => (await storedFor(user, 'low_stock')).filter((n) => n.entity === 'inventory' && n.record_id === product)
      // From nothing to 8: it was not above its alert before.
      await adjust(8, '4.00')
      await adjust(-2)
      expect(await lowFor(keeper.id)).toEqual([])
      // 6 → 5: at its alert.
      await adjust(-1)
      expect(await lowFor(keeper.id)).toEqual([{ kind: 'low_stock', message: 'notification.low_stock', params: { product: 'Brass Kettle', quantity: 5, alert: 5 }, entity: 'inventory', record_id: product, is_read: false }])
      expect(await lowFor(t.current.adminId)).toHaveLength(1)
      // Already low: no second notice; back above and down again: a new one.
      await adjust(-1)
      expect(await lowFor(keeper.id)).toHaveLength(1)
      await adjust(10, '4.00')
      await adjust(-10)
      expect(await lowFor(keeper.id)).toHaveLength(2)
    })

    it('an order confirmed: those who list orders, but whoever confirmed it', async () => {
      const seller = await person(['ORDER_LIST'])
      const tea = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Market Tea', unit_price: '25.00' } }), 201).id as number
      const stockIn = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Opening', items: [{ product: tea, quantity: 50, unit_cost: '10.00' }] } }), 201)
      ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${stockIn.id}` }))
      const customer = ok(
        await call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: { username: `kamal-${t.current.kind}`, email: `kamal-${t.current.kind}@shop.example`, first_name: 'Kamal', last_name: 'Hossain', password: 'kamal-pass-123', confirm_password: 'kamal-pass-123' } }),
        201,
      ).id as number
      const order = ok(await call({ method: 'POST', url: '/order/api/v1/order/create/', payload: { user: customer, order_items: [{ product: tea, quantity: 2 }] } }), 201) as { id: number; order_no: string }
      expect(await storedFor(seller.id, 'order_confirmed')).toEqual([])
      ok(await call({ method: 'POST', url: `/order/api/v1/order/confirm/${order.id}` }))
      expect(await storedFor(seller.id, 'order_confirmed')).toEqual([{ kind: 'order_confirmed', message: 'notification.order_confirmed', params: { number: order.order_no }, entity: 'order', record_id: order.id, is_read: false }])
      // The admin confirmed it: they know.
      expect((await storedFor(t.current.adminId, 'order_confirmed')).filter((n) => n.params.number === order.order_no)).toEqual([])
    })

    describe('a mail that failed for good', () => {
      const senders: MailSender[] = []
      afterEach(async () => {
        for (const s of senders.splice(0)) await s.stop()
      })
      const failing: MailTransport = {
        kind: 'smtp',
        async send() {
          throw new Error('connect ECONNREFUSED 127.0.0.1:25')
        },
        close() {},
      }

      it('tells those who read the outbox — once it is failed, not while it is retried', async () => {
        const staff = await person(['CITY_LIST'])
        const sender = startMailSender({ db: t.current.db, transport: failing, pollMs: 60_000, maxAttempts: 2, registry: t.current.app.engine.registry, hooks: t.current.app.engine.hooks })
        senders.push(sender)
        await sender.runOnce()
        const id = await t.current.db.transaction().execute((trx) => queueMail(trx, { to: 'someone@example.com', subject: 'Your invoice', text: '…' }))
        const toldOf = async () => (await storedFor(t.current.adminId, 'mail_failed')).filter((n) => n.record_id === id)
        await sender.runOnce()
        expect(await toldOf()).toEqual([])
        await sql`update outbox_message set next_attempt_at = now() - interval '1 second' where id = ${id}`.execute(t.current.db)
        await sender.runOnce()
        expect((await sql<{ status: string }>`select status from outbox_message where id = ${id}`.execute(t.current.db)).rows[0]!.status).toBe('failed')
        expect(await toldOf()).toEqual([{ kind: 'mail_failed', message: 'notification.mail_failed', params: { subject: 'Your invoice' }, entity: 'outbox_message', record_id: id, is_read: false }])
        // STAFF-like roles do not read the outbox (its mails carry password-reset links).
        expect(await storedFor(staff.id)).toEqual([])
      })
    })
  })

  // Last: its users hold CITY_LIST, which the tests above use.
  it(`tells at most ${MAX_RECIPIENTS} people of one event`, async () => {
    const role = await sql<{ id: number }>`insert into role (name) values ('INBOX_MANY') returning id`.execute(t.current.db)
    await sql`insert into role_permissions (owner_id, target_id) select ${role.rows[0]!.id}, id from permission where name = 'CITY_LIST'`.execute(t.current.db)
    await sql`insert into "user" (first_name, last_name, username, email, password, is_admin, is_active, role)
      select 'Many', 'Clerk', 'many' || g, 'many' || g || '@example.com', 'x', false, true, ${role.rows[0]!.id} from generate_series(1, ${MAX_RECIPIENTS + 10}) g`.execute(t.current.db)
    expect(await send(notice({ permission: 'CITY_LIST' }))).toHaveLength(MAX_RECIPIENTS)
  })
})
