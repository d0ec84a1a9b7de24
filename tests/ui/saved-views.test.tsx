import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { api, cityHandlers, envelope, storeSession, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * Saved views on the generic list (issue 25): the list as it is — search, order, filters, rows
 * per page, columns, density — saved by name on the server, shared with a role or not; applied
 * from the "Views" menu or by a link (`?saved=<id>` with its state), the opener's columns and
 * density set as the view keeps them; a view the opener may not see said so.
 */
const listPath = '/apps/thana-management/thanas'
const VIEWS = registry.saved_view.api.base
const ROLES = registry.role.api.base
const sales = { id: 4, name: 'SALES' }

type Stored = { id: number; name: string; list: string; state: Record<string, unknown>; role: { id: number; name: string } | null; owner: { id: number; name: string } }
const compact: Stored = {
  id: 7,
  name: 'Gulshan, compact',
  list: 'thana',
  state: { q: 'gul', ordering: 'name', filters: { city: '1' }, size: 50, columns: { order: ['name', 'url', 'bn_name', 'city'], hidden: ['bn_name'], widths: { name: 200 } }, density: 'compact' },
  role: sales,
  owner: { id: 2, name: 'sam' },
}
const mine: Stored = { id: 3, name: 'Mine by name', list: 'thana', state: { ordering: 'name' }, role: null, owner: { id: 1, name: 'admin' } }
const othersPrivate: Stored = { id: 9, name: 'Someone else’s', list: 'thana', state: {}, role: null, owner: { id: 2, name: 'sam' } }
const otherList: Stored = { id: 11, name: 'Of the districts', list: 'thana_other', state: {}, role: null, owner: { id: 1, name: 'admin' } }

/** The server's side: the police stations, the saved views, the roles; every request recorded. */
function serve(views: Stored[]) {
  const lists: URL[] = []
  const writes: { method: string; path: string; body: unknown }[] = []
  const answer = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    lists.push(url)
    return HttpResponse.json(envelope('thanas', thanaRows, 1, Number(url.searchParams.get('size') ?? 30)))
  }
  // A record as `{id}` answers it: references as ids, their names in `_labels`.
  const record = (v: Stored) => ({ ...v, role: v.role?.id ?? null, owner: v.owner.id, _labels: { ...(v.role ? { role: v.role.name } : {}), owner: v.owner.name } })
  server.use(
    ...cityHandlers,
    http.get(api(`${thanaBase}/all/`), answer),
    http.get(api(`${thanaBase}/search/`), answer),
    http.get(api(`${VIEWS}/search/`), ({ request }) => {
      const list = new URL(request.url).searchParams.get('list') ?? ''
      return HttpResponse.json(envelope('saved_views', views.filter((v) => v.list.includes(list)), 1, 100))
    }),
    http.get(api(`${VIEWS}/:id`), ({ params }) => {
      const found = views.find((v) => String(v.id) === params.id)
      return found ? HttpResponse.json(record(found)) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 })
    }),
    http.post(api(`${VIEWS}/create/`), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      writes.push({ method: 'POST', path: 'create', body })
      const role = typeof body.role === 'number' ? { id: body.role, name: 'SALES' } : null
      const saved = { ...(body as Omit<Stored, 'id' | 'role' | 'owner'>), id: 21, role, owner: { id: 1, name: 'admin' } }
      views.push(saved)
      return HttpResponse.json(record(saved), { status: 201 })
    }),
    http.put(api(`${VIEWS}/update/:id`), async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>
      writes.push({ method: 'PUT', path: `update/${String(params.id)}`, body })
      const found = views.find((v) => String(v.id) === params.id)!
      Object.assign(found, body)
      return HttpResponse.json(record(found))
    }),
    http.delete(api(`${VIEWS}/delete/:id`), ({ params }) => {
      writes.push({ method: 'DELETE', path: `delete/${String(params.id)}`, body: null })
      views.splice(views.findIndex((v) => String(v.id) === params.id), 1)
      return HttpResponse.json({ detail: 'SavedView id - x is deleted successfully' })
    }),
    http.get(api(`${ROLES}/all/`), () => HttpResponse.json(envelope('roles', [{ id: 1, name: 'ADMIN' }, sales]))),
  )
  return { lists, writes }
}

const searchOf = (router: { state: { location: { search: unknown } } }) => router.state.location.search as Record<string, unknown>
const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent).slice(1, -1)

async function openViews(user: Awaited<ReturnType<typeof renderApp>>['user']) {
  await user.click(screen.getByRole('button', { name: 'Views' }))
  return screen.findByRole('dialog', { name: 'Saved views' })
}

beforeEach(() => storeSession())

