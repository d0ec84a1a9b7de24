import type { Editor } from '@tiptap/core'
import { act, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { i18n } from '../../src/i18n'
import { accessTokenAnswers, adminUser, api, envelope, menuNode, storeSessionOf, userMenuAnswers, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The support tickets' screens (issue 23): a ticket's thread — the customer's messages, the
 * staff's replies, what happened between them, internal notes — its reply box, its moves and
 * assignee for staff; a customer (USER, no permission) reaching their own through `own`; a
 * department's list opening its tickets at its own thread address (a view's `route.form`).
 */
const ticket = registry.ticket
const base = ticket.api.base
const threadBase = registry.ticket_detail.api.base

/** A registered customer: the USER role and no permission at all. */
const customer: ServerUser = { id: 42, email: 'rahim@example.com', username: 'rahim', first_name: 'Rahim', last_name: 'Uddin', role: 'USER', is_admin: false, permissions: [], image: null, settings: null }

const stamp = { created_at: '2026-05-04T09:00:00.000Z', updated_at: '2026-05-04T09:00:00.000Z', created_by: 42, updated_by: 42 }

function storedTicket(over: Record<string, unknown> = {}) {
  return {
    id: 5,
    ticket_no: 'TK2026000005',
    subject: 'My card is refused at checkout',
    user: 42,
    ticket_department: 1,
    ticket_priority: 1,
    status: 'processing',
    ticket_status: 2,
    ticket_type: null,
    assignee: 9,
    due_at: '2026-05-04T13:00:00.000Z',
    is_overdue: true,
    first_response_at: '2026-05-04T10:00:00.000Z',
    last_reply_at: '2026-05-04T10:00:00.000Z',
    closed_at: null,
    reopened_count: 0,
    ...stamp,
    _labels: { user: 'Rahim Uddin', ticket_department: 'support', ticket_priority: 'high', ticket_status: 'processing', assignee: 'Sam Staff' },
    ...over,
  }
}

const line = (id: number, fields: Record<string, unknown>) => ({
  id,
  ticket: 5,
  kind: 'customer',
  admin: null,
  customer: null,
  message: '',
  file: null,
  is_internal: false,
  status_before: null,
  status_after: null,
  assignee_before: null,
  assignee_after: null,
  ...stamp,
  created_at: `2026-05-04T09:0${id}:00.000Z`,
  ...fields,
})

/** The thread as the server answers it, oldest first: each kind of line, an attachment, an internal note. */
function storedThread() {
  return [
    line(1, { kind: 'customer', customer: 42, message: '<p>My card is <strong>refused</strong>.</p>', file: '/media/ticket_detail/receipt.png', _labels: { customer: 'Rahim Uddin' } }),
    line(2, { kind: 'system', admin: 1, status_before: 'open', status_after: 'processing', _labels: { admin: 'Ada Admin' } }),
    line(3, { kind: 'system', admin: 1, assignee_before: null, assignee_after: 9, _labels: { admin: 'Ada Admin', assignee_after: 'Sam Staff' } }),
    line(4, { kind: 'staff', admin: 1, message: '<p>We are looking into it.</p>', _labels: { admin: 'Ada Admin' } }),
    line(6, { kind: 'staff', admin: 1, is_internal: true, message: '<p>The gateway timed out.</p>', file: '/media/ticket_detail/gateway.log', _labels: { admin: 'Ada Admin' } }),
  ]
}

/** The ticket and its thread served from memory; replies are added to it, as the server would. */
function serveTicket({ ticketRow = storedTicket(), thread = storedThread() }: { ticketRow?: Record<string, unknown>; thread?: Record<string, unknown>[] } = {}) {
  const state = { ticket: ticketRow, thread: [...thread], sent: [] as Record<string, unknown>[], actions: [] as { action: string; body: unknown }[] }
  server.use(
    http.get(api(`${base}/5`), () => HttpResponse.json(state.ticket)),
    http.get(api(`${threadBase}/get_all_by_ticket_id/5`), () => HttpResponse.json({ ticket_details: state.thread })),
    http.post(api(`${threadBase}/create/`), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      state.sent.push(body)
      const saved = line(7, { kind: 'staff', admin: 1, message: body.message, is_internal: body.is_internal === true, created_at: '2026-05-04T11:00:00.000Z', _labels: { admin: 'Ada Admin' } })
      state.thread.push(saved)
      return HttpResponse.json(saved, { status: 201 })
    }),
    http.post(api(`${base}/:action/5`), async ({ params, request }) => {
      state.actions.push({ action: String(params.action), body: await request.json() })
      return HttpResponse.json(state.ticket)
    }),
    // The assignee's picker asks for its first page of users.
    http.get(api(`${registry.employee.api.base}/all/`), () => HttpResponse.json(envelope('employees', [{ id: 9, username: 'sam', email: 'sam@example.com', first_name: 'Sam', last_name: 'Staff' }]))),
  )
  return state
}

