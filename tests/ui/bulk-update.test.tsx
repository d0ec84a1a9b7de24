import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'

import { createQueryClient } from '../../src/app/query-client'
import { changeLanguage, loadNamespaces } from '../../src/i18n'
import { AccessProvider, type EngineAccess } from '../../src/engine/access-context'
import { filterOf, type BulkTarget } from '../../src/engine/bulk-api'
import { EntitiesProvider } from '../../src/engine/entities-context'
import { BulkUpdateButton } from '../../src/engine/list/BulkUpdateDialog'
import { FeedbackView } from '../../src/engine/ui/Notifications'
import { api, cityHandlers, storeSession, thanaBase } from './support/fixtures'
import { server } from './support/server'

/**
 * Bulk update in the browser (issue 25): the selection bar's button opens a dialog that offers
 * the fields a bulk update may set, takes the value with the form's own widget, sends it for
 * the selected records or the list's filter, says per record what the server refused, and
 * after a change shows a toast whose Undo calls the undo route and says how it went.
 */
const everyone: EngineAccess = { can: () => true, canDo: () => true, isAdmin: true }

function renderButton(target: BulkTarget, access: EngineAccess = everyone, entity = registry.thana) {
  const queryClient = createQueryClient()
  queryClient.setDefaultOptions({ queries: { retry: false } })
  const user = userEvent.setup()
  render(
    <QueryClientProvider client={queryClient}>
      <EntitiesProvider entities={entities}>
        <AccessProvider access={access}>
          <BulkUpdateButton entity={entity} target={target} />
          <FeedbackView />
        </AccessProvider>
      </EntitiesProvider>
    </QueryClientProvider>,
  )
  return { user, queryClient }
}

type Sent = { path: string; body: unknown; headers: Record<string, string | null> }

function answering(update: (body: unknown) => Response, undo: (batch: string) => Response = () => HttpResponse.json({ restored: 2, batch: 'undo-batch' })) {
  const sent: Sent[] = []
  server.use(
    ...cityHandlers,
    http.post(api(`${thanaBase}/bulk_update/`), async ({ request }) => {
      const body = await request.json()
      sent.push({ path: new URL(request.url).pathname, body, headers: { language: request.headers.get('accept-language'), screen: request.headers.get('x-screen') } })
      return update(body)
    }),
    http.post(api(`${thanaBase}/undo/:batch`), ({ request, params }) => {
      sent.push({ path: new URL(request.url).pathname, body: null, headers: {} })
      return undo(String(params.batch))
    }),
  )
  return sent
}

beforeAll(() => loadNamespaces('shell', 'registry'))
beforeEach(() => storeSession())

