import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { introspect } from '../../server/db/introspect'
import { registrySchema } from '../../server/db/registry-schema'
import { BusinessError } from '../../server/engine/errors'
import type { DomainModule } from '../../server/engine/modules'
import { createRow as engineCreate, updateRow } from '../../server/engine/service'
import { catalogues } from '../../server/i18n'
import { addThrowawayLabels, gadgetOrder, gadgetOrderLine, gadgetSales, memo, throwawayEntities, throwawayReports } from '../support/throwaway-registry'
import { describeEachDatabase, describeOnOneDatabase, type TestApp, callerWith } from './helpers/app'
import { multipart } from './helpers/multipart'
import { permissionMatrix } from './helpers/permission-matrix'
import { stockTransferModule } from './helpers/throwaway-module'
import { countRows, createRow } from './helpers/samples'

/**
 * Documents with lines, custom actions, reports, rules, computed values, hooks, row scopes and
 * stale updates — each declared once in the registry (tests/support/throwaway-registry.ts, an
 * order of gadgets whose lines point at districts) and derived by the engine: defined here at
 * run time, with only this test's domain module for what code must do.
 */
const ORDERS = gadgetOrder.api.base

const testModule: DomainModule = {
  name: 'test',
  hooks: {
    gadget_order: {
      // A default the client may leave out, filled in before the registry judges the order.
      // Today when left out; and the document number (read-only), given inside the write's transaction.
      async beforeValidate({ trx, action, input }) {
        if (action !== 'create') return
        if (input.order_date === undefined || input.order_date === '') input.order_date = new Date().toISOString().slice(0, 10)
        const r = await sql<{ n: string }>`select count(*) as n from gadget_order`.execute(trx)
        input.number = `GO-${String(Number(r.rows[0]!.n) + 1).padStart(4, '0')}`
      },
      afterRead({ rows, shape }) {
        for (const row of rows) if (shape === 'record') row.is_read_through_hooks = true
      },
    },
    gadget_order_line: {
      afterWrite({ after }) {
        if (after?.note === 'boom') throw new BusinessError('A line hook refused the line.')
      },
    },
  },
  actions: {
    gadget_order: {
      async confirm({ id, engine }) {
        await updateRow(engine(gadgetOrder), id, { status: 'confirmed', confirmed_at: new Date().toISOString() })
      },
      async cancel({ row, input, engine }) {
        await updateRow(engine(gadgetOrder), row.id as number, { status: 'cancelled', note: input.reason })
      },
    },
  },
  reports: {
    gadget_sales: ({ params }) => sql`
      select c.name as gadget, count(distinct o.id)::int as orders, sum(l.quantity)::int as quantity, sum(l.total_price) as amount
      from gadget_order_line l join gadget_order o on o.id = l.gadget_order join city c on c.id = l.gadget
      where (${params.status ?? null}::text is null or o.status = ${params.status ?? null})
        and (${params.date_after ?? null}::date is null or o.created_at::date >= ${params.date_after ?? null}::date)
        and (${params.date_before ?? null}::date is null or o.created_at::date <= ${params.date_before ?? null}::date)
      group by c.name`,
  },
}

const options = { entities: throwawayEntities, reports: throwawayReports, modules: [testModule, stockTransferModule] }

let undoLabels: () => void
beforeAll(() => {
  undoLabels = addThrowawayLabels(catalogues)
})
afterAll(() => undoLabels())

type AuditRow = { entity: string; entity_id: number; action: string; changes: Record<string, [unknown, unknown]> }
const auditSince = async (t: TestApp, since: number): Promise<AuditRow[]> =>
  (await sql<AuditRow>`select entity, entity_id, action, changes from audit_log where id > ${since} order by id`.execute(t.db)).rows
const lastAuditId = async (t: TestApp) => Number((await sql<{ id: string | null }>`select max(id) as id from audit_log`.execute(t.db)).rows[0]!.id ?? 0)
const storedLines = async (t: TestApp, orderId: number) =>
  (await sql<{ id: number; gadget: number; quantity: number; position: number }>`
    select id, gadget, quantity, position from gadget_order_line where gadget_order = ${orderId} order by position`.execute(t.db)).rows

