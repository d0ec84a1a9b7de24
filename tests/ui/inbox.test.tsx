import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { registry } from '../../schema'
import { changeLanguage } from '../../src/i18n'
import { UNREAD_REFRESH_MS } from '../../src/shell/inbox/useUnreadCount'
import { api, envelope, storeSession } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The Inbox (issue 23): the caller's notifications from the server at /apps/mail, newest
 * first, unread ones marked; each said in the reader's language from its message key, opening
 * its record and marked read as it does; narrowed to one kind; all marked read at once; more
 * on demand. The toolbar's Inbox button counts the unread, asked again every minute.
 */
const base = registry.notification.api.base

type Stored = { id: number; kind: string; message: string; params: Record<string, unknown>; entity: string | null; record_id: number | null; is_read: boolean; created_at: string }

/** An inbox on the fake server: its rows, what was asked and marked. */
function inboxOf(rows: Stored[]) {
  const state = { rows: [...rows], asked: [] as string[], marked: [] as number[], markedAll: 0, counted: 0 }
  const page = (url: URL) => {
    const kind = url.searchParams.get('kind')
    const size = Number(url.searchParams.get('size') ?? 10)
    const number = Number(url.searchParams.get('page') ?? 1)
    const matching = state.rows.filter((r) => !kind || r.kind === kind).sort((a, b) => b.id - a.id)
    return HttpResponse.json(envelope('notifications', matching.slice((number - 1) * size, number * size), number, size, matching.length))
  }
  server.use(
    http.get(api(`${base}/all/`), ({ request }) => (state.asked.push(request.url), page(new URL(request.url)))),
    http.get(api(`${base}/search/`), ({ request }) => (state.asked.push(request.url), page(new URL(request.url)))),
    http.get(api(`${base}/unread_count/`), () => ((state.counted += 1), HttpResponse.json({ unread: state.rows.filter((r) => !r.is_read).length }))),
    http.post(api(`${base}/mark_read/:id`), ({ params }) => {
      const row = state.rows.find((r) => r.id === Number(params.id))
      if (!row) return HttpResponse.json({ detail: 'Not found.' }, { status: 404 })
      state.marked.push(row.id)
      row.is_read = true
      return HttpResponse.json({ ...row, read_at: '2026-05-04T10:00:00Z' })
    }),
    http.post(api(`${base}/mark_all_read/`), () => {
      state.markedAll += 1
      const unread = state.rows.filter((r) => !r.is_read)
      for (const r of unread) r.is_read = true
      return HttpResponse.json({ marked: unread.length, unread: 0 })
    }),
    // The record a notification opens: its form asks for it (not what these tests look at).
    http.get(api('/:entity/api/v1/:same/:id'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })),
  )
  return state
}

const at = (minute: number) => `2026-05-04T09:${String(minute).padStart(2, '0')}:00Z`

const orderConfirmed = (id: number, number: string, isRead = false): Stored => ({
  id,
  kind: 'order_confirmed',
  message: 'notification.order_confirmed',
  params: { number },
  entity: 'order',
  record_id: 40 + id,
  is_read: isRead,
  created_at: at(id),
})
const lowStock = (id: number, product: string): Stored => ({
  id,
  kind: 'low_stock',
  message: 'notification.low_stock',
  params: { product, quantity: 4, alert: 5 },
  entity: 'inventory',
  record_id: 7,
  is_read: false,
  created_at: at(id),
})

async function openInbox() {
  storeSession()
  const app = await renderApp('/apps/mail')
  await screen.findByRole('heading', { name: 'Inbox' })
  return app
}

const rowsOf = async () => within(await screen.findByRole('list', { name: 'Inbox' })).getAllByRole('listitem')
const badge = () => screen.getByTestId('inbox-button')

afterEach(() => vi.useRealTimers())

