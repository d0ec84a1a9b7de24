import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { registry } from '../../schema'
import { changeLanguage, loadNamespaces } from '../../src/i18n'
import { connectApiSession } from '../../src/engine/api-session'
import { ImportDialog } from '../../src/engine/list/ImportDialog'
import { api } from './support/fixtures'
import { server } from './support/server'

/**
 * The import wizard (issue 25) against the server's import routes, answered by msw: the
 * columns matched as the server guessed and changed by the user, the check's progress read
 * from the NDJSON stream and its errors row by row, the import of the valid rows and the
 * download of the rejected ones.
 */
const BASE = registry.city.api.base
const TOKEN = '5b8f3c1e-8a2b-4c9d-9e1f-2a3b4c5d6e7f'

const preview = {
  columns: ['Name', 'Ülke', 'Notes'],
  mapping: { Name: 'name', Ülke: 'country', Notes: null },
  fields: [
    { name: 'name', label: 'Name', required: true, kind: 'text' },
    { name: 'country', label: 'Country', required: true, kind: 'ref' },
    { name: 'url', label: 'Website', required: false, kind: 'url' },
  ],
  sample: [
    ['Kent', 'United Kingdom', 'first'],
    ['Dover', 'Atlantis', ''],
  ],
  format: 'csv',
}

const checked = {
  mode: 'dry_run',
  rows: 3,
  valid: 2,
  created: 0,
  rejected: 1,
  errors: [{ row: 3, fields: { country: ['No Country is named “Atlantis”.'] } }],
}

type Sent = { mode: string | null; mapping: unknown; authorization: string | null }
let sent: Sent[]
let release: () => void
let downloads: string[]

/** An NDJSON answer: its first lines at once, the rest when the test releases them. */
function streamed(first: unknown[], rest: unknown[]): HttpResponse<ReadableStream> {
  const encoder = new TextEncoder()
  const held = new Promise<void>((resolve) => (release = resolve))
  const body = new ReadableStream({
    async start(controller) {
      for (const line of first) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`))
      await held
      for (const line of rest) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`))
      controller.close()
    },
  })
  return new HttpResponse(body, { headers: { 'content-type': 'application/x-ndjson' } })
}

let disconnect = () => {}

beforeAll(async () => {
  await loadNamespaces('shell', 'registry')
})

beforeEach(() => {
  sent = []
  downloads = []
  disconnect = connectApiSession({ token: () => 'Bearer test-token', onUnauthorized: () => {} })
  // jsdom makes no object URLs: the download's file is handed to a link by one.
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:rejected')
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined)
  server.use(
    http.post(api(`${BASE}/import/preview/`), () => HttpResponse.json(preview)),
    http.post(api(`${BASE}/import/`), async ({ request }) => {
      const form = await request.formData()
      const mode = form.get('mode') as string | null
      sent.push({ mode, mapping: JSON.parse(String(form.get('mapping'))), authorization: request.headers.get('authorization') })
      if (mode === 'dry_run') return streamed([{ progress: { rows: 0, total: 3 } }, { progress: { rows: 2, total: 3 } }], [{ progress: { rows: 3, total: 3 } }, { result: checked }])
      return streamed([{ progress: { rows: 0, total: 3 } }], [{ result: { ...checked, mode, created: 2, rejected_file: TOKEN } }])
    }),
    http.get(api(`${BASE}/import/rejected/:token`), ({ request, params }) => {
      downloads.push(`${String(params.token)} ${request.headers.get('authorization')}`)
      return new HttpResponse('\ufeffName,Ülke,Notes,Reasons\r\nDover,Atlantis,,Country: No Country is named “Atlantis”.\r\n', { headers: { 'content-type': 'text/csv' } })
    }),
  )
})

afterEach(() => {
  vi.restoreAllMocks()
  disconnect()
})

async function openWithFile() {
  const user = userEvent.setup()
  const onImported = vi.fn()
  const onClose = vi.fn()
  render(<ImportDialog entity={registry.city} isOpen onClose={onClose} onImported={onImported} />)
  const dialog = await screen.findByRole('dialog', { name: 'Import Districts' })
  await user.upload(within(dialog).getByLabelText('CSV or Excel file'), new File(['Name,Ülke,Notes\nKent,United Kingdom,first\n'], 'districts.csv', { type: 'text/csv' }))
  await within(dialog).findByRole('table')
  return { user, dialog, onImported, onClose }
}

