import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { api, envelope, storeSession, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

const listPath = '/apps/thana-management/thanas'

/** Records every list request and answers from the fixture rows. */
function listHandlers(total = thanaRows.length) {
  const calls: URL[] = []
  const answer = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    calls.push(url)
    const page = Number(url.searchParams.get('page') ?? 1)
    const size = Number(url.searchParams.get('size') ?? 10)
    const text = url.searchParams.get('q')?.toLowerCase()
    const rows = text ? thanaRows.filter((r) => r.name.toLowerCase().includes(text)) : thanaRows
    return HttpResponse.json(envelope('thanas', rows, page, size, text ? rows.length : total))
  }
  server.use(
    http.get(api(`${thanaBase}/all/`), answer),
    http.get(api(`${thanaBase}/search/`), answer),
    // Nothing refers to these police stations: a delete is free to go.
    http.get(api(`${thanaBase}/delete_impact/:id`), ({ params }) => HttpResponse.json({ ids: [Number(params.id)], can_delete: true, references: [] })),
    http.get(api(`${thanaBase}/delete_impact/`), ({ request }) =>
      HttpResponse.json({ ids: (new URL(request.url).searchParams.get('ids') ?? '').split(',').map(Number), can_delete: true, references: [] }),
    ),
  )
  return calls
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!

describe('generic list (police stations)', () => {
  beforeEach(() => storeSession())

  it('renders the rows of all/ with reference names, serial numbers and the count', async () => {
    const calls = listHandlers()
    await renderApp(listPath)
    expect(await screen.findByRole('heading', { name: 'Police Stations' })).toBeInTheDocument()
    expect(await screen.findByText('Gulshan')).toBeInTheDocument()
    expect(within(rowOf('Gulshan')).getByText('Dhaka')).toBeInTheDocument()
    expect(within(rowOf('Kotwali')).getByText('Chattogram')).toBeInTheDocument()
    expect(within(rowOf('Gulshan')).getByText('1')).toBeInTheDocument()
    expect(within(rowOf('Kotwali')).getByText('3')).toBeInTheDocument()
    expect(within(rowOf('Banani')).getByRole('link', { name: 'www.banani.gov.bd' })).toHaveAttribute('href', 'https://www.banani.gov.bd')
    expect(screen.getByText('3 records')).toBeInTheDocument()
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', '#', 'Name', 'Bangla Name', 'Website', 'District', 'Actions'])
    expect(calls[0]!.pathname).toBe('/thana/api/v1/thana/all/')
    expect(calls[0]!.searchParams.get('page')).toBe('1')
    expect(calls[0]!.searchParams.get('size')).toBe('30')
  })

  it('searches every searchable field through all/?q= after the user stops typing', async () => {
    const calls = listHandlers()
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    await user.type(screen.getByRole('searchbox', { name: 'Search Police Stations' }), 'kot')
    await waitFor(() => expect(screen.queryByText('Gulshan')).not.toBeInTheDocument())
    expect(screen.getByText('Kotwali')).toBeInTheDocument()
    const searches = calls.filter((u) => u.searchParams.has('q'))
    // Debounced: one request for the whole word, not one per key.
    expect(searches).toHaveLength(1)
    expect(searches[0]!.pathname).toBe('/thana/api/v1/thana/all/')
    expect(searches[0]!.searchParams.get('q')).toBe('kot')
    expect(searches[0]!.searchParams.get('page')).toBe('1')
  })

  it('says so when a search matches nothing', async () => {
    listHandlers()
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    await user.type(screen.getByRole('searchbox'), 'zzz')
    expect(await screen.findByText('Nothing matches “zzz”.')).toBeInTheDocument()
  })

  it('orders by a column from its header: ascending, descending, then the default', async () => {
    const calls = listHandlers()
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    const header = screen.getByRole('columnheader', { name: 'Name' })
    expect(header).toHaveAttribute('aria-sort', 'none')

    await user.click(within(header).getByRole('button', { name: 'Name' }))
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('ordering')).toBe('name'))
    expect(header).toHaveAttribute('aria-sort', 'ascending')

    await user.click(within(header).getByRole('button', { name: 'Name' }))
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('ordering')).toBe('-name'))
    expect(header).toHaveAttribute('aria-sort', 'descending')

    await user.click(within(header).getByRole('button', { name: 'Name' }))
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'none'))
    expect(calls.at(-1)!.searchParams.has('ordering')).toBe(false)
  })

  it('pages with 30/50/100 rows per page and numbers rows across pages', async () => {
    const calls = listHandlers(120)
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    expect(screen.getByText('Page 1 of 4')).toBeInTheDocument()
    const sizes = screen.getByRole('combobox', { name: 'Rows per page' })
    expect(within(sizes).getAllByRole('option').map((o) => o.textContent)).toEqual(['30', '50', '100'])

    await user.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('page')).toBe('2'))
    await waitFor(() => expect(screen.getByText('Page 2 of 4')).toBeInTheDocument())
    expect(within(rowOf('Gulshan')).getByText('31')).toBeInTheDocument()

    await user.selectOptions(sizes, '50')
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('size')).toBe('50'))
    expect(calls.at(-1)!.searchParams.get('page')).toBe('1')
    await waitFor(() => expect(screen.getByText('Page 1 of 3')).toBeInTheDocument())
  })

  it('asks before deleting a row and then calls delete/{id}', async () => {
    listHandlers()
    const deleted: string[] = []
    server.use(
      http.delete(api(`${thanaBase}/delete/:id`), ({ params }) => {
        deleted.push(String(params.id))
        return HttpResponse.json({ detail: `Thana id - ${String(params.id)} is deleted successfully` })
      }),
    )
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')

    await user.click(screen.getByRole('button', { name: 'Delete Banani' }))
    let dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('Delete this Police Station?')
    expect(dialog).toHaveTextContent('“Banani” will be deleted.')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(deleted).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Delete Banani' }))
    dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled())
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual(['12']))
    // The screen's own words, in the user's language.
    expect(await screen.findByText('Police Station “Banani” deleted.')).toBeInTheDocument()
  })

  it('shows the server’s detail when a delete is refused (409)', async () => {
    listHandlers()
    server.use(
      http.delete(api(`${thanaBase}/delete/:id`), () =>
        HttpResponse.json({ detail: 'Thana id - 11 is referenced by 2 Branch record(s).' }, { status: 409 }),
      ),
    )
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    await user.click(screen.getByRole('button', { name: 'Delete Gulshan' }))
    const confirm = within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' })
    await waitFor(() => expect(confirm).toBeEnabled())
    await user.click(confirm)
    expect(await screen.findByRole('alert')).toHaveTextContent('Thana id - 11 is referenced by 2 Branch record(s).')
  })

  it('deletes the selected rows through delete_multiple/ after confirmation', async () => {
    listHandlers()
    let body: unknown
    server.use(
      http.delete(api(`${thanaBase}/delete_multiple/`), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ detail: 'Thana ids - [11, 13] deleted successfully' })
      }),
    )
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    await user.click(screen.getByRole('checkbox', { name: 'Select Gulshan' }))
    await user.click(screen.getByRole('checkbox', { name: 'Select Kotwali' }))
    expect(screen.getByText('2 selected')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Delete selected' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('2 Police Stations will be deleted.')
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled())
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(body).toEqual({ ids: [11, 13] }))
  })

  it('selects every row of the page from the header checkbox', async () => {
    listHandlers()
    const { user } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }))
    expect(screen.getByText('3 selected')).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Select Banani' })).toBeChecked()
  })

  it('opens the form of a row at <form path>/<id>/<name>', async () => {
    listHandlers()
    server.use(
      http.get(api(`${thanaBase}/:id`), ({ params }) =>
        params.id === '11' ? HttpResponse.json({ id: 11, name: 'Gulshan', bn_name: null, url: null, city: 1 }) : undefined,
      ),
    )
    const { user, router } = await renderApp(listPath)
    await user.click(await screen.findByText('Gulshan'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/thana-management/thanas/11/Gulshan'))
  })

  it('shows an empty state with a link to create the first record', async () => {
    server.use(http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', []))))
    await renderApp(listPath)
    expect(await screen.findByText('No Police Stations yet.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Create the first one' })).toHaveAttribute('href', '/apps/thana-management/thanas/new')
  })
})