// ProseMirror measures the selection to keep it in view; jsdom lays nothing out.
beforeAll(() => {
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) }
  Range.prototype.getBoundingClientRect = () => rect as DOMRect
  Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList
  document.elementFromPoint ??= () => null
})

/** The editor behind its content element (TipTap keeps it there): to type where jsdom's contenteditable cannot. */
const editorOf = (element: HTMLElement) => (element as HTMLElement & { editor: Editor }).editor

const thread = () => screen.findByRole('list', { name: 'Messages' })

describe('a ticket’s thread', () => {
  beforeEach(() => storeSessionOf(adminUser))

  it('shows the customer’s messages, the staff’s replies and the system’s lines oldest first, internal notes marked, beside the ticket’s facts', async () => {
    serveTicket()
    await renderApp('/apps/ticket-management/ticket-details/5')
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket TK2026000005' })).toBeInTheDocument()
    const items = within(await thread()).getAllByRole('listitem')
    expect(items.map((item) => item.dataset.kind)).toEqual(['customer', 'system', 'system', 'staff', 'staff'])

    // The customer at the start side, the staff at the end side.
    const fromCustomer = within(items[0]!).getByRole('article', { name: 'Message from Rahim Uddin' })
    expect(fromCustomer).toHaveClass('justify-start')
    expect(fromCustomer).toHaveTextContent('My card is refused.')
    expect(within(fromCustomer).getByText('refused').tagName).toBe('STRONG')
    // A picture by its thumbnail, linked to the original.
    const picture = within(fromCustomer).getByRole('link', { name: 'Attachment: receipt.png' })
    expect(picture).toHaveAttribute('href', '/media/ticket_detail/receipt.png')
    expect(picture.querySelector('img')).toHaveAttribute('src', '/media/ticket_detail/receipt.thumb.webp')
    expect(within(items[3]!).getByRole('article', { name: 'Message from Ada Admin' })).toHaveClass('justify-end')

    // What happened, in small lines between them.
    expect(items[1]).toHaveTextContent('Status changed from Open to Processing by Ada Admin')
    expect(items[2]).toHaveTextContent('Assigned to Sam Staff by Ada Admin')
    expect(items[1]!.querySelector('time')).toHaveAttribute('dateTime', '2026-05-04T09:02:00.000Z')

    // The internal note says so; its file is a link by its name.
    expect(items[4]).toHaveAttribute('data-internal', 'true')
    const note = within(items[4]!).getByRole('article', { name: 'Internal note by Ada Admin' })
    expect(within(note).getByText('Internal note')).toBeInTheDocument()
    expect(within(note).getByRole('link', { name: 'Attachment: gateway.log' })).toHaveTextContent('gateway.log')
    expect(items[0]).not.toHaveAttribute('data-internal')

    // The facts: requester, department and priority by name, status, due and flagged overdue, first response.
    const facts = screen.getByRole('complementary', { name: 'Details' })
    expect(within(facts).getByText('Requester').nextElementSibling).toHaveTextContent('Rahim Uddin')
    expect(within(facts).getByText('Department').nextElementSibling).toHaveTextContent('Support')
    expect(within(facts).getByText('Priority').nextElementSibling).toHaveTextContent('High')
    expect(within(facts).getByText('Due').nextElementSibling).toHaveTextContent('Overdue')
    expect(within(facts).getByText('First Response').nextElementSibling!.querySelector('time')).toHaveAttribute('dateTime', '2026-05-04T10:00:00.000Z')
    expect(within(facts).getByRole('combobox', { name: 'Assignee' })).toHaveValue('Sam Staff')

    // Staff move it by its workflow (the assignee is chosen beside the thread, not by a button).
    const moves = screen.getByRole('group', { name: 'Actions on this record' })
    expect(within(moves).getByRole('button', { name: 'Close' })).toBeInTheDocument()
    expect(within(moves).queryByRole('button', { name: 'Assign' })).toBeNull()
    expect(within(moves).queryByRole('button', { name: 'Reopen' })).toBeNull()
  })

  it('sends a reply, which appears at the end of the thread; staff may make it an internal note', async () => {
    const state = serveTicket()
    const { user } = await renderApp('/apps/ticket-management/ticket-details/5')
    await thread()
    const reply = await screen.findByRole('form', { name: 'Reply' })
    await waitFor(() => expect(within(reply).getByRole('textbox', { name: 'Your reply' })).toHaveAttribute('contenteditable', 'true'))

    // Nothing written, nothing sent.
    await user.click(within(reply).getByRole('button', { name: 'Send reply' }))
    expect(await within(reply).findByText('Write a message.')).toBeInTheDocument()
    expect(state.sent).toEqual([])

    act(() => void editorOf(within(reply).getByRole('textbox', { name: 'Your reply' })).commands.insertContent('Please try again now.'))
    await waitFor(() => expect(within(reply).queryByText('Write a message.')).toBeNull())
    await user.click(within(reply).getByRole('button', { name: 'Send reply' }))
    await waitFor(() => expect(state.sent).toEqual([{ ticket: 5, message: '<p dir="auto">Please try again now.</p>', is_internal: false }]))
    const items = within(await thread()).getAllByRole('listitem')
    await waitFor(() => expect(within(items.at(-1)!).getByRole('article', { name: 'Message from Ada Admin' })).toHaveTextContent('Please try again now.'))
    // The box is empty again.
    await waitFor(() => expect(within(reply).getByRole('textbox', { name: 'Your reply' })).toHaveTextContent(''))

    await user.click(within(reply).getByRole('checkbox', { name: 'Internal note' }))
    expect(within(reply).getByRole('button', { name: 'Add note' })).toBeInTheDocument()
    act(() => void editorOf(within(reply).getByRole('textbox', { name: 'Internal note (staff only)' })).commands.insertContent('Refund if it fails again.'))
    await user.click(within(reply).getByRole('button', { name: 'Add note' }))
    await waitFor(() => expect(state.sent.at(-1)).toMatchObject({ is_internal: true }))
  })

  it('gives the ticket to someone with the assignee’s picker', async () => {
    const state = serveTicket({ ticketRow: storedTicket({ assignee: null, _labels: { user: 'Rahim Uddin', ticket_department: 'support', ticket_priority: 'high' } }) })
    const { user } = await renderApp('/apps/ticket-management/ticket-details/5')
    const facts = await screen.findByRole('complementary', { name: 'Details' })
    const picker = within(facts).getByRole('combobox', { name: 'Assignee' })
    await user.click(picker)
    await user.click(await screen.findByRole('option', { name: /sam/i }))
    await waitFor(() => expect(state.actions).toEqual([{ action: 'assign', body: { assignee: 9 } }]))
  })
})