describe('bulk update', () => {
  it('sets a field for the selected records, and the toast’s Undo calls the undo route', async () => {
    const sent = answering(() => HttpResponse.json({ updated: 2, batch: 'batch-1' }))
    const { user } = renderButton({ kind: 'ids', ids: [11, 12] })
    await user.click(screen.getByRole('button', { name: 'Change a field' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change a field of several records' })
    expect(dialog).toHaveTextContent('The selected records: 2.')
    const picker = within(dialog).getByRole('combobox', { name: 'Field' })
    // Settable fields by their labels: not the name (unique within its district).
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a field', 'Bangla Name', 'Website', 'District'])
    const apply = within(dialog).getByRole('button', { name: 'Set for 2 records' })
    expect(apply).toBeDisabled()
    await user.selectOptions(picker, 'Website')
    await user.type(within(dialog).getByRole('textbox', { name: 'Website' }), 'https://thana.example.com')
    await user.click(apply)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(sent).toEqual([{ path: `${thanaBase}/bulk_update/`, body: { ids: [11, 12], values: { url: 'https://thana.example.com' } }, headers: { language: 'en', screen: '/' } }])
    const toast = await screen.findByRole('status')
    expect(toast).toHaveTextContent('Website set for 2 records.')
    await user.click(within(toast).getByRole('button', { name: 'Undo' }))
    expect(await screen.findByText('Undone: 2 records are back as they were.')).toBeInTheDocument()
    expect(sent.map((s) => s.path)).toEqual([`${thanaBase}/bulk_update/`, `${thanaBase}/undo/batch-1`])
  })

  it('takes a reference with the form’s own picker, and sends the list’s filter and search for every record of it', async () => {
    const sent = answering(() => HttpResponse.json({ updated: 40, batch: 'batch-2' }))
    const params = { page: 2, size: 30, search: 'gul', filters: { city: '1' } }
    const { user } = renderButton({ kind: 'filter', params, count: 40 })
    await user.click(screen.getByRole('button', { name: 'Change a field' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('Every record the list’s search and filters hold, not only this page: 40.')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Field' }), 'District')
    await user.click(within(dialog).getByRole('combobox', { name: /^District/ }))
    await user.click(await screen.findByRole('option', { name: 'Chattogram' }))
    await user.click(within(dialog).getByRole('button', { name: 'Set for 40 records' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]!.body).toEqual({ filter: { city: '1', q: 'gul' }, values: { city: 2 } })
    expect(await screen.findByRole('status')).toHaveTextContent('District set for 40 records.')
    expect(filterOf(registry.thana, { page: 1, size: 30 })).toEqual({})
  })

  it('shows what the server refused, record by record, and writes nothing', async () => {
    answering(() =>
      HttpResponse.json(
        {
          detail: 'Nothing was changed: records refused the change: 2.',
          rows: { '11': { city: ['Police Station with this Name already exists.'] }, '13': { detail: ["Thana id - 13 doesn't exists"] } },
          labels: { '11': 'Gulshan', '13': '#13' },
        },
        { status: 400 },
      ),
    )
    const { user } = renderButton({ kind: 'ids', ids: [11, 12, 13] })
    await user.click(screen.getByRole('button', { name: 'Change a field' }))
    const dialog = await screen.findByRole('dialog')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Field' }), 'Bangla Name')
    await user.click(within(dialog).getByRole('button', { name: 'Set for 3 records' }))
    const alert = await within(dialog).findByRole('alert')
    expect(alert).toHaveTextContent('Nothing was changed: records refused the change: 2.')
    expect(alert).toHaveTextContent('These records refused the change:')
    expect(within(alert).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Gulshan: District: Police Station with this Name already exists.', "#13: Thana id - 13 doesn't exists"])
    // The dialog stays, for another value.
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it('puts a refusal of the value itself under its input', async () => {
    answering(() => HttpResponse.json({ url: ['Enter a valid URL.'] }, { status: 400 }))
    const { user } = renderButton({ kind: 'ids', ids: [11] })
    await user.click(screen.getByRole('button', { name: 'Change a field' }))
    const dialog = await screen.findByRole('dialog')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Field' }), 'Website')
    await user.type(within(dialog).getByRole('textbox', { name: 'Website' }), 'https://ok.example.com')
    await user.click(within(dialog).getByRole('button', { name: 'Set for 1 record' }))
    expect(await within(dialog).findByText('Enter a valid URL.')).toBeInTheDocument()
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument()
  })

  it('says why an undo was refused, in the server’s words', async () => {
    answering(
      () => HttpResponse.json({ updated: 1, batch: 'batch-3' }),
      () => HttpResponse.json({ detail: 'Nothing was undone: records changed since: 1 (Gulshan).' }, { status: 409 }),
    )
    const { user } = renderButton({ kind: 'ids', ids: [11] })
    await user.click(screen.getByRole('button', { name: 'Change a field' }))
    const dialog = await screen.findByRole('dialog')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Field' }), 'Bangla Name')
    await user.type(within(dialog).getByRole('textbox', { name: 'Bangla Name' }), 'গুলশান')
    await user.click(within(dialog).getByRole('button', { name: 'Set for 1 record' }))
    await user.click(within(await screen.findByRole('status')).getByRole('button', { name: 'Undo' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Nothing was undone: records changed since: 1 (Gulshan).')
  })

  it('speaks the user’s language', async () => {
    await changeLanguage('ar')
    answering(() => HttpResponse.json({ updated: 2, batch: 'batch-4' }))
    const { user } = renderButton({ kind: 'ids', ids: [11, 12] })
    await user.click(screen.getByRole('button', { name: 'تغيير حقل' }))
    const dialog = await screen.findByRole('dialog', { name: 'تغيير حقل في عدة سجلات' })
    expect(within(dialog).getByRole('button', { name: 'تعيين لسجلين' })).toBeDisabled()
  })

  it('is not offered without the permission to change the records, or for none', () => {
    renderButton({ kind: 'ids', ids: [11] }, { can: () => false, canDo: (_e, action) => action !== 'UPDATE', isAdmin: false })
    expect(screen.queryByRole('button', { name: 'Change a field' })).not.toBeInTheDocument()
    renderButton({ kind: 'filter', params: { page: 1, size: 30 }, count: 0 })
    expect(screen.queryByRole('button', { name: 'Change a field' })).not.toBeInTheDocument()
  })
})