describe('the Inbox', () => {
  it('lists the caller’s notifications newest first, said from their message keys, the unread ones marked; the toolbar counts them', async () => {
    inboxOf([orderConfirmed(1, 'OR20260504001', true), lowStock(2, 'Brass Kettle'), orderConfirmed(3, 'OR20260504002')])
    await openInbox()
    const rows = await rowsOf()
    expect(rows.map((r) => r.querySelector('.block.text-sm')!.textContent)).toEqual([
      'Order OR20260504002 was confirmed.',
      'Brass Kettle is running low: 4 left (alert at 5).',
      'Order OR20260504001 was confirmed.',
    ])
    expect(rows.map((r) => r.hasAttribute('data-unread'))).toEqual([true, true, false])
    expect(within(rows[0]!).getByText(/Order confirmed/)).toBeInTheDocument()
    expect(within(rows[1]!).getByText(/Unread/)).toBeInTheDocument()
    expect(screen.getByText('2 unread')).toBeInTheDocument()
    await waitFor(() => expect(badge()).toHaveAccessibleName('Inbox, 2 unread notifications'))
    expect(within(badge()).getByTestId('unread-badge')).toHaveTextContent('2')
    expect(badge()).toHaveAttribute('href', '/apps/mail')
  })

  it('opens a notification’s record at its form and marks it read as it does', async () => {
    const inbox = inboxOf([lowStock(2, 'Brass Kettle'), orderConfirmed(3, 'OR20260504002')])
    const { user, history } = await openInbox()
    const link = within((await rowsOf())[0]!).getByRole('link')
    expect(link).toHaveAttribute('href', `${registry.order.ui.formPath}/43`)
    expect(within((await rowsOf())[1]!).getByRole('link')).toHaveAttribute('href', `${registry.inventory.ui.formPath}/7`)
    await user.click(link)
    await waitFor(() => expect(history.location.pathname).toBe(`${registry.order.ui.formPath}/43`))
    await waitFor(() => expect(inbox.marked).toEqual([3]))
    await waitFor(() => expect(badge()).toHaveAccessibleName('Inbox, 1 unread notification'))
  })

  it('marks one read without leaving, and all of them at once', async () => {
    const inbox = inboxOf([orderConfirmed(1, 'OR1'), lowStock(2, 'Brass Kettle'), orderConfirmed(3, 'OR3')])
    const { user } = await openInbox()
    await user.click(within((await rowsOf())[1]!).getByRole('button', { name: 'Mark as read' }))
    await waitFor(() => expect(inbox.marked).toEqual([2]))
    await waitFor(async () => expect((await rowsOf()).map((r) => r.hasAttribute('data-unread'))).toEqual([true, false, true]))
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }))
    await waitFor(() => expect(inbox.markedAll).toBe(1))
    await waitFor(async () => expect((await rowsOf()).some((r) => r.hasAttribute('data-unread'))).toBe(false))
    await waitFor(() => expect(badge()).toHaveAccessibleName('Inbox'))
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled()
  })

  it('narrows the list to one kind, asked of the server', async () => {
    const inbox = inboxOf([orderConfirmed(1, 'OR1'), lowStock(2, 'Brass Kettle'), orderConfirmed(3, 'OR3')])
    const { user } = await openInbox()
    expect(await rowsOf()).toHaveLength(3)
    const select = screen.getByLabelText('Show')
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All notifications',
      'Ticket assigned',
      'Ticket answered',
      'Ticket opened',
      'Purchase request received',
      'Low stock',
      'Order confirmed',
      'Mail not sent',
    ])
    await user.selectOptions(select, 'low_stock')
    await waitFor(async () => expect((await rowsOf()).map((r) => r.querySelector('.block.text-sm')!.textContent)).toEqual(['Brass Kettle is running low: 4 left (alert at 5).']))
    const last = new URL(inbox.asked.at(-1)!)
    expect(last.pathname).toBe(`${base}/search/`)
    expect(last.searchParams.get('kind')).toBe('low_stock')
    await user.selectOptions(select, 'mail_failed')
    expect(await screen.findByText('No notifications of this kind.')).toBeInTheDocument()
  })

  it('brings more on demand: a long inbox comes a page at a time', async () => {
    const inbox = inboxOf(Array.from({ length: 25 }, (_, i) => orderConfirmed(i + 1, `OR${i + 1}`)))
    const { user } = await openInbox()
    expect(await rowsOf()).toHaveLength(20)
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(async () => expect(await rowsOf()).toHaveLength(25))
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(inbox.asked.map((u) => new URL(u).searchParams.get('page'))).toEqual(['1', '2'])
  })

  it('says when there is nothing', async () => {
    inboxOf([])
    await openInbox()
    expect(await screen.findByText('No notifications')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled()
  })

  it('says each notification in the reader’s language, right to left in Arabic', async () => {
    inboxOf([orderConfirmed(3, 'OR20260504002')])
    await changeLanguage('ar')
    storeSession()
    await renderApp('/apps/mail')
    expect(await screen.findByRole('heading', { name: 'البريد الوارد' })).toBeInTheDocument()
    // The number keeps its own direction (and its place before the full stop) inside the Arabic sentence.
    expect(await screen.findByText('تم تأكيد الطلب \u2068OR20260504002\u2069.')).toBeInTheDocument()
    expect(document.documentElement).toHaveAttribute('dir', 'rtl')
  })
})

describe('the toolbar’s Inbox button', () => {
  it('asks for the unread count again every minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] })
    const inbox = inboxOf([orderConfirmed(1, 'OR1')])
    storeSession()
    await renderApp('/example')
    await screen.findByRole('heading', { name: 'Example page' })
    await waitFor(() => expect(badge()).toHaveAccessibleName('Inbox, 1 unread notification'))
    const before = inbox.counted
    inbox.rows.push(orderConfirmed(2, 'OR2'))
    await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_MS)
    await waitFor(() => expect(inbox.counted).toBeGreaterThan(before))
    await waitFor(() => expect(badge()).toHaveAccessibleName('Inbox, 2 unread notifications'))
  })
})
