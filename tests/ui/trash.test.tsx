import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { AccessProvider, type EngineAccess } from '../../src/engine/access-context'
import { offerUndoDelete } from '../../src/engine/trash/trash-api'
import { TrashLink } from '../../src/engine/trash/TrashLink'
import { FeedbackView } from '../../src/engine/ui/Notifications'
import { changeLanguage, loadNamespaces } from '../../src/i18n'
import { accessTokenAnswers, adminUser, api, cityBase, cityHandlers, envelope, storeSession, storeSessionOf, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The Trash of a registry entity (issue 25), generic: the District's at `<list>/trash` lists
 * what was deleted, when and by whom; Restore brings rows back (one, or the selection); Delete
 * forever asks first and is there only for those with `<PREFIX>_PURGE`. The list header's
 * Trash link shows to those who may delete; a delete's notice offers Undo, which restores by
 * the delete's batch.
 */
const trashPath = '/apps/city-management/cities/trash'

const trashedRows = [
  { id: 4, name: 'Sylhet', bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' }, deleted_at: '2026-03-02T09:15:00Z', deleted_by: 'admin@example.com' },
  { id: 5, name: 'Rajshahi', bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' }, deleted_at: '2026-03-01T08:00:00Z', deleted_by: null },
]

function trashAnswering(rows = trashedRows) {
  const calls: Array<{ method: string; url: string; body?: unknown }> = []
  let shown = [...rows]
  server.use(
    http.get(api(`${cityBase}/trash/`), ({ request }) => {
      calls.push({ method: 'GET', url: new URL(request.url).search })
      const q = (new URL(request.url).searchParams.get('q') ?? '').toLowerCase()
      const found = shown.filter((r) => r.name.toLowerCase().includes(q))
      return HttpResponse.json(envelope('cities', found, 1, 30, found.length))
    }),
    http.post(api(`${cityBase}/restore/`), async ({ request }) => {
      const body = (await request.json()) as { ids: number[] }
      calls.push({ method: 'POST', url: 'restore', body })
      shown = shown.filter((r) => !body.ids.includes(r.id))
      return HttpResponse.json({ detail: `Districts restored from the Trash: [${body.ids.join(', ')}]`, ids: body.ids })
    }),
    http.delete(api(`${cityBase}/purge/`), async ({ request }) => {
      const body = (await request.json()) as { ids: number[] }
      calls.push({ method: 'DELETE', url: 'purge', body })
      shown = shown.filter((r) => !body.ids.includes(r.id))
      return HttpResponse.json({ detail: `Districts deleted for good: [${body.ids.join(', ')}]` })
    }),
  )
  return calls
}

/** A STAFF-like account that may delete districts (and so list and restore their Trash), but not delete them for good. */
const deskUser: ServerUser = { id: 9, email: 'desk@example.com', username: 'desk', role: 'DESK', is_admin: false, permissions: ['CITY_LIST', 'CITY_DELETE'], image: null, settings: null }

beforeEach(() => storeSession())

describe('the Trash screen', () => {
  it('lists what was deleted, when and by whom, and restores a row', async () => {
    const calls = trashAnswering()
    const { user } = await renderApp(trashPath)
    expect(await screen.findByRole('heading', { name: 'Trash · Districts' })).toBeInTheDocument()
    const table = await screen.findByRole('region', { name: 'Trash · Districts' })
    const sylhet = (await within(table).findByText('Sylhet')).closest('tr')!
    expect(sylhet).toHaveTextContent('admin@example.com')
    expect(within(sylhet).getByText((_, el) => el?.tagName === 'TIME')).toHaveAttribute('dateTime', '2026-03-02T09:15:00Z')
    expect(screen.getByText('2 records in the Trash')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Districts' })).toHaveAttribute('href', '/apps/city-management/cities')

    await user.click(within(sylhet).getByRole('button', { name: 'Restore Sylhet' }))
    expect(await screen.findByText('1 District restored.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', url: 'restore', body: { ids: [4] } }])
    await waitFor(() => expect(within(table).queryByText('Sylhet')).not.toBeInTheDocument())
    expect(screen.getByText('1 record in the Trash')).toBeInTheDocument()
  })

  it('restores a selection, and deletes for good after asking', async () => {
    const calls = trashAnswering()
    const { user } = await renderApp(trashPath)
    const table = await screen.findByRole('region', { name: 'Trash · Districts' })
    await within(table).findByText('Sylhet')
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }))
    await user.click(screen.getByRole('button', { name: 'Delete selected forever' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete forever?' })
    expect(dialog).toHaveTextContent('2 Districts will be deleted for good. This cannot be undone.')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.url === 'purge')).toBe(false)
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }))

    await user.click(within((await within(table).findByText('Rajshahi')).closest('tr')!).getByRole('button', { name: 'Delete Rajshahi forever' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete forever?' })).getByRole('button', { name: 'Delete forever' }))
    expect(await screen.findByText('1 District deleted for good.')).toBeInTheDocument()
    expect(calls.filter((c) => c.url === 'purge')).toEqual([{ method: 'DELETE', url: 'purge', body: { ids: [5] } }])

    await user.click(screen.getByRole('checkbox', { name: 'Select Sylhet' }))
    await user.click(screen.getByRole('button', { name: 'Restore selected' }))
    await waitFor(() => expect(calls.filter((c) => c.url === 'restore')).toEqual([{ method: 'POST', url: 'restore', body: { ids: [4] } }]))
    expect(await screen.findByText('The Trash is empty.')).toBeInTheDocument()
  })

  it('offers Delete forever only to those with the PURGE permission, and says why a restore was refused', async () => {
    storeSessionOf(deskUser)
    server.use(accessTokenAnswers(deskUser))
    trashAnswering()
    server.use(
      http.post(api(`${cityBase}/restore/`), () => HttpResponse.json({ detail: "District 'Sylhet' cannot be restored: another record has its Name (Sylhet) now." }, { status: 409 })),
    )
    const { user } = await renderApp(trashPath)
    const row = (await screen.findByText('Sylhet')).closest('tr')!
    expect(within(row).queryByRole('button', { name: 'Delete Sylhet forever' })).not.toBeInTheDocument()
    await user.click(within(row).getByRole('button', { name: 'Restore Sylhet' }))
    expect(await screen.findByRole('alert')).toHaveTextContent("District 'Sylhet' cannot be restored: another record has its Name (Sylhet) now.")
  })

  it('searches the Trash, and speaks Arabic right to left', async () => {
    const calls = trashAnswering()
    await changeLanguage('ar')
    const { user } = await renderApp(trashPath)
    expect(await screen.findByRole('heading', { name: 'سلة المحذوفات · المناطق' })).toBeInTheDocument()
    expect(document.documentElement).toHaveAttribute('dir', 'rtl')
    await user.type(screen.getByRole('searchbox'), 'raj')
    await waitFor(() => expect(calls.some((c) => c.url.includes('q=raj'))).toBe(true))
    expect(await screen.findByRole('button', { name: 'استعادة Rajshahi' })).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText('Sylhet')).not.toBeInTheDocument())
  })

  it('sends one who may not delete districts away from their Trash', async () => {
    const reader: ServerUser = { ...deskUser, permissions: ['CITY_LIST'] }
    storeSessionOf(reader)
    server.use(accessTokenAnswers(reader))
    trashAnswering()
    const { router } = await renderApp(trashPath)
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
    expect(screen.queryByRole('heading', { name: 'Trash · Districts' })).not.toBeInTheDocument()
  })
})