describe('a customer’s own tickets (own)', () => {
  beforeEach(() => {
    storeSessionOf(customer)
    server.use(accessTokenAnswers(customer))
  })

  it('reads and answers their ticket, with no assignee, move or internal note to offer', async () => {
    const state = serveTicket({ thread: storedThread().filter((l) => !l.is_internal) })
    const { user } = await renderApp('/apps/ticket-management/ticket-details/5')
    const items = within(await thread()).getAllByRole('listitem')
    expect(items).toHaveLength(4)
    expect(screen.queryByRole('group', { name: 'Actions on this record' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Assign' })).toBeNull()
    const facts = screen.getByRole('complementary', { name: 'Details' })
    expect(within(facts).queryByRole('combobox')).toBeNull()
    expect(within(facts).getByText('Assignee').nextElementSibling).toHaveTextContent('Sam Staff')
    const reply = screen.getByRole('form', { name: 'Reply' })
    expect(within(reply).queryByRole('checkbox', { name: 'Internal note' })).toBeNull()
    await waitFor(() => expect(within(reply).getByRole('textbox', { name: 'Your reply' })).toHaveAttribute('contenteditable', 'true'))
    act(() => void editorOf(within(reply).getByRole('textbox', { name: 'Your reply' })).commands.insertContent('Still refused.'))
    await user.click(within(reply).getByRole('button', { name: 'Send reply' }))
    // A customer's message says nothing of notes.
    await waitFor(() => expect(state.sent).toEqual([{ ticket: 5, message: '<p dir="auto">Still refused.</p>' }]))
  })

  it('opens their list and a new ticket without a permission, and has no delete or actions there', async () => {
    server.use(
      userMenuAnswers([menuNode(1, { translate: 'entity.ticket.other', url: ticket.ui.listPath })]),
      http.get(api(`${base}/all/`), () =>
        HttpResponse.json(
          envelope('tickets', [
            { ...storedTicket(), user: { id: 42, name: 'rahim' }, ticket_department: { id: 1, name: 'support' }, ticket_priority: { id: 1, name: 'high' }, assignee: { id: 9, name: 'sam' } },
          ]),
        ),
      ),
    )
    const { router } = await renderApp(ticket.ui.listPath)
    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(ticket.ui.listPath)
    // The sidebar keeps the list their role's menu gives them.
    expect(await within(screen.getByRole('navigation', { name: 'Main navigation' })).findByRole('link', { name: 'Tickets' })).toBeInTheDocument()
    const row = screen.getByRole('link', { name: 'TK2026000005' }).closest('tr')!
    expect(within(row).queryByRole('button')).toBeNull()
    expect(screen.queryByRole('checkbox')).toBeNull()

    await router.navigate({ to: `${ticket.ui.formPath}/new` })
    expect(await screen.findByRole('heading', { level: 1, name: 'New Ticket' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled()
    // They open it for themselves: no requester, no guest's name or address to give.
    expect(screen.queryByRole('combobox', { name: /Requester/ })).toBeNull()
    expect(screen.queryByRole('textbox', { name: /^Email/ })).toBeNull()
    expect(screen.getByRole('textbox', { name: /^Subject/ })).toBeInTheDocument()
  })
})

describe('a department’s list (a view with its own form address)', () => {
  beforeEach(() => storeSessionOf(adminUser))

  it('opens a ticket of the support list at the support thread address, which returns to the list', async () => {
    const asked: URLSearchParams[] = []
    serveTicket()
    server.use(
      http.get(api(`${base}/all/`), ({ request }) => {
        asked.push(new URL(request.url).searchParams)
        return HttpResponse.json(envelope('tickets', [{ ...storedTicket(), user: { id: 42, name: 'rahim' }, ticket_department: { id: 1, name: 'support' }, ticket_priority: { id: 1, name: 'high' }, assignee: { id: 9, name: 'sam' } }]))
      }),
    )
    const { user, router } = await renderApp('/apps/support-management/supports')
    expect(await screen.findByRole('heading', { level: 1, name: 'Supports' })).toBeInTheDocument()
    await waitFor(() => expect(asked.at(-1)?.get('view')).toBe('support'))
    // The overdue flag is a column of the list, said in red when it holds.
    const row = screen.getByRole('link', { name: 'TK2026000005' }).closest('tr')!
    expect(within(row).getByText('Overdue').className).toMatch(/text-red-/)

    const link = screen.getByRole('link', { name: 'TK2026000005' })
    expect(link.getAttribute('href')).toMatch(/^\/apps\/support-managements\/ticket-details\/5\//)
    await user.click(link)
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket TK2026000005' })).toBeInTheDocument()
    // Shown there, not sent on elsewhere.
    expect(router.state.location.pathname.startsWith('/apps/support-managements/ticket-details/5')).toBe(true)
    const back = screen.getByRole('link', { name: /^Back to/ })
    expect(back).toHaveTextContent('Back to Supports')
    expect(back.getAttribute('href')).toBe('/apps/support-management/supports')
  })
})

/** A throwaway entity with a list view that names its own form address: the generic form is there. */
const parcel = defineEntity({
  name: 'parcel',
  module: 'test',
  listKey: 'parcels',
  route: { area: 'parcel-management', list: 'parcels' },
  fields: { name: f.text({ max: 50, required: true, search: true }), city: f.ref('city', { label: 'field.district' }) },
  views: { urgent: { route: { area: 'urgent-management', list: 'urgents', form: 'urgent-managements/parcel-details' }, filter: { city: 'Dhaka' }, nav: false } },
})

describe('a view’s own form address (route.form), for any entity', () => {
  beforeEach(() => {
    storeSessionOf(adminUser)
    i18n.addResourceBundle('en', 'translation', { entity: { parcel: { one: 'Parcel', other: 'Parcels' } }, view: { parcel: { urgent: 'Urgent parcels' } } }, true, true)
  })

  it('opens the view’s rows on the generic form at the view’s address, saves there and returns to the view', async () => {
    const stored = { id: 3, name: 'Books', city: null, ...stamp, _labels: {} }
    let saved: unknown
    server.use(
      http.get(api('/parcel/api/v1/parcel/all/'), () => HttpResponse.json(envelope('parcels', [stored]))),
      http.get(api('/parcel/api/v1/parcel/3'), () => HttpResponse.json(stored)),
      http.put(api('/parcel/api/v1/parcel/update/3'), async ({ request }) => {
        saved = await request.json()
        return HttpResponse.json({ ...stored, name: 'Old books' })
      }),
      http.get(api('/city/api/v1/city/all/'), () => HttpResponse.json(envelope('cities', []))),
    )
    const { user, router } = await renderApp('/apps/urgent-management/urgents', { entities: [...entities, parcel] })
    const link = await screen.findByRole('link', { name: 'Books' })
    expect(link.getAttribute('href')).toBe('/apps/urgent-managements/parcel-details/3/Books')
    expect(screen.getByRole('link', { name: /New/ }).getAttribute('href')).toBe('/apps/urgent-managements/parcel-details/new')
    await user.click(link)
    const name = await screen.findByRole('textbox', { name: /^Name/ })
    expect(router.state.location.pathname).toBe('/apps/urgent-managements/parcel-details/3/Books')
    await user.clear(name)
    await user.type(name, 'Old books')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(saved).toMatchObject({ name: 'Old books' }))
    expect(router.state.location.pathname).toBe('/apps/urgent-managements/parcel-details/3/Books')
    expect(screen.getByRole('link', { name: /^Back to/ }).getAttribute('href')).toBe('/apps/urgent-management/urgents')
    // The entity's own address of the form stays.
    await router.navigate({ to: '/apps/parcel-management/parcels/3' })
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toBeInTheDocument()
  })
})