describe('the import dialog', () => {
  it('shows each column with its first values and the field the server matched, editable, flagging required fields left out', async () => {
    const { user, dialog } = await openWithFile()
    const name = within(dialog).getByRole('combobox', { name: 'Field for the column Name' })
    const country = within(dialog).getByRole('combobox', { name: 'Field for the column Ülke' })
    const notes = within(dialog).getByRole('combobox', { name: 'Field for the column Notes' })
    expect(name).toHaveValue('name')
    expect(country).toHaveValue('country')
    expect(notes).toHaveValue('')
    expect(within(dialog).getAllByText('United Kingdom · Atlantis').length).toBeGreaterThan(0)
    expect(within(dialog).queryByText(/required fields are not matched/)).toBeNull()

    // A field takes one column: giving Name to Notes takes it from the column Name.
    await user.selectOptions(notes, 'name')
    expect(notes).toHaveValue('name')
    expect(name).toHaveValue('')
    await user.selectOptions(country, '')
    expect(within(dialog).getByText('These required fields are not matched to any column: Country.')).toBeInTheDocument()
    await user.selectOptions(country, 'country')
    expect(within(dialog).queryByText(/required fields are not matched/)).toBeNull()
  })

  it('checks every row with a progress bar read from the stream, then lists the errors row by row', async () => {
    const { user, dialog } = await openWithFile()
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Field for the column Notes' }), 'url')
    await user.click(within(dialog).getByRole('button', { name: 'Check' }))
    const bar = await within(dialog).findByRole('progressbar', { name: 'Checking every row…' })
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '2'))
    expect(bar).toHaveAttribute('aria-valuemax', '3')
    expect(within(dialog).getByText('2 of 3 rows')).toBeInTheDocument()
    expect(sent).toEqual([{ mode: 'dry_run', mapping: { Name: 'name', Ülke: 'country', Notes: 'url' }, authorization: 'Bearer test-token' }])
    release()

    const errors = await within(dialog).findByRole('table')
    const rows = within(errors).getAllByRole('row')
    expect(rows.map((r) => within(r).getAllByRole(r.querySelector('th') ? 'columnheader' : 'cell').map((c) => c.textContent))).toEqual([
      ['Row', 'Field', 'Problem'],
      ['3', 'Country', 'No Country is named “Atlantis”.'],
    ])
    expect(within(dialog).getByText('Some rows have errors (listed below). Nothing has been written yet.')).toBeInTheDocument()
    // All or nothing would write nothing: only the valid rows can go.
    expect(within(dialog).getByRole('button', { name: 'Import all or nothing' })).toBeDisabled()
    expect(within(dialog).getByRole('button', { name: 'Import valid rows' })).toBeEnabled()
  })

  it('imports the valid rows, says what was imported and downloads the rejected rows with the token', async () => {
    const { user, dialog, onImported } = await openWithFile()
    await user.click(within(dialog).getByRole('button', { name: 'Check' }))
    release()
    await user.click(await within(dialog).findByRole('button', { name: 'Import valid rows' }))
    expect(await within(dialog).findByRole('progressbar', { name: 'Importing…' })).toBeInTheDocument()
    release()
    const download = await within(dialog).findByRole('button', { name: 'Download rejected rows' })
    expect(sent.map((s) => s.mode)).toEqual(['dry_run', 'batches'])
    expect(onImported).toHaveBeenCalledWith(2)
    expect(within(dialog).getByText('The import is finished.')).toBeInTheDocument()
    const imported = within(dialog).getByText('Imported').closest('div')!
    expect(imported).toHaveTextContent('2')
    await user.click(download)
    await waitFor(() => expect(downloads).toEqual([`${TOKEN} Bearer test-token`]))
  })

  it('shows what the server refuses in the request, in the caller’s language', async () => {
    await changeLanguage('tr')
    server.use(http.post(api(`${BASE}/import/preview/`), () => HttpResponse.json({ detail: 'Yalnızca CSV ve Excel (.xlsx) dosyaları içe aktarılabilir.' }, { status: 400 })))
    const user = userEvent.setup()
    render(<ImportDialog entity={registry.city} isOpen onClose={() => {}} onImported={() => {}} />)
    const dialog = await screen.findByRole('dialog')
    await user.upload(within(dialog).getByLabelText('CSV veya Excel dosyası'), new File(['x'], 'a.csv', { type: 'text/csv' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Yalnızca CSV ve Excel (.xlsx) dosyaları içe aktarılabilir.')
  })
})