async function districts(t: TestApp, n: number): Promise<Array<{ id: number; name: string }>> {
  const country = await createRow(t, registry.country, { name: `Gadgetland ${Date.now()}${Math.random()}` })
  const out: Array<{ id: number; name: string }> = []
  for (let i = 0; i < n; i++) out.push((await createRow(t, registry.city, { name: `District ${i} ${out.length}${Math.floor(Math.random() * 1e6)}`, country: country.id })) as never)
  return out
}


describe('a document, an action and a report defined at run time', () => {
  it('pass the registry check', async () => {
    const { checkRegistry } = await import('../../schema')
    const undo = addThrowawayLabels(catalogues)
    try {
      expect(checkRegistry(throwawayEntities, catalogues, throwawayReports)).toEqual([])
    } finally {
      undo()
    }
  })
})

describeEachDatabase(
  'documents with lines, actions and reports',
  (t) => {
    let places: Array<{ id: number; name: string }>
    beforeAll(async () => {
      places = await districts(t.current, 4)
    })
    const line = (i: number, quantity = 1, unit_price = '10.00', extra: Record<string, unknown> = {}) => ({ gadget: places[i]!.id, quantity, unit_price, ...extra })

    describe('tables', () => {
      it("gives the lines a table with a cascading reference to the document and a position", async () => {
        const spec = registrySchema(throwawayEntities)
        const table = spec.tables.find((x) => x.name === 'gadget_order_line')!
        expect(table.columns.slice(0, 3)).toEqual([
          { name: 'id', type: 'bigint', notNull: true },
          { name: 'gadget_order', type: 'bigint', notNull: true },
          { name: 'position', type: 'integer', notNull: true, default: '0' },
        ])
        expect(spec.foreignKeys).toContainEqual({ name: 'gadget_order_line_gadget_order_fkey', table: 'gadget_order_line', column: 'gadget_order', target: 'gadget_order', onDelete: 'cascade' })
        const live = await introspect(t.current.db)
        for (const c of table.columns) expect(live.tables.get('gadget_order_line')!.get(c.name), c.name).toEqual({ type: c.type, notNull: c.notNull })
        // A stored computed value is a column (sortable, filterable); a virtual one and the lines are not.
        expect(live.tables.get('gadget_order')!.has('total')).toBe(true)
        expect(live.tables.get('gadget_order')!.has('summary')).toBe(false)
        expect(live.tables.get('gadget_order')!.has('items')).toBe(false)
      })
    })

    describe('lines', () => {
      it('creates a document with its lines in one request: dated and numbered by hooks, computed values worked out, lines in order with their names', async () => {
        const since = await lastAuditId(t.current)
        // Read-only fields are the server's: what a client sends for them is ignored.
        const payload = { customer_email: 'Buyer@Example.com', items: [line(0, 3, '0.1'), line(1, 2, '1250.50')], number: 'MINE-1', confirmed_at: '2020-01-01T00:00:00Z' }
        const res = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload })
        expect(res.status, res.raw).toBe(201)
        expect(res.body).toMatchObject({
          number: expect.stringMatching(/^GO-\d{4}$/),
          confirmed_at: null,
          order_date: new Date().toISOString().slice(0, 10),
          customer_email: 'buyer@example.com',
          status: 'draft',
          // 3 × 0.10 = 0.30 exactly (0.1 * 3 in floats is 0.30000000000000004); 2 × 1250.50 = 2501.00.
          total: '2501.30',
          line_count: 2,
          summary: `${res.body.number} (draft)`,
          is_read_through_hooks: true,
        })
        expect(res.body.items).toEqual([
          { id: expect.any(Number), gadget: places[0]!.id, quantity: 3, unit_price: '0.10', total_price: '0.30', note: null, _labels: { gadget: places[0]!.name } },
          { id: expect.any(Number), gadget: places[1]!.id, quantity: 2, unit_price: '1250.50', total_price: '2501.00', note: null, _labels: { gadget: places[1]!.name } },
        ])
        expect((await storedLines(t.current, res.body.id)).map((l) => l.position)).toEqual([0, 1])
        // One audit entry for the document and one per line, all from this write.
        const audit = await auditSince(t.current, since)
        expect(audit.map((a) => `${a.entity} ${a.action}`)).toEqual(['gadget_order_line create', 'gadget_order_line create', 'gadget_order create'])
        const read = await t.current.call({ method: 'GET', url: `${ORDERS}/${res.body.id}` })
        expect(read.body.is_read_through_hooks).toBe(true)
        expect(read.body.items).toEqual(res.body.items)
      })

      it('takes the lines as the contract\'s multipart items[i][field] too', async () => {
        const form = multipart({
          customer_email: 'form@example.com',
          'items[0][gadget]': String(places[2]!.id), 'items[0][quantity]': '4', 'items[0][unit_price]': '2.50',
          'items[1][gadget]': String(places[3]!.id), 'items[1][quantity]': '1', 'items[1][unit_price]': '7',
        })
        const res = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, ...form })
        expect(res.status, res.raw).toBe(201)
        expect(res.body.items.map((l: { gadget: number; total_price: string }) => [l.gadget, l.total_price])).toEqual([[places[2]!.id, '10.00'], [places[3]!.id, '7.00']])
        expect(res.body.total).toBe('17.00')
      })

      it('answers a bad line with 400 naming the line and its field (in the request\'s language), writing nothing', async () => {
        const before = { orders: await countRows(t.current, 'gadget_order'), lines: await countRows(t.current, 'gadget_order_line'), audit: await countRows(t.current, 'audit_log') }
        const bad = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0), line(1, 0, 'abc')] } })
        expect(bad.status).toBe(400)
        expect(bad.body).toEqual({
          'items.1.quantity': ['Ensure this value is greater than or equal to 1.'],
          'items.1.unit_price': ['Enter a number with at most 2 decimal places and 12 digits before the point.'],
        })
        const turkish = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0, 0)] }, headers: { 'accept-language': 'tr' } })
        expect(turkish.body['items.0.quantity'][0]).not.toBe('Ensure this value is greater than or equal to 1.')
        const missing = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0), { ...line(1), gadget: 999999999 }] } })
        expect(missing.body).toEqual({ 'items.1.gadget': ['Invalid pk "999999999" - object does not exist.'] })
        const none = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [] } })
        expect(none.body).toEqual({ items: ['Add at least 1 line(s).'] })
        // A rule across lines (one line per district) and a rule of a line.
        const twice = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0), line(0)] } })
        expect(twice.body).toEqual({ items: ['Two lines are the same: keep each only once.'] })
        const ruled = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0, 1, '1', { note: 'not allowed' })] } })
        expect(ruled.body).toEqual({ 'items.0.note': ['Details is not valid'] })
        // A line's hook refusing it rolls the whole document back.
        const refused = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0), line(1, 1, '1', { note: 'boom' })] } })
        expect(refused.status).toBe(400)
        expect(refused.body).toEqual({ detail: 'A line hook refused the line.' })
        expect({ orders: await countRows(t.current, 'gadget_order'), lines: await countRows(t.current, 'gadget_order_line'), audit: await countRows(t.current, 'audit_log') }).toEqual(before)
      })

      it('updates lines by id, adds those without one, removes those left out, keeps the order sent, and leaves unchanged lines alone', async () => {
        const created = (await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0, 1), line(1, 2), line(2, 3)] } })).body
        const [a, b, c] = created.items as Array<{ id: number }>
        const since = await lastAuditId(t.current)
        // c moves first, a changes quantity, b is removed, a new line for district 3 is added.
        const res = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { items: [{ id: c!.id }, { id: a!.id, quantity: 5 }, line(3, 1, '4.00')] } })
        expect(res.status, res.raw).toBe(200)
        expect(res.body.items.map((l: { id: number; gadget: number; quantity: number }) => [l.gadget, l.quantity])).toEqual([[places[2]!.id, 3], [places[0]!.id, 5], [places[3]!.id, 1]])
        expect(res.body.items[0].id).toBe(c!.id)
        expect(res.body.items[1].id).toBe(a!.id)
        expect(res.body).toMatchObject({ line_count: 3, total: '84.00' })
        expect((await storedLines(t.current, created.id)).map((l) => l.id)).toEqual([c!.id, a!.id, res.body.items[2].id])
        const audit = await auditSince(t.current, since)
        const named = (x: AuditRow) => (x.entity !== 'gadget_order_line' ? 'the order' : x.entity_id === b!.id ? 'b' : x.entity_id === a!.id ? 'a' : x.entity_id === c!.id ? 'c' : 'new')
        expect(audit.map((x) => `${x.entity} ${named(x)} ${x.action}`)).toEqual([
          'gadget_order_line b delete',
          'gadget_order_line c update',
          'gadget_order_line a update',
          'gadget_order_line new create',
          'gadget_order the order update',
        ])
        expect(audit[1]!.changes).toEqual({ position: [2, 0] })
        expect(audit[2]!.changes).toEqual({ quantity: [1, 5], total_price: ['10.00', '50.00'], position: [0, 1] })
        // The order's own entry: what that did to it, and that its lines changed (how many there are).
        expect(audit[4]!.changes).toEqual({ total: ['60.00', '84.00'], items: [3, 3] })

        // The body of a read sent back whole (the original client's PUT) changes nothing.
        const again = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: res.body })
        expect(again.status, again.raw).toBe(200)
        const quiet = await lastAuditId(t.current)
        await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { note: 'only the note' } })
        expect((await auditSince(t.current, quiet)).map((x) => x.entity)).toEqual(['gadget_order'])
        expect((await storedLines(t.current, created.id)).map((l) => l.id)).toEqual(res.body.items.map((l: { id: number }) => l.id))
      })

      it("refuses a line id that is not one of the document's lines", async () => {
        const one = (await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0)] } })).body
        const other = (await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(1)] } })).body
        const res = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${one.id}`, payload: { items: [{ ...line(0), id: other.items[0].id }] } })
        expect(res.status).toBe(400)
        expect(res.body).toEqual({ 'items.0.id': ['This line is not part of the record.'] })
        const onCreate = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [{ ...line(0), id: 5 }] } })
        expect(onCreate.body).toEqual({ 'items.0.id': ['This line is not part of the record.'] })
      })

      it('deletes a document with its lines, each audited', async () => {
        const created = (await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0), line(1)] } })).body
        const since = await lastAuditId(t.current)
        expect((await t.current.call({ method: 'DELETE', url: `${ORDERS}/delete/${created.id}` })).status).toBe(200)
        expect(await storedLines(t.current, created.id)).toEqual([])
        expect((await auditSince(t.current, since)).map((a) => `${a.entity} ${a.action}`)).toEqual(['gadget_order_line delete', 'gadget_order_line delete', 'gadget_order delete'])
      })

      it('lists documents with their stored aggregates, sortable and filterable, without their lines', async () => {
        await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0, 1, '99999.99'), line(1, 1, '0.01')] } })
        const list = await t.current.call({ method: 'GET', url: `${ORDERS}/all/?ordering=-total&size=1` })
        expect(list.body.gadget_orders[0]).toMatchObject({ total: '100000.00', line_count: 2, summary: expect.stringMatching(/^GO-\d{4} \(draft\)$/) })
        expect(list.body.gadget_orders[0]).not.toHaveProperty('items')
        const two = await t.current.call({ method: 'GET', url: `${ORDERS}/search/?line_count=2&size=100` })
        expect(two.body.gadget_orders.every((o: { line_count: number }) => o.line_count === 2)).toBe(true)
      })
    })

    describe('stale updates', () => {
      it('refuses an update carrying an updated_at older than the stored one with 409, in the request\'s language; no updated_at is not checked', async () => {
        const created = (await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0)] } })).body
        const first = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { note: 'mine', updated_at: created.updated_at } })
        expect(first.status).toBe(200)
        const stale = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { note: 'theirs', updated_at: created.updated_at } })
        expect(stale.status).toBe(409)
        expect(stale.body).toEqual({ detail: 'Someone changed this record after you opened it. Reload it to see their changes.' })
        const arabic = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { note: 'x', updated_at: created.updated_at }, headers: { 'accept-language': 'ar' } })
        expect(arabic.body.detail).toBe('غيّر شخص آخر هذا السجل بعد أن فتحته. أعد تحميله لرؤية التغييرات.')
        expect((await t.current.call({ method: 'GET', url: `${ORDERS}/${created.id}` })).body.note).toBe('mine')
        expect((await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { note: 'theirs', updated_at: first.body.updated_at } })).status).toBe(200)
        expect((await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { note: 'anyone' } })).status).toBe(200)
        const bad = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${created.id}`, payload: { updated_at: 'yesterday' } })
        expect(bad.body).toEqual({ updated_at: ['Enter a valid date and time.'] })
      })
    })

    describe('custom actions', () => {
      it('runs an action: its route and alias, its permission, the row in its state, the audit entry; then refuses it when it no longer applies', async () => {
        const order = (await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0)] } })).body
        const since = await lastAuditId(t.current)
        const confirmed = await t.current.call({ method: 'POST', url: `${ORDERS}/confirm/${order.id}` })
        expect(confirmed.status, confirmed.raw).toBe(200)
        // The handler sets a read-only field too: code acting as the system may.
        expect(confirmed.body).toMatchObject({ id: order.id, status: 'confirmed', confirmed_at: expect.stringMatching(/^\d{4}-/) })
        const audit = await auditSince(t.current, since)
        expect(audit.map((a) => `${a.entity} ${a.action}`)).toEqual(['gadget_order update', 'gadget_order confirm'])
        expect(audit[1]!.changes).toMatchObject({ status: ['draft', 'confirmed'], confirmed_at: [null, confirmed.body.confirmed_at] })
        // A client cannot move it back.
        const touched = await t.current.call({ method: 'PUT', url: `${ORDERS}/update/${order.id}`, payload: { confirmed_at: null, number: 'MINE-2' } })
        expect(touched.status, touched.raw).toBe(200)
        expect(touched.body).toMatchObject({ confirmed_at: confirmed.body.confirmed_at, number: order.number })
        const again = await t.current.call({ method: 'POST', url: `${ORDERS}/confirm/${order.id}` })
        expect(again.status).toBe(409)
        expect(again.body).toEqual({ detail: '“Confirm” does not apply to this Gadget order in its present state.' })

        const noReason = await t.current.call({ method: 'POST', url: `${ORDERS}/cancel_order/${order.id}`, payload: {} })
        expect(noReason.status).toBe(400)
        expect(noReason.body).toEqual({ reason: ['Details is required'] })
        const cancelled = await t.current.call({ method: 'POST', url: `${ORDERS}/cancel/${order.id}`, payload: { reason: 'Customer changed their mind' } })
        expect(cancelled.body).toMatchObject({ status: 'cancelled', note: 'Customer changed their mind' })
        const cancelAudit = (await auditSince(t.current, since)).at(-1)!
        expect(cancelAudit).toMatchObject({ action: 'cancel', changes: { _input: [null, { reason: 'Customer changed their mind' }] } })
        expect((await t.current.call({ method: 'POST', url: `${ORDERS}/confirm/999999999` })).status).toBe(404)
      })

      it('has a permission per action that roles hold: without it 403, with it the action runs', async () => {
        const names = (await sql<{ name: string }>`select name from permission where name like 'GADGET_ORDER_%' order by name`.execute(t.current.db)).rows.map((r) => r.name)
        expect(names).toEqual(['GADGET_ORDER_CANCEL', 'GADGET_ORDER_CONFIRM', 'GADGET_ORDER_CREATE', 'GADGET_ORDER_DELETE', 'GADGET_ORDER_DETAILS', 'GADGET_ORDER_LIST', 'GADGET_ORDER_UPDATE'])
        const staff = await sql<{ name: string }>`select p.name from role_permissions rp join permission p on p.id = rp.target_id join role r on r.id = rp.owner_id where r.name = 'STAFF' and p.name like 'GADGET_%'`.execute(t.current.db)
        expect(staff.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['GADGET_ORDER_CONFIRM', 'GADGET_ORDER_CANCEL', 'GADGET_SALES_VIEW']))
        const order = (await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { items: [line(0)] } })).body
        const clerk = await callerWith(t.current, ['GADGET_ORDER_DETAILS', 'GADGET_ORDER_UPDATE'])
        const refused = await clerk({ method: 'POST', url: `${ORDERS}/confirm/${order.id}` })
        expect(refused.status).toBe(403)
        expect(refused.body).toEqual({ detail: "You don't have these permissions [GADGET_ORDER_CONFIRM]" })
        const confirmer = await callerWith(t.current, ['GADGET_ORDER_CONFIRM'])
        expect((await confirmer({ method: 'POST', url: `${ORDERS}/confirm/${order.id}` })).status).toBe(200)
      })
    })

    describe('access in the engine and row scopes', () => {
      it('checks the caller\'s permission inside the write layer, whatever code calls it, unless it acts as the system', async () => {
        const actor = { id: t.current.adminId, isAdmin: false, permissions: new Set<string>() }
        const registryOf = t.current.app.engine.registry
        await expect(engineCreate({ db: t.current.db, registry: registryOf, entity: memo, actor, access: 'check' }, { name: 'No' })).rejects.toThrow(/GADGET|MEMO_CREATE/)
        const row = await engineCreate({ db: t.current.db, registry: registryOf, entity: memo, actor, access: 'system' }, { name: 'Yes' })
        expect(row.name).toBe('Yes')
      })

      it("lets a caller reach only the rows of their scope: others' are not found", async () => {
        const perms = ['MEMO_LIST', 'MEMO_DETAILS', 'MEMO_CREATE', 'MEMO_UPDATE', 'MEMO_DELETE']
        const ann = await callerWith(t.current, perms)
        const bob = await callerWith(t.current, perms)
        const mine = (await ann({ method: 'POST', url: `${memo.api.base}/create/`, payload: { name: 'Ann memo' } })).body
        const theirs = (await bob({ method: 'POST', url: `${memo.api.base}/create/`, payload: { name: 'Bob memo' } })).body
        const annList = (await ann({ method: 'GET', url: `${memo.api.base}/all/?size=100` })).body
        expect(annList.memos.map((m: { id: number }) => m.id)).toEqual([mine.id])
        expect(annList.total_elements).toBe(1)
        for (const [method, url] of [['GET', `${memo.api.base}/${theirs.id}`], ['PUT', `${memo.api.base}/update/${theirs.id}`], ['DELETE', `${memo.api.base}/delete/${theirs.id}`]] as const) {
          const res = await ann({ method, url, ...(method === 'PUT' ? { payload: { name: 'taken' } } : {}) })
          expect(res.status, `${method} ${url}`).toBe(404)
        }
        expect((await ann({ method: 'DELETE', url: `${memo.api.base}/delete_multiple/`, payload: { ids: [mine.id, theirs.id] } })).status).toBe(404)
        expect((await ann({ method: 'GET', url: `${memo.api.base}/${mine.id}` })).status).toBe(200)
        // An admin's scope is every row.
        const all = (await t.current.call({ method: 'GET', url: `${memo.api.base}/search/?q=memo&size=100` })).body.memos.map((m: { id: number }) => m.id)
        expect(all).toEqual(expect.arrayContaining([mine.id, theirs.id]))
      })

      it('lets only an admin set a field the registry keeps for admins, on create and on update; others may send it as it is', async () => {
        const ann = await callerWith(t.current, ['MEMO_LIST', 'MEMO_DETAILS', 'MEMO_CREATE', 'MEMO_UPDATE'])
        const refused = await ann({ method: 'POST', url: `${memo.api.base}/create/`, payload: { name: 'Pinned by Ann', is_pinned: true }, headers: { 'accept-language': 'en' } })
        expect([refused.status, refused.body]).toEqual([403, { detail: 'Only an admin can set Pinned.' }])
        const mine = await ann({ method: 'POST', url: `${memo.api.base}/create/`, payload: { name: 'Ann note', is_pinned: false } })
        expect(mine.status, mine.raw).toBe(201)
        expect((await ann({ method: 'PUT', url: `${memo.api.base}/update/${mine.body.id}`, payload: { name: 'Ann note 2', is_pinned: false } })).status).toBe(200)
        expect((await ann({ method: 'PUT', url: `${memo.api.base}/update/${mine.body.id}`, payload: { is_pinned: true } })).status).toBe(403)
        const pinned = await t.current.call({ method: 'PUT', url: `${memo.api.base}/update/${mine.body.id}`, payload: { is_pinned: true } })
        expect([pinned.status, pinned.body.is_pinned]).toEqual([200, true])
        // Sent back as it is, by the one who may not change it, it is kept.
        expect((await ann({ method: 'PUT', url: `${memo.api.base}/update/${mine.body.id}`, payload: { name: 'Ann note 3', is_pinned: true } })).status).toBe(200)
      })
    })

    describe('reports', () => {
      it('answers a page of rows, the total count and the totals row over every row, with the parameters validated', async () => {
        const res = await t.current.call({ method: 'GET', url: `${gadgetSales.api.base}/?size=2&page=1` })
        expect(res.status, res.raw).toBe(200)
        expect(Object.keys(res.body).sort()).toEqual(['page', 'rows', 'size', 'total_elements', 'total_pages', 'totals'])
        const every = (await t.current.call({ method: 'GET', url: `${gadgetSales.api.base}/?size=100` })).body
        const sums = await sql<{ orders: number; quantity: number; amount: string }>`
          select count(distinct o.id)::int as orders, sum(l.quantity)::int as quantity, sum(l.total_price)::text as amount
          from gadget_order_line l join gadget_order o on o.id = l.gadget_order`.execute(t.current.db)
        expect(every.rows.length).toBe(every.total_elements)
        expect(res.body.rows).toEqual(every.rows.slice(0, 2))
        // Totals are over all rows, whatever the page; money as exact decimal strings.
        expect(res.body.totals.quantity).toBe(String(sums.rows[0]!.quantity))
        expect(res.body.totals.amount).toBe(sums.rows[0]!.amount)
        const amounts = every.rows.map((r: { amount: string }) => Number(r.amount))
        expect(amounts).toEqual([...amounts].sort((a, b) => b - a))
        const confirmed = (await t.current.call({ method: 'GET', url: `${gadgetSales.api.base}/?status=confirmed&size=100` })).body
        expect(Number(confirmed.totals.orders)).toBeLessThan(Number(every.totals.orders))
        const bad = await t.current.call({ method: 'GET', url: `${gadgetSales.api.base}/?status=lost&date_after=2025-02-30` })
        expect(bad.status).toBe(400)
        expect(bad.body).toEqual({ status: ['Select a valid choice.'], date_after: ['Enter a valid date (YYYY-MM-DD).'] })
        const reversed = await t.current.call({ method: 'GET', url: `${gadgetSales.api.base}/?date_after=2025-02-02&date_before=2025-02-01` })
        expect(Object.keys(reversed.body)).toEqual(['date_before'])
      })

      it('answers at the contract’s route of the report: its rows under its key, paged, with its parameters and permission', async () => {
        const every = (await t.current.call({ method: 'GET', url: `${gadgetSales.api.base}/?size=100` })).body
        const res = await t.current.call({ method: 'GET', url: `${gadgetSales.contract!.path}?page=1&size=2` })
        expect(res.status, res.raw).toBe(200)
        expect(res.body).toEqual({ gadget_sales: every.rows.slice(0, 2), page: 1, size: 2, total_pages: Math.max(1, Math.ceil(every.total_elements / 2)), total_elements: every.total_elements })
        expect((await t.current.call({ method: 'GET', url: `${gadgetSales.contract!.path}?status=lost` })).status).toBe(400)
      })

      it('streams every row as CSV with the column labels in the request\'s language', async () => {
        const every = (await t.current.call({ method: 'GET', url: `${gadgetSales.api.base}/?size=100` })).body
        const res = await t.current.app.inject({ method: 'GET', url: `${gadgetSales.api.base}/csv`, headers: { authorization: `Bearer ${await t.current.token()}`, 'accept-language': 'en' } })
        expect(res.statusCode).toBe(200)
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
        expect(res.headers['content-disposition']).toBe('attachment; filename="gadget_sales.csv"')
        const lines = res.body.replace(/^\ufeff/, '').trimEnd().split('\r\n')
        expect(lines[0]).toBe('"District","Serial Number","Items","Basic Salary"')
        expect(lines.slice(1)).toEqual(every.rows.map((r: Record<string, unknown>) => [`"${String(r.gadget)}"`, r.orders, r.quantity, r.amount].join(',')))
      })

      it('needs its permission', async () => {
        const other = await callerWith(t.current, ['GADGET_ORDER_LIST'])
        expect((await other({ method: 'GET', url: `${gadgetSales.api.base}/` })).status).toBe(403)
        expect((await other({ method: 'GET', url: `${gadgetSales.api.base}/csv` })).status).toBe(403)
        const viewer = await callerWith(t.current, ['GADGET_SALES_VIEW'])
        expect((await viewer({ method: 'GET', url: `${gadgetSales.api.base}/` })).status).toBe(200)
      })
    })

    describe('navigation', () => {
      it('gives the document and the report menu entries in their groups, granted to ADMIN and STAFF', async () => {
        const items = (await t.current.call({ method: 'GET', url: '/menu_item/api/v1/menu_item/all/' })).body.menu_items as Array<{ id: number; menu_id: string; url: string | null; translate: string; parent: number | null }>
        const order = items.find((m) => m.menu_id === 'gadget_order')!
        const report = items.find((m) => m.menu_id === 'report-gadget_sales')!
        expect(order).toMatchObject({ url: gadgetOrder.ui.listPath, translate: 'entity.gadget_order.other' })
        expect(report).toMatchObject({ url: gadgetSales.ui.path, translate: 'report.gadget_sales' })
        expect(items.find((m) => m.id === order.parent)!.menu_id).toBe('settings')
        expect(items.find((m) => m.id === report.parent)!.menu_id).toBe('reports')
        for (const role of ['ADMIN', 'STAFF']) {
          const roleId = (await sql<{ id: number }>`select id from role where name = ${role}`.execute(t.current.db)).rows[0]!.id
          const menu = (await t.current.call({ method: 'GET', url: `/menu_item/api/v1/menu_item/nested_menu_item_by_role_id/${roleId}` })).body.menu_items as Array<{ menu_id: string; children: Array<{ menu_id: string }> }>
          const flat = menu.flatMap((m) => [m.menu_id, ...m.children.map((c) => c.menu_id)])
          expect(flat, role).toEqual(expect.arrayContaining(['gadget_order', 'reports', 'report-gadget_sales', 'memo']))
        }
      })
    })

    it('a line entity has no routes or permissions of its own', async () => {
      expect((await t.current.call({ method: 'GET', url: '/gadget_order_line/api/v1/gadget_order_line/all/' })).status).toBe(404)
      expect((await sql`select 1 from permission where name like 'GADGET_ORDER_LINE_%'`.execute(t.current.db)).rows).toEqual([])
      expect(gadgetOrderLine.nav).toBeNull()
    })
  },
  options,
)

/** The routes derived for the run-time registry — actions and reports included — check access like every other. */
// Who may call what does not depend on the database: one is enough (tests/server/helpers/app.ts describeOnOneDatabase).
describeOnOneDatabase('permission matrix of a registry defined at run time', (t) => permissionMatrix(t, throwawayEntities, throwawayReports), options)
