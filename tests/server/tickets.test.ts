import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { callerWith, describeEachDatabase, type Caller, type Reply } from './helpers/app'
import { multipart } from './helpers/multipart'
import { tinyPng } from './helpers/images'

/**
 * Support tickets (issue 23; api-contract §4.11, §5.4; domain-anchors §4, checklist 53–57):
 * anyone signed in opens a ticket with its first message and follows theirs alone; staff
 * answer their department's; the thread says who wrote each line, records every move and
 * assignment, reopens on a customer's reply; the first response and the due time are kept;
 * the requester is told by mail, the staff and the requester in their Inbox.
 */
describeEachDatabase('tickets', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const tickets = '/ticket/api/v1/ticket'
  const details = '/ticket_detail/api/v1/ticket_detail'
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  let customer: Caller
  let other: Caller
  let staff: Caller
  let salesStaff: Caller
  let ids: { support: number; sales: number; accounts: number; high: number; medium: number; low: number }

  const threadOf = async (id: number, as: Caller | typeof call = call) => ok(await as({ method: 'GET', url: `${details}/get_all_by_ticket_id/${id}` })).ticket_details as Array<Record<string, unknown>>
  const mailsTo = async (to: string) => (await sql<{ subject: string; body_text: string }>`select subject, body_text from outbox_message where recipient = ${to} order by id`.execute(t.current.db)).rows
  const noticesOf = async (user: number) => (await sql<{ kind: string; message: string; record_id: number }>`select kind, message, record_id from notification where "user" = ${user} order by id`.execute(t.current.db)).rows
  const emailOf = async (user: number) => (await sql<{ email: string }>`select email from "user" where id = ${user}`.execute(t.current.db)).rows[0]!.email
  const open = async (as: Caller, body: Record<string, unknown> = {}) =>
    ok(await as({ method: 'POST', url: `${tickets}/create/`, payload: { subject: 'Parcel never came', ticket_department: 'support', ticket_priority: 'high', message: '<p>My parcel has not arrived.</p>', ...body } }), 201)

  beforeAll(async () => {
    customer = await callerWith(t.current, [])
    other = await callerWith(t.current, [])
    const staffPermissions = ['TICKET_LIST', 'TICKET_DETAILS', 'TICKET_UPDATE', 'TICKET_PROCESS', 'TICKET_CLOSE', 'TICKET_REOPEN', 'TICKET_ASSIGN', 'TICKET_DETAIL_LIST', 'TICKET_DETAIL_DETAILS', 'TICKET_DETAIL_CREATE']
    staff = await callerWith(t.current, staffPermissions)
    salesStaff = await callerWith(t.current, staffPermissions)
    const lookup = async (table: string) => Object.fromEntries((await sql<{ id: number; name: string }>`select id, name from ${sql.id(table)}`.execute(t.current.db)).rows.map((r) => [r.name, Number(r.id)]))
    const departments = await lookup('ticket_department')
    const priorities = await lookup('ticket_priority')
    ids = { support: departments.support!, sales: departments.sales!, accounts: departments.accounts!, high: priorities.high!, medium: priorities.medium!, low: priorities.low! }
    // Employees who answer one department's tickets.
    const branch = ok(await call({ method: 'POST', url: '/branch/api/v1/branch/create/', payload: { name: `Help desk ${Math.random()}` } }), 201).id
    await sql`insert into employee (id, branch, ticket_department) values (${salesStaff.id}, ${branch}, ${ids.sales})`.execute(t.current.db)
  })

  describe('lookups', () => {
    it('seeds departments, priorities (with the hours each is due within) and statuses under the contract’s keys; the built-in ones stay', async () => {
      expect(ok(await call({ method: 'GET', url: '/ticket_department/api/v1/ticket_department/all/' })).ticket_departments.map((d: { name: string }) => d.name)).toEqual(['support', 'sales', 'accounts'])
      expect(ok(await call({ method: 'GET', url: '/ticket_priority/api/v1/ticket_priority/all/' })).ticket_priorities.map((p: { name: string; response_hours: number }) => [p.name, p.response_hours])).toEqual([
        ['high', 4],
        ['medium', 24],
        ['low', 72],
      ])
      const statuses = ok(await call({ method: 'GET', url: '/ticket_status/api/v1/ticket_status/all/' })).ticket_statuses
      expect(statuses.map((s: { name: string }) => s.name)).toEqual(['open', 'processing', 'closed'])
      expect((await call({ method: 'PUT', url: `/ticket_status/api/v1/ticket_status/update/${statuses[0].id}`, payload: { name: 'new' } })).status).toBe(400)
      expect((await call({ method: 'DELETE', url: `/ticket_department/api/v1/ticket_department/delete/${ids.support}` })).status).toBe(400)
      // Editable: another department, named as the contract stores them.
      expect(ok(await call({ method: 'POST', url: '/ticket_department/api/v1/ticket_department/create/', payload: { name: 'Returns Desk' } }), 201).name).toBe('returns_desk')
    })
  })

  describe('a customer opens a ticket', () => {
    it('opens it as theirs, open, due by its priority, with the first message as the thread’s first line, and acknowledges it by mail', async () => {
      const before = Date.now()
      const made = await open(customer, { user: other.id, ticket_type: 'delivery' })
      expect(made).toMatchObject({ user: customer.id, status: 'open', ticket_department: ids.support, ticket_priority: ids.high, ticket_type: 'delivery', reopened_count: 0, is_overdue: false })
      expect(made.ticket_no).toMatch(/^TK\d{4}00\d+$/)
      expect(made).not.toHaveProperty('message')
      const due = Date.parse(made.due_at)
      expect(due - before).toBeGreaterThanOrEqual(4 * 3_600_000 - 60_000)
      expect(due - before).toBeLessThanOrEqual(4 * 3_600_000 + 60_000)
      const read = ok(await customer({ method: 'GET', url: `${tickets}/${made.id}` }))
      expect(read.ticket_status).toBe(Number((await sql<{ id: number }>`select id from ticket_status where name = 'open'`.execute(t.current.db)).rows[0]!.id))
      const listed = ok(await customer({ method: 'GET', url: `${tickets}/all/` })).tickets
      expect(listed.map((x: { id: number }) => x.id)).toEqual([made.id])
      expect(listed[0].ticket_status).toMatchObject({ name: 'open' })
      expect(listed[0].ticket_department).toMatchObject({ name: 'support' })
      const thread = await threadOf(made.id, customer)
      expect(thread).toHaveLength(1)
      expect(thread[0]).toMatchObject({ kind: 'customer', customer: expect.objectContaining({ id: customer.id }), admin: null, message: '<p>My parcel has not arrived.</p>', is_internal: false, admin_image: null, customer_image: null })
      const mails = await mailsTo(await emailOf(customer.id))
      expect(mails.at(-1)!.subject).toBe(`We have received your ticket ${made.ticket_no}: Parcel never came`)
      expect(mails.at(-1)!.body_text).toContain('My parcel has not arrived.')
      // The staff who answer support are told; a sales-only employee is not.
      expect((await noticesOf(staff.id)).some((n) => n.kind === 'ticket_opened' && n.record_id === made.id)).toBe(true)
      expect((await noticesOf(salesStaff.id)).some((n) => n.record_id === made.id)).toBe(false)
    })

    it('takes a picture with it (multipart), kept on the first line', async () => {
      const body = multipart({ subject: 'Broken cup', ticket_department: String(ids.support), message: 'It came broken, see the picture.' }, [{ name: 'file', filename: 'cup.png', type: 'image/png', data: tinyPng() }])
      const made = ok(await customer({ method: 'POST', url: `${tickets}/create/`, payload: body.payload, headers: body.headers }), 201)
      expect(made.ticket_priority).toBe(ids.medium)
      const [first] = await threadOf(made.id, customer)
      expect(String(first!.file)).toMatch(/^\/media\/ticket\/.+\.png$/)
      const served = await call({ method: 'GET', url: String(first!.file) })
      expect(served.status).toBe(200)
    })

    it('refuses an unknown department or priority naming it, a ticket without a message, and a subject past 500 characters', async () => {
      expect(await customer({ method: 'POST', url: `${tickets}/create/`, payload: { subject: 'x', ticket_department: 'billing', message: 'hi' } })).toMatchObject({ status: 400, body: { detail: "There is no Ticket Department named 'billing'." } })
      // A name as an admin typed it is found as the lookup stores it.
      expect(ok(await call({ method: 'POST', url: `${tickets}/create/`, payload: { user: customer.id, subject: 'Named', ticket_department: 'Returns Desk', ticket_priority: 'LOW', message: 'hi' } }), 201).ticket_priority).toBe(ids.low)
      expect(await customer({ method: 'POST', url: `${tickets}/create/`, payload: { subject: 'x', ticket_department: 'sales', ticket_priority: 'urgent', message: 'hi' } })).toMatchObject({ status: 400, body: { detail: "There is no Ticket Priority named 'urgent'." } })
      expect(await customer({ method: 'POST', url: `${tickets}/create/`, headers: { 'accept-language': 'tr' }, payload: { subject: 'x', ticket_department: 'billing', message: 'hi' } })).toMatchObject({ status: 400, body: { detail: "'billing' adında bir Talep Birimi yok." } })
      expect(await customer({ method: 'POST', url: `${tickets}/create/`, payload: { subject: 'x', ticket_department: 'sales', message: '<p> </p>' } })).toMatchObject({ status: 400, body: { message: ['Write a message.'] } })
      expect((await customer({ method: 'POST', url: `${tickets}/create/`, payload: { subject: 'x'.repeat(501), ticket_department: 'sales', message: 'hi' } })).status).toBe(400)
      expect(Number((await sql<{ n: number }>`select count(*)::int as n from ticket where subject = 'x'`.execute(t.current.db)).rows[0]!.n)).toBe(0)
    })
  })

  describe('who sees what', () => {
    let mine: { id: number }
    let theirs: { id: number }
    beforeAll(async () => {
      mine = await open(customer, { subject: 'Mine' })
      theirs = await open(other, { subject: 'Theirs' })
    })

    it('a user never reaches another user’s ticket or its thread, by any route', async () => {
      expect((await customer({ method: 'GET', url: `${tickets}/${theirs.id}` })).status).toBe(404)
      expect(ok(await customer({ method: 'GET', url: `${tickets}/all/` })).tickets.map((x: { id: number }) => x.id)).not.toContain(theirs.id)
      expect(ok(await customer({ method: 'GET', url: `${tickets}/without_pagination/all/` })).tickets.map((x: { id: number }) => x.id)).not.toContain(theirs.id)
      expect(ok(await customer({ method: 'GET', url: `${tickets}/search/?subject=Theirs` })).tickets ?? []).toEqual([])
      expect(ok(await customer({ method: 'GET', url: `${tickets}/get_all_by_user_id/${other.id}` })).tickets).toEqual([])
      expect(ok(await customer({ method: 'GET', url: `${details}/get_all_by_ticket_id/${theirs.id}` })).ticket_details).toEqual([])
      expect(ok(await customer({ method: 'GET', url: `${details}/all/` })).ticket_details.every((d: { ticket: { id: number } }) => d.ticket.id !== theirs.id)).toBe(true)
      const firstOfTheirs = (await sql<{ id: number }>`select id from ticket_detail where ticket = ${theirs.id} order by id limit 1`.execute(t.current.db)).rows[0]!.id
      expect((await customer({ method: 'GET', url: `${details}/${firstOfTheirs}` })).status).toBe(404)
      const reply = await customer({ method: 'POST', url: `${details}/create/`, payload: { ticket: theirs.id, message: 'let me in' } })
      expect(reply.status).toBe(400)
      expect(Object.keys(reply.body)).toEqual(['ticket'])
      expect((await customer({ method: 'GET', url: `/ticket/api/v1/ticket/history/${theirs.id}` })).status).toBe(403)
    })

    it('a user has none of the staff’s routes — changes, moves, deletes — and a department’s list shows them their own alone', async () => {
      expect(ok(await customer({ method: 'GET', url: `${tickets}/ticket_of_support_department/?size=100` })).tickets.every((x: { user: { id: number } }) => x.user.id === customer.id)).toBe(true)
      expect((await customer({ method: 'POST', url: `${details}/create/`, payload: { ticket: mine.id, message: '<p></p>' } })).body).toEqual({ message: ['Write a message.'] })
      expect((await customer({ method: 'PUT', url: `${tickets}/update/${mine.id}`, payload: { subject: 'Changed' } })).status).toBe(403)
      expect((await customer({ method: 'DELETE', url: `${tickets}/delete/${mine.id}` })).status).toBe(403)
      expect((await customer({ method: 'POST', url: `${tickets}/close/${mine.id}` })).status).toBe(403)
      expect((await customer({ method: 'POST', url: `${tickets}/assign/${mine.id}`, payload: { assignee: customer.id } })).status).toBe(403)
      expect((await call({ method: 'GET', url: `${tickets}/all/`, asAnonymous: true })).status).toBe(401)
    })

    it('staff who answer one department see its tickets alone; the contract’s department lists filter by name', async () => {
      const sold = await open(customer, { subject: 'Invoice copy', ticket_department: 'sales' })
      expect(ok(await salesStaff({ method: 'GET', url: `${tickets}/all/?size=100` })).tickets.map((x: { id: number }) => x.id)).toEqual([sold.id])
      expect((await salesStaff({ method: 'GET', url: `${tickets}/${mine.id}` })).status).toBe(404)
      const support = ok(await staff({ method: 'GET', url: `${tickets}/ticket_of_support_department/?size=100` }))
      expect(support).toMatchObject({ page: 1, size: 100 })
      expect(support.tickets.every((x: { ticket_department: { name: string } }) => x.ticket_department.name === 'support')).toBe(true)
      expect(support.tickets.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]))
      expect(ok(await staff({ method: 'GET', url: `${tickets}/ticket_of_sales_department/` })).tickets.map((x: { id: number }) => x.id)).toEqual([sold.id])
      expect(ok(await staff({ method: 'GET', url: `${tickets}/ticket_of_account_department/` })).tickets).toEqual([])
      expect(ok(await staff({ method: 'GET', url: `${tickets}/all/?view=sales` })).tickets.map((x: { id: number }) => x.id)).toEqual([sold.id])
      expect(ok(await staff({ method: 'GET', url: `${tickets}/get_all_by_user_id/${other.id}` })).tickets.map((x: { id: number }) => x.id)).toEqual([theirs.id])
    })
  })

  describe('the thread', () => {
    let ticket: { id: number; ticket_no: string }
    beforeAll(async () => {
      ticket = await open(customer, { subject: 'Wrong size' })
    })

    it('stamps a staff reply with its author, keeps the first response, moves it to processing, mails the customer and tells them in their Inbox', async () => {
      const reply = ok(await staff({ method: 'POST', url: `${details}/create/`, payload: { ticket: ticket.id, message: '<p>We will send the right size.</p>', kind: 'customer', customer: customer.id } }), 201)
      expect(reply).toMatchObject({ kind: 'staff', admin: staff.id, customer: null, is_internal: false })
      const after = ok(await call({ method: 'GET', url: `${tickets}/${ticket.id}` }))
      expect(after.status).toBe('processing')
      expect(after.first_response_at).not.toBeNull()
      const firstResponse = after.first_response_at
      ok(await staff({ method: 'POST', url: `${details}/create/`, payload: { ticket: ticket.id, message: 'And a voucher.' } }), 201)
      expect(ok(await call({ method: 'GET', url: `${tickets}/${ticket.id}` })).first_response_at).toBe(firstResponse)
      const thread = await threadOf(ticket.id)
      expect(thread.map((d) => d.kind)).toEqual(['customer', 'staff', 'system', 'staff'])
      expect(thread[2]).toMatchObject({ status_before: 'open', status_after: 'processing', admin: expect.objectContaining({ id: staff.id }) })
      const mails = await mailsTo(await emailOf(customer.id))
      expect(mails.at(-2)!.subject).toBe(`Re: ${ticket.ticket_no} Wrong size`)
      expect(mails.at(-2)!.body_text).toContain('We will send the right size.')
      expect((await noticesOf(customer.id)).filter((n) => n.record_id === ticket.id).map((n) => n.kind)).toEqual(['ticket_answered', 'ticket_answered'])
    })

    it('keeps internal notes from the customer', async () => {
      ok(await staff({ method: 'POST', url: `${details}/create/`, payload: { ticket: ticket.id, message: 'Customer is a regular.', is_internal: true } }), 201)
      expect((await threadOf(ticket.id)).some((d) => d.is_internal === true)).toBe(true)
      expect((await threadOf(ticket.id, customer)).some((d) => d.is_internal === true)).toBe(false)
      // A customer's own line is never internal.
      const mine = ok(await customer({ method: 'POST', url: `${details}/create/`, payload: { ticket: ticket.id, message: 'Thanks!', is_internal: true } }), 201)
      expect(mine).toMatchObject({ kind: 'customer', customer: customer.id, admin: null, is_internal: false })
    })

    it('is append-only: no route changes or deletes a line', async () => {
      const [first] = await threadOf(ticket.id)
      expect((await call({ method: 'PUT', url: `${details}/update/${first!.id}`, payload: { message: 'rewritten' } })).status).toBe(404)
      expect((await call({ method: 'DELETE', url: `${details}/delete/${first!.id}` })).status).toBe(404)
    })

    it('assigns through the workflow’s action, with a line of before and after; the assignee is told; someone who is not staff cannot be assigned', async () => {
      const assigned = ok(await staff({ method: 'POST', url: `${tickets}/assign/${ticket.id}`, payload: { assignee: salesStaff.id } }))
      expect(assigned.assignee).toBe(salesStaff.id)
      expect((await threadOf(ticket.id)).at(-1)).toMatchObject({ kind: 'system', assignee_before: null, assignee_after: expect.objectContaining({ id: salesStaff.id }) })
      expect((await noticesOf(salesStaff.id)).some((n) => n.kind === 'ticket_assigned' && n.record_id === ticket.id)).toBe(true)
      const refused = await staff({ method: 'POST', url: `${tickets}/assign/${ticket.id}`, payload: { assignee: customer.id } })
      expect(refused).toMatchObject({ status: 400, body: { assignee: ['Choose a member of staff who answers tickets.'] } })
      // Assignment is not a plain field: an update cannot set it.
      ok(await staff({ method: 'PUT', url: `${tickets}/update/${ticket.id}`, payload: { assignee: staff.id, subject: 'Wrong size (M)' } }))
      expect(ok(await call({ method: 'GET', url: `${tickets}/${ticket.id}` })).assignee).toBe(salesStaff.id)
    })

    it('closes, refuses moves its status does not allow (409), and reopens on the customer’s reply, counting it; the assignee is told', async () => {
      const closed = ok(await staff({ method: 'POST', url: `${tickets}/close/${ticket.id}` }))
      expect(closed).toMatchObject({ status: 'closed', is_overdue: false })
      expect(closed.closed_at).not.toBeNull()
      expect((await staff({ method: 'POST', url: `${tickets}/process/${ticket.id}` })).status).toBe(409)
      expect((await staff({ method: 'PUT', url: `${tickets}/update/${ticket.id}`, payload: { subject: 'late' } })).status).toBe(409)
      ok(await customer({ method: 'POST', url: `${details}/create/`, payload: { ticket: ticket.id, message: 'It happened again.' } }), 201)
      const reopened = ok(await call({ method: 'GET', url: `${tickets}/${ticket.id}` }))
      expect(reopened).toMatchObject({ status: 'open', reopened_count: 1, closed_at: null })
      const lines = (await threadOf(ticket.id)).filter((d) => d.kind === 'system' && d.status_after !== null)
      expect(lines.slice(-2).map((d) => [d.status_before, d.status_after])).toEqual([
        ['processing', 'closed'],
        ['closed', 'open'],
      ])
      expect((await noticesOf(salesStaff.id)).some((n) => n.kind === 'ticket_answered' && n.message === 'notification.ticket_customer_replied' && n.record_id === ticket.id)).toBe(true)
      // Staff may reopen too.
      ok(await staff({ method: 'POST', url: `${tickets}/close/${ticket.id}` }))
      expect(ok(await staff({ method: 'POST', url: `${tickets}/reopen/${ticket.id}` })).reopened_count).toBe(2)
    })

    it('flags a ticket past its due time and not closed as overdue', async () => {
      await sql`update ticket set due_at = now() - interval '1 hour' where id = ${ticket.id}`.execute(t.current.db)
      expect(ok(await call({ method: 'GET', url: `${tickets}/${ticket.id}` })).is_overdue).toBe(true)
      const listed = ok(await call({ method: 'GET', url: `${tickets}/all/?size=100` })).tickets.find((x: { id: number }) => x.id === ticket.id)
      expect(listed.is_overdue).toBe(true)
      // Lists filter by it, against the clock: the same ask answers otherwise once it is closed, with no other change.
      const overdue = async () => ok(await call({ method: 'GET', url: `${tickets}/all/?size=100&is_overdue=true` }))
      expect((await overdue()).tickets.map((x: { id: number }) => x.id)).toEqual([ticket.id])
      expect(ok(await call({ method: 'GET', url: `${tickets}/all/?size=100&is_overdue=false` })).tickets.map((x: { id: number }) => x.id)).not.toContain(ticket.id)
      await sql`update ticket set due_at = now() + interval '1 hour' where id = ${ticket.id}`.execute(t.current.db)
      await sql`update ticket set due_at = now() - interval '1 hour' where id = ${ticket.id}`.execute(t.current.db)
      expect((await overdue()).total_elements).toBe(1)
      expect(await call({ method: 'GET', url: `${tickets}/search/?is_overdue=maybe` })).toMatchObject({ status: 400, body: { is_overdue: ['Must be true or false.'] } })
      ok(await staff({ method: 'POST', url: `${tickets}/close/${ticket.id}` }))
      expect((await overdue()).total_elements).toBe(0)
    })

    it('surfaces open and overdue tickets on the dashboard, each in the caller’s scope, opening the views that list them', async () => {
      const widgets = async (as: Caller | typeof call) => ok(await as({ method: 'GET', url: '/dashboard/api/v1/widgets/?dashboard=project' })).widgets
      const overdueNow = Number((await sql<{ n: number }>`select count(*)::int as n from ticket where due_at < now() and status <> 'closed'`.execute(t.current.db)).rows[0]!.n)
      const openNow = Number((await sql<{ n: number }>`select count(*)::int as n from ticket where status in ('open', 'processing')`.execute(t.current.db)).rows[0]!.n)
      const all = await widgets(call)
      expect(all.open_tickets).toEqual({ count: openNow, amount: null })
      expect(all.overdue_tickets).toEqual({ count: overdueNow, amount: null })
      expect(all.overdue_ticket_list.rows.length).toBe(Math.min(overdueNow, 10))
      expect(ok(await call({ method: 'GET', url: `${tickets}/all/?view=overdue&size=100` })).total_elements).toBe(overdueNow)
      expect(ok(await call({ method: 'GET', url: `${tickets}/all/?view=open&size=100` })).total_elements).toBe(openNow)
      // A department's staff count their department's alone; a customer has no desk figures.
      const sales = Number((await sql<{ n: number }>`select count(*)::int as n from ticket t join ticket_department d on d.id = t.ticket_department where d.name = 'sales' and t.status in ('open', 'processing')`.execute(t.current.db)).rows[0]!.n)
      expect((await widgets(salesStaff)).open_tickets).toEqual({ count: sales, amount: null })
      expect(Object.keys(await widgets(customer))).not.toContain('open_tickets')
    })

    it('a ticket’s delete takes its thread', async () => {
      const gone = await open(customer, { subject: 'Duplicate' })
      ok(await call({ method: 'DELETE', url: `${tickets}/delete/${gone.id}` }))
      expect(Number((await sql<{ n: number }>`select count(*)::int as n from ticket_detail where ticket = ${gone.id}`.execute(t.current.db)).rows[0]!.n)).toBe(0)
    })
  })
})