describe('saved views of a list', () => {
  it('saves the list as it is — search, order, rows per page, columns, density — shared with a role, and names it in the address', async () => {
    const { writes } = serve([])
    const { user, router } = await renderApp(`${listPath}?q=ban&ordering=-name&size=50`)
    await screen.findByText('Banani')
    const menu = await openViews(user)
    expect(await within(menu).findByText('No saved views of this list yet.')).toBeInTheDocument()
    await user.click(within(menu).getByRole('button', { name: 'Save view…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Save this view of the list' })
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Banani first')
    const share = within(dialog).getByRole('combobox', { name: 'Share with a role' })
    await waitFor(() => expect(within(share).getAllByRole('option').map((o) => o.textContent)).toEqual(['Not shared', 'ADMIN', 'SALES']))
    await user.selectOptions(share, 'SALES')
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }))

    await waitFor(() => expect(writes).toHaveLength(1))
    expect(writes[0]!.body).toEqual({
      name: 'Banani first',
      list: 'thana',
      role: 4,
      state: { q: 'ban', ordering: '-name', size: 50, columns: { order: ['name', 'bn_name', 'url', 'city'], hidden: [], widths: {} }, density: 'comfortable' },
    })
    await waitFor(() => expect(searchOf(router)).toEqual({ q: 'ban', ordering: '-name', size: 50, saved: 21 }))
    expect(await screen.findByText('View “Banani first” saved.')).toBeInTheDocument()
    expect(screen.getByText('· Banani first')).toBeInTheDocument()
  })

  it('applies a view opened by its link: its list state from the view when the link has none, its columns and density', async () => {
    const { lists } = serve([compact])
    const { router } = await renderApp(`${listPath}?saved=7`)
    await waitFor(() => expect(searchOf(router)).toEqual({ q: 'gul', ordering: 'name', city: 1, size: 50, saved: 7 }))
    await waitFor(() => expect(lists.some((u) => u.pathname.endsWith('/search/') && u.searchParams.get('q') === 'gul' && u.searchParams.get('city') === '1' && u.searchParams.get('size') === '50')).toBe(true))
    await waitFor(() => expect(headers()).toEqual(['#', 'Name', 'Website', 'District']))
    expect(screen.getByRole('columnheader', { name: 'Name' }).style.width).toBe('200px')
    expect(screen.getAllByText('Gulshan')[0]!.closest('td')).toHaveClass('py-1.5')
    expect(screen.getByText('· Gulshan, compact')).toBeInTheDocument()
  })

  it('keeps what a full link says, and takes the columns from the view', async () => {
    serve([compact])
    const { router } = await renderApp(`${listPath}?q=kot&saved=7`)
    await waitFor(() => expect(headers()).toEqual(['#', 'Name', 'Website', 'District']))
    expect(searchOf(router)).toEqual({ q: 'kot', saved: 7 })
  })

  it('lists one’s own views, then those shared with one’s role (named), of this list only; applies one; updates and deletes one’s own', async () => {
    const { writes } = serve([mine, compact, othersPrivate, otherList])
    const { user, router } = await renderApp(`${listPath}?q=ban`)
    await screen.findByText('Banani')
    const menu = await openViews(user)
    const mineGroup = await within(menu).findByRole('region', { name: 'My views' })
    const sharedGroup = within(menu).getByRole('region', { name: 'Shared with me' })
    expect(within(mineGroup).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Mine by name'])
    expect(within(sharedGroup).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Gulshan, compactShared with SALES'])
    expect(within(menu).queryByText('Someone else’s')).toBeNull()
    expect(within(menu).queryByText('Of the districts')).toBeNull()
    // Another's view is theirs to change.
    expect(within(sharedGroup).queryByRole('button', { name: /Delete|Rename|Save the list/ })).toBeNull()

    // The list as it is now goes into one's own view.
    await user.click(within(mineGroup).getByRole('button', { name: 'Save the list as it is now to “Mine by name”' }))
    await waitFor(() => expect(writes.at(-1)).toMatchObject({ method: 'PUT', path: 'update/3', body: { state: { q: 'ban', size: 30, density: 'comfortable' } } }))
    await waitFor(() => expect(searchOf(router)).toEqual({ q: 'ban', saved: 3 }))

    await user.click(within(sharedGroup).getByRole('button', { name: /^Gulshan, compact/ }))
    await waitFor(() => expect(searchOf(router)).toEqual({ q: 'gul', ordering: 'name', city: 1, size: 50, saved: 7 }))
    await waitFor(() => expect(headers()).toEqual(['#', 'Name', 'Website', 'District']))

    const again = await openViews(user)
    await user.click(await within(again).findByRole('button', { name: 'Delete “Mine by name”' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete this saved view?' })
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(writes.at(-1)).toMatchObject({ method: 'DELETE', path: 'delete/3' }))
    expect(await screen.findByText('View “Mine by name” deleted.')).toBeInTheDocument()
  })

  it('renames one’s own view and shares it with a role', async () => {
    const { writes } = serve([mine])
    const { user } = await renderApp(listPath)
    await screen.findByText('Banani')
    const menu = await openViews(user)
    await user.click(await within(menu).findByRole('button', { name: 'Rename or share “Mine by name”' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename or share “Mine by name”' })
    const name = within(dialog).getByRole('textbox', { name: 'Name' })
    await user.clear(name)
    await user.type(name, 'By name')
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(3))
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Share with a role' }), 'SALES')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(writes.at(-1)).toEqual({ method: 'PUT', path: 'update/3', body: { name: 'By name', role: 4 } }))
  })

  it('says so when a link names a view the opener may not see, and drops it from the address', async () => {
    serve([])
    const { user, router } = await renderApp(`${listPath}?q=ban&saved=99`)
    const banner = await screen.findByText(/This saved view cannot be opened/)
    expect(screen.getByText('Banani')).toBeInTheDocument()
    await user.click(within(banner.closest('[role="status"]')!).getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(searchOf(router)).toEqual({ q: 'ban' }))
    expect(screen.queryByText(/This saved view cannot be opened/)).toBeNull()
  })
})