describe('the Trash link and the Undo of a delete', () => {
  const access = (permissions: string[]): EngineAccess => ({
    can: (p) => permissions.includes(p),
    canDo: (entity, action) => permissions.includes((entity.permissions as Record<string, string>)[action] ?? ''),
    isAdmin: false,
  })

  async function renderLink(entity: (typeof registry)[keyof typeof registry], permissions: string[]) {
    await loadNamespaces('shell', 'registry')
    const rootRoute = createRootRoute({
      component: () => (
        <AccessProvider access={access(permissions)}>
          <TrashLink entity={entity} />
        </AccessProvider>
      ),
    })
    const router = createRouter({ routeTree: rootRoute.addChildren([createRoute({ getParentRoute: () => rootRoute, path: '/' })]), history: createMemoryHistory() })
    render(<RouterProvider router={router} />)
    await act(() => router.load())
  }

  it('links to the Trash for those who may delete, for an entity that has one', async () => {
    await renderLink(registry.city, ['CITY_LIST', 'CITY_DELETE'])
    expect(await screen.findByRole('link', { name: 'Trash of Districts' })).toHaveAttribute('href', '/apps/city-management/cities/trash')
  })

  it('shows nothing to those who may not delete, nor for an entity without a Trash', async () => {
    await renderLink(registry.city, ['CITY_LIST'])
    await renderLink(registry.role, ['ROLE_LIST', 'ROLE_DELETE'])
    expect(screen.queryByRole('link')).not.toBeInTheDocument()
  })

  it('offers Undo after a delete, which restores by the delete’s batch', async () => {
    await loadNamespaces('shell', 'registry')
    const restored: unknown[] = []
    server.use(
      http.post(api(`${cityBase}/restore/`), async ({ request }) => {
        restored.push(await request.json())
        return HttpResponse.json({ detail: 'Districts restored from the Trash: [4, 5]', ids: [4, 5] })
      }),
    )
    let refreshed = 0
    render(<FeedbackView />)
    act(() => void offerUndoDelete(registry.city, '0f8fad5b-d9cb-469f-a165-70867728950e', 2, { onRestored: () => void refreshed++ }))
    const notice = (await screen.findByText('2 Districts moved to the Trash.')).closest('div')!
    await userEvent.setup().click(within(notice).getByRole('button', { name: 'Undo' }))
    expect(await screen.findByText('2 Districts restored.')).toBeInTheDocument()
    expect(restored).toEqual([{ batch: '0f8fad5b-d9cb-469f-a165-70867728950e' }])
    expect(refreshed).toBe(1)
  })

  it('offers Undo after a delete from the record’s own form, back on the list', async () => {
    storeSessionOf(adminUser)
    const batch = '7c9e6679-7425-40de-944b-e07fc1f90ae7'
    const restored: unknown[] = []
    server.use(
      ...cityHandlers,
      http.get(api(`${cityBase}/history/2`), () => HttpResponse.json({ entries: [], next: null })),
      http.get(api(`${cityBase}/delete_impact/2`), () => HttpResponse.json({ ids: [2], can_delete: true, references: [] })),
      http.get(api('/country/api/v1/country/all/'), () => HttpResponse.json(envelope('countrys', [{ id: 18, name: 'Bangladesh' }]))),
      http.get(api('/country/api/v1/country/18'), () => HttpResponse.json({ id: 18, name: 'Bangladesh' })),
      http.get(api('/thana/api/v1/thana/search/'), () => HttpResponse.json(envelope('thanas', []))),
      http.delete(api(`${cityBase}/delete/2`), () => HttpResponse.json({ detail: 'City id - 2 is deleted successfully', batch })),
      http.post(api(`${cityBase}/restore/`), async ({ request }) => {
        restored.push(await request.json())
        return HttpResponse.json({ detail: 'Districts restored from the Trash: [2]', ids: [2] })
      }),
    )
    const { user } = await renderApp(`${registry.city.ui.formPath}/2`)
    await user.click(await screen.findByRole('button', { name: 'Delete' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))
    const notice = (await screen.findByText('1 District moved to the Trash.')).closest('div')!
    await user.click(within(notice).getByRole('button', { name: 'Undo' }))
    expect(await screen.findByText('1 District restored.')).toBeInTheDocument()
    expect(restored).toEqual([{ batch }])
  })
})
