import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { registry } from '../../schema'
import { changeLanguage, loadNamespaces } from '../../src/i18n'
import { connectApiSession } from '../../src/engine/api-session'
import { fileNameOf } from '../../src/engine/download'
import { ExportMenu } from '../../src/engine/list/ExportMenu'
import { api, cityBase } from './support/fixtures'
import { server } from './support/server'

/**
 * Export from a list's header (issue 25): the menu offers CSV and Excel; the file the server
 * streams is fetched with the session's token and language, a progress bar says how far it
 * is (rows of a CSV against X-Total-Count, the size of a workbook), Cancel stops it, the
 * whole file is saved under the server's name, and a refusal is said in the server's words.
 */
const CSV_HEAD = 'Name,District\r\n'

/** A streamed answer the test feeds by hand. */
function feed() {
  const encoder = new TextEncoder()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  return { stream, push: (text: string) => controller.enqueue(encoder.encode(text)), end: () => controller.close() }
}

let saved: Array<{ name: string; blob: Blob }> = []
const blobs = new Map<string, Blob>()

let disconnect = () => {}

beforeAll(async () => {
  await loadNamespaces('shell', 'registry')
})

beforeEach(() => {
  saved = []
  disconnect = connectApiSession({ token: () => 'Bearer test-token', onUnauthorized: () => {} })
  let n = 0
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const href = `blob:export-${++n}`
    blobs.set(href, blob as Blob)
    return href
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href') ?? '')! })
  })
})

afterEach(() => {
  vi.restoreAllMocks()
  disconnect()
})

const params = { page: 3, size: 50, ordering: '-name', search: ' dha ', filters: { country: '5' } }

function answering(respond: (request: Request) => Response | Promise<Response>) {
  const asked: Request[] = []
  server.use(
    http.get(api(`${cityBase}/export/`), ({ request }) => {
      asked.push(request)
      return respond(request)
    }),
  )
  return asked
}

async function choose(label: RegExp, button: RegExp = /export/i) {
  const user = userEvent.setup()
  await user.click(screen.getByRole('button', { name: button }))
  await user.click(await screen.findByRole('menuitem', { name: label }))
  return user
}

describe('exporting a list', () => {
  it('asks for the list as shown (not its page), shows the rows coming against the total, and saves the file', async () => {
    const body = feed()
    const asked = answering(
      () =>
        new HttpResponse(body.stream, {
          headers: { 'Content-Type': 'text/csv; charset=utf-8', 'X-Total-Count': '12345', 'Content-Disposition': 'attachment; filename="cities-2026-05-04.csv"' },
        }),
    )
    render(<ExportMenu entity={registry.city} params={params} columns={['name', 'country']} />)
    await choose(/^CSV$/)
    await waitFor(() => expect(asked).toHaveLength(1))
    const url = new URL(asked[0]!.url)
    expect(Object.fromEntries(url.searchParams)).toEqual({ country: '5', q: 'dha', ordering: '-name', columns: 'name,country', format: 'csv' })
    expect(asked[0]!.headers.get('authorization')).toBe('Bearer test-token')
    expect(asked[0]!.headers.get('accept-language')).toBe('en')

    body.push(`\ufeff${CSV_HEAD}`)
    body.push(`${'"Dhaka","Bangladesh"\r\n'.repeat(2000)}"Dha`)
    const bar = await screen.findByRole('progressbar', { name: 'Export progress' })
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '2000'))
    expect(bar).toHaveAttribute('aria-valuemax', '12345')
    expect(screen.getByText('Exporting… 2,000 of 12,345 rows')).toBeInTheDocument()
    body.push('ka 2","Bangladesh"\r\n')
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '2001'))
    body.end()

    await waitFor(() => expect(saved).toHaveLength(1))
    expect(saved[0]!.name).toBe('cities-2026-05-04.csv')
    expect(saved[0]!.blob.type).toBe('text/csv; charset=utf-8')
    expect(await saved[0]!.blob.text()).toContain('"Dhaka 2","Bangladesh"')
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: /export/i })).toBeInTheDocument()
  })

  it('says a workbook’s progress by its size, in the user’s language, and saves it', async () => {
    await changeLanguage('tr')
    const body = feed()
    const asked = answering(
      () =>
        new HttpResponse(body.stream, {
          headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'X-Total-Count': '40', 'Content-Disposition': 'attachment; filename="cities-2026-05-04.xlsx"' },
        }),
    )
    render(<ExportMenu entity={registry.city} params={{ page: 1, size: 30 }} />)
    await choose(/^Excel \(XLSX\)$/, /dışa aktar/i)
    await waitFor(() => expect(asked).toHaveLength(1))
    expect(Object.fromEntries(new URL(asked[0]!.url).searchParams)).toEqual({ format: 'xlsx' })
    expect(asked[0]!.headers.get('accept-language')).toBe('tr')
    body.push('x'.repeat(2_500))
    expect(await screen.findByText('Dışa aktarılıyor… 2,5 kB')).toBeInTheDocument()
    // Rows of a zip cannot be counted: the bar says how far in words, not a share.
    expect(screen.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow')
    body.end()
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['cities-2026-05-04.xlsx']))
  })

  it('stops the download on Cancel and saves nothing', async () => {
    const body = feed()
    const asked = answering(() => new HttpResponse(body.stream, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'X-Total-Count': '50000' } }))
    render(<ExportMenu entity={registry.city} params={params} />)
    const user = await choose(/^CSV$/)
    body.push(`${CSV_HEAD}"A","B"\r\n`)
    expect(await screen.findByText('Exporting… 1 of 50,000 rows')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    await waitFor(() => expect(asked[0]!.signal.aborted).toBe(true))
    expect(saved).toEqual([])
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: /export/i })).toBeEnabled()
  })

  it('says why the server refused, in its words, and lets the user dismiss it', async () => {
    answering(() => HttpResponse.json({ columns: ["'nope' is not a column of this list."] }, { status: 400 }))
    render(<ExportMenu entity={registry.city} params={params} columns={['nope']} />)
    const user = await choose(/^CSV$/)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("The export failed: 'nope' is not a column of this list.")
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(saved).toEqual([])

    answering(() => HttpResponse.json({ detail: 'Another export is running. Try again in a moment.' }, { status: 429 }))
    await choose(/^Excel/)
    expect(await screen.findByRole('alert')).toHaveTextContent('The export failed: Another export is running. Try again in a moment.')
  })

  it('says a download cut off by the network as the app says an unreachable server', async () => {
    answering(() => HttpResponse.error())
    render(<ExportMenu entity={registry.city} params={params} />)
    await choose(/^CSV$/)
    expect(await screen.findByRole('alert')).toHaveTextContent('The server could not be reached')
  })
})

describe('the file’s name', () => {
  it('is the server’s, never a path', () => {
    expect(fileNameOf('attachment; filename="cities-2026-05-04.csv"')).toBe('cities-2026-05-04.csv')
    expect(fileNameOf("attachment; filename*=UTF-8''%C4%B0l%C3%A7eler.csv; filename=\"x.csv\"")).toBe('İlçeler.csv')
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe('passwd')
    expect(fileNameOf(null)).toBeUndefined()
  })
})
