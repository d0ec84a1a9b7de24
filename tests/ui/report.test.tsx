import { createMemoryHistory } from '@tanstack/react-router'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { entities, registry, reportRegistry } from '../../schema'
import { defineReport, f } from '../../schema/kit'
import type { Report } from '../../schema/kit/report'
import { App } from '../../src/app/App'
import { createQueryClient } from '../../src/app/query-client'
import { createAppRouter } from '../../src/app/router'
import { buildSignedInRoutes } from '../../src/app/signed-in-routes'
import { session } from '../../src/auth/session'
import { checkSession } from '../../src/auth/start-up'
import { reportSearchOf } from '../../src/engine/report/report-search'
import { i18n } from '../../src/i18n'
import { gadgetSales, throwawayCatalogue } from '../support/throwaway-registry'
import { accessTokenAnswers, api, clerkUser, envelope, storeSession, storeSessionOf } from './support/fixtures'
import { server } from './support/server'

/**
 * The generic report screen, from a report defined in the test (gadget sales: paged, with
 * totals, a rule across its dates) and the app's own staff costs (unpaged): the parameters
 * in the address, Run and Enter, the rows and the totals row, paging, the registry's rule
 * and the server's field errors on their fields, the CSV and PDF downloads with the session's
 * token, Print, and the guard; and a report with a chart, hidden columns and drill-downs (branch
 * sales: a branch opens its record, an amount the gadget sales of the same period).
 */
const staffCosts = reportRegistry.staff_costs

const branchSales = defineReport({
  name: 'branch_sales',
  module: 'test',
  route: 'branch-sales',
  params: { date_after: f.date({ label: 'field.emp_join_date' }), date_before: f.date({ label: 'field.marriage_date' }) },
  columns: { branch: f.text(), amount: f.money({ label: 'field.basic_money' }) },
  hidden: { branch_id: f.integer(), state: f.text() },
  totals: ['amount'],
  chart: { kind: 'bar', label: 'branch', values: ['amount'] },
  drill: { branch: { entity: 'branch', id: 'branch_id' }, amount: { report: 'gadget_sales', params: { status: 'state' } } },
})

async function renderReportApp(path: string, reports: readonly Report[] = [gadgetSales, staffCosts]) {
  const history = createMemoryHistory({ initialEntries: [path] })
  const queryClient = createQueryClient()
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0 } })
  const router = createAppRouter({ entities, reports, signedInRoutes: buildSignedInRoutes, history, queryClient })
  session.restart()
  const user = userEvent.setup()
  const view = render(<App router={router} />)
  await act(() => checkSession())
  return { ...view, router, user }
}

const gadgetRows = [
  { gadget: 'Sprocket', orders: 12, quantity: 40, amount: '1250.50' },
  { gadget: 'Widget', orders: 3, quantity: 1200, amount: '7.00' },
]
const gadgetTotals = { orders: '15', quantity: '1240', amount: '1257.50' }

/** The gadget sales run: records each query string; answers `answer(params)` or the two rows. */
function gadgetSalesAnswers(asked: URLSearchParams[], answer?: (params: URLSearchParams) => Response | undefined) {
  return http.get(api(`${gadgetSales.api.base}/`), ({ request }) => {
    const params = new URL(request.url).searchParams
    asked.push(params)
    const custom = answer?.(params)
    if (custom) return custom
    const size = Number(params.get('size') ?? 30)
    const page = Number(params.get('page') ?? 1)
    return HttpResponse.json({ rows: gadgetRows, page, size, total_pages: 1, total_elements: gadgetRows.length, totals: gadgetTotals })
  })
}

/** Reference selects and the dashboard ask for lists: empty ones do. */
const anyList = http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', [], 1, 20, 0)))

const search = (router: { state: { location: { search: unknown } } }) => router.state.location.search as Record<string, unknown>

beforeAll(() => {
  i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
  i18n.addResourceBundle('en', 'translation', { report: { branch_sales: 'Branch sales' } }, true, true)
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a report’s address', () => {
  it('keeps its parameters and a valid page and size, and nothing else', () => {
    expect(reportSearchOf(gadgetSales, { status: 'draft', date_after: '', other: 'x', page: 3, size: 50 })).toEqual({ status: 'draft', page: 3, size: 50 })
    // The first page and the default size are not written; a size the lists do not offer is dropped.
    expect(reportSearchOf(gadgetSales, { page: 1, size: 30 })).toEqual({})
    expect(reportSearchOf(gadgetSales, { page: -2, size: 40 })).toEqual({})
    // An unpaged report has no pages.
    expect(reportSearchOf(staffCosts, { branch: 3, is_active: 'yes', page: 2 })).toEqual({ branch: 3, is_active: 'yes' })
  })
})

describe('report routes', () => {
  it('gives every report a screen at its path', () => {
    const router = createAppRouter({ entities, reports: [gadgetSales, staffCosts], signedInRoutes: buildSignedInRoutes, history: createMemoryHistory() })
    expect(Object.keys(router.routesByPath)).toEqual(expect.arrayContaining(['/apps/report-management/gadget-sales', '/apps/report-management/staff-cost-reports']))
  })

  it('sends a user without the report’s permission to their dashboard', async () => {
    storeSessionOf(clerkUser)
    server.use(accessTokenAnswers(clerkUser), anyList)
    const { router } = await renderReportApp(staffCosts.ui.path)
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
    expect(await screen.findByText('You do not have permission to open that page.')).toBeInTheDocument()
  })
})

describe('the report screen', () => {
  it('runs the report its address describes: the rows, numbers at the end, money as the lists show it, and the totals row', async () => {
    storeSession()
    const asked: URLSearchParams[] = []
    server.use(anyList, gadgetSalesAnswers(asked))
    await renderReportApp(`${gadgetSales.ui.path}?status=confirmed&date_after=2026-01-01`)
    expect(await screen.findByRole('heading', { name: 'Gadget sales' })).toBeInTheDocument()
    const sprocket = (await screen.findByText('Sprocket')).closest('tr')!
    expect(within(sprocket).getByText('1,250.50')).toHaveClass('text-end')
    expect(within(sprocket).getByText('40').closest('td')).toHaveClass('text-end')
    expect(Object.fromEntries(asked[0]!)).toEqual({ status: 'confirmed', date_after: '2026-01-01', page: '1', size: '30' })
    // The form shows the parameters of the address.
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('confirmed')
    expect(screen.getByLabelText('Join Date')).toHaveValue('2026-01-01')
    // The totals row sums every row of the run, formatted as its column.
    const totals = screen.getAllByRole('rowgroup').find((g) => g.tagName === 'TFOOT')!
    expect(within(totals).getByRole('rowheader', { name: 'Totals' })).toBeInTheDocument()
    expect(within(totals).getByText('1,257.50')).toHaveClass('text-end')
    expect(within(totals).getByText('1,240')).toBeInTheDocument()
    expect(screen.getByText('2 rows')).toBeInTheDocument()
    // What a printout says it was made of.
    const used = screen.getByRole('region', { name: 'Parameters' })
    expect(within(used).getByText('Confirmed')).toBeInTheDocument()
    expect(within(used).getByText('Join Date')).toBeInTheDocument()
  })

  it('keeps the parameters in the address: Run writes them, Enter runs too, and the same address shows the same report', async () => {
    storeSession()
    const asked: URLSearchParams[] = []
    server.use(anyList, gadgetSalesAnswers(asked))
    const { user, router, unmount } = await renderReportApp(gadgetSales.ui.path)
    // No parameters needed: it runs at once.
    await screen.findByText('Sprocket')
    expect(asked.map((p) => p.get('status'))).toEqual([null])

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'draft')
    await user.click(screen.getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(search(router)).toEqual({ status: 'draft' }))
    await waitFor(() => expect(asked.at(-1)?.get('status')).toBe('draft'))

    fireEvent.change(screen.getByLabelText('Join Date'), { target: { value: '2026-02-01' } })
    await user.type(screen.getByLabelText('Join Date'), '{Enter}')
    await waitFor(() => expect(search(router)).toEqual({ status: 'draft', date_after: '2026-02-01' }))
    await waitFor(() => expect(Object.fromEntries(asked.at(-1)!)).toMatchObject({ status: 'draft', date_after: '2026-02-01' }))
    const href = router.state.location.href
    expect(href).toBe('/apps/report-management/gadget-sales?status=draft&date_after=2026-02-01')

    // Run again with the same parameters: the server is asked again.
    const before = asked.length
    await user.click(screen.getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(asked.length).toBe(before + 1))

    // A reload, or the link shared: the same parameters, the same run.
    unmount()
    asked.length = 0
    await renderReportApp(href)
    expect(await screen.findByRole('combobox', { name: 'Type' })).toHaveValue('draft')
    expect(screen.getByLabelText('Join Date')).toHaveValue('2026-02-01')
    await screen.findByText('Sprocket')
    expect(Object.fromEntries(asked[0]!)).toMatchObject({ status: 'draft', date_after: '2026-02-01' })
  })

  it('shows the registry’s rule on its field without asking the server, and the server’s field errors on theirs', async () => {
    storeSession()
    const asked: URLSearchParams[] = []
    server.use(
      anyList,
      gadgetSalesAnswers(asked, (params) => (params.get('status') === 'cancelled' ? HttpResponse.json({ status: ['Cancelled orders are not reported.'] }, { status: 400 }) : undefined)),
    )
    const { user, router } = await renderReportApp(gadgetSales.ui.path)
    await screen.findByText('Sprocket')

    fireEvent.change(screen.getByLabelText('Join Date'), { target: { value: '2026-03-01' } })
    fireEvent.change(screen.getByLabelText('Marriage Date'), { target: { value: '2026-02-01' } })
    await user.click(screen.getByRole('button', { name: 'Run' }))
    expect(await screen.findByText('Enter a valid date (YYYY-MM-DD).')).toBeInTheDocument()
    expect(asked).toHaveLength(1)
    expect(search(router)).toEqual({})

    fireEvent.change(screen.getByLabelText('Marriage Date'), { target: { value: '' } })
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'cancelled')
    await user.click(screen.getByRole('button', { name: 'Run' }))
    expect(await screen.findByText('Cancelled orders are not reported.')).toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('alert')).toHaveTextContent('Check the parameters.')
    expect(screen.queryByText('Sprocket')).not.toBeInTheDocument()
  })

  it('shows what is wrong with parameters in the address and does not run them', async () => {
    storeSession()
    const asked: URLSearchParams[] = []
    server.use(anyList, gadgetSalesAnswers(asked))
    await renderReportApp(`${gadgetSales.ui.path}?date_after=2026-03-01&date_before=2026-02-01`)
    expect(await screen.findByText('Enter a valid date (YYYY-MM-DD).')).toBeInTheDocument()
    expect(screen.getByText('Choose the parameters and press Run.')).toBeInTheDocument()
    expect(asked).toHaveLength(0)
  })

  it('pages a paged report with 30, 50 or 100 rows a page, in the address', async () => {
    storeSession()
    const asked: URLSearchParams[] = []
    server.use(
      anyList,
      gadgetSalesAnswers(asked, (params) => {
        const size = Number(params.get('size'))
        const page = Number(params.get('page'))
        const rows = Array.from({ length: Math.min(size, 75 - (page - 1) * size) }, (_, i) => ({ gadget: `Gadget ${(page - 1) * size + i + 1}`, orders: 1, quantity: 1, amount: '1.00' }))
        return HttpResponse.json({ rows, page, size, total_pages: Math.ceil(75 / size), total_elements: 75, totals: { orders: '75', quantity: '75', amount: '75.00' } })
      }),
    )
    const { user, router } = await renderReportApp(gadgetSales.ui.path)
    await screen.findByText('Gadget 1')
    expect(screen.getByText('1–30 of 75')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next page' }))
    await screen.findByText('Gadget 31')
    expect(search(router)).toEqual({ page: 2 })
    expect(asked.at(-1)?.get('page')).toBe('2')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50')
    await screen.findByText('Gadget 50')
    expect(search(router)).toEqual({ size: 50 })
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument()
    // The totals are the run's, whatever the page.
    expect(within(screen.getAllByRole('rowgroup').find((g) => g.tagName === 'TFOOT')!).getByText('75.00')).toBeInTheDocument()
  })

  it('says so when a run has no rows', async () => {
    storeSession()
    server.use(anyList, gadgetSalesAnswers([], () => HttpResponse.json({ rows: [], page: 1, size: 30, total_pages: 1, total_elements: 0, totals: { orders: '0', quantity: '0', amount: '0' } })))
    await renderReportApp(gadgetSales.ui.path)
    expect(await screen.findByText('No rows for these parameters.')).toBeInTheDocument()
    expect(screen.getAllByRole('rowgroup').some((g) => g.tagName === 'TFOOT')).toBe(false)
  })

  it('downloads the CSV of the run with the session’s token and language, as <report>.csv', async () => {
    storeSession()
    const csvAsked: { url: URL; authorization: string | null; language: string | null }[] = []
    server.use(
      anyList,
      gadgetSalesAnswers([]),
      http.get(api(`${gadgetSales.api.base}/csv`), ({ request }) => {
        csvAsked.push({ url: new URL(request.url), authorization: request.headers.get('authorization'), language: request.headers.get('accept-language') })
        return new HttpResponse('\ufeffDistrict,Serial Number\r\nSprocket,12\r\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } })
      }),
    )
    const saved: { name: string; href: string }[] = []
    const blobs: Blob[] = []
    URL.createObjectURL = vi.fn((blob: Blob) => (blobs.push(blob), 'blob:report')) as typeof URL.createObjectURL
    URL.revokeObjectURL = vi.fn()
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.getAttribute('href') ?? '' })
    })
    const { user } = await renderReportApp(`${gadgetSales.ui.path}?status=draft`)
    await screen.findByText('Sprocket')
    await user.click(screen.getByRole('button', { name: 'Download CSV' }))
    await waitFor(() => expect(saved).toEqual([{ name: 'gadget_sales.csv', href: 'blob:report' }]))
    expect(csvAsked).toHaveLength(1)
    expect(csvAsked[0]!.authorization).toBe(localStorage.getItem('jwt_access_token'))
    expect(csvAsked[0]!.authorization).toMatch(/^Bearer /)
    expect(csvAsked[0]!.language).toBe('en')
    expect(Object.fromEntries(csvAsked[0]!.url.searchParams)).toEqual({ status: 'draft' })
    expect(await blobs[0]!.text()).toContain('Sprocket,12')
  })

  it('prints with the browser’s print', async () => {
    storeSession()
    server.use(anyList, gadgetSalesAnswers([]))
    const print = vi.fn()
    window.print = print
    const { user } = await renderReportApp(gadgetSales.ui.path)
    await screen.findByText('Sprocket')
    await user.click(screen.getByRole('button', { name: 'Print' }))
    expect(print).toHaveBeenCalledOnce()
  })

  it('shows the app’s staff costs, unpaged, its money as money (two places, grouped) in rows and totals', async () => {
    storeSession()
    const asked: URLSearchParams[] = []
    server.use(
      anyList,
      http.get(api(`${staffCosts.api.base}/`), ({ request }) => {
        asked.push(new URL(request.url).searchParams)
        return HttpResponse.json({
          rows: [
            { branch: 'Dhaka', employees: 2, basic_money: 72000, allowance_money: 5000, total_money: 77000 },
            { branch: 'Sylhet', employees: 1, basic_money: 30000, allowance_money: 0, total_money: 30000 },
          ],
          page: 1,
          size: 2,
          total_pages: 1,
          total_elements: 2,
          totals: { employees: '3', basic_money: '102000', allowance_money: '5000', total_money: '107000' },
        })
      }),
    )
    const { user, router } = await renderReportApp(staffCosts.ui.path)
    expect(await screen.findByRole('heading', { name: 'Staff costs by branch' })).toBeInTheDocument()
    await screen.findByText('Dhaka')
    const totals = screen.getAllByRole('rowgroup').find((g) => g.tagName === 'TFOOT')!
    expect(within(totals).getByText('102,000.00')).toHaveClass('text-end')
    expect(within(totals).getByText('107,000.00')).toBeInTheDocument()
    // A head count stays a whole number; a branch without allowances shows 0.00, not 0.
    expect(within(totals).getByText('3')).toBeInTheDocument()
    expect(screen.getAllByText('0.00').length).toBeGreaterThan(0)
    // Unpaged: no page or size asked, no pages shown.
    expect(Object.fromEntries(asked[0]!)).toEqual({})
    expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument()
    await user.selectOptions(screen.getByRole('combobox', { name: 'Active' }), 'yes')
    await user.click(screen.getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(search(router)).toEqual({ is_active: 'yes' }))
    await waitFor(() => expect(asked.at(-1)?.get('is_active')).toBe('yes'))
  })
})

/** Branch sales: a page of two branches (the second with no id to open), their hidden columns apart, and the chart's points. */
function branchSalesAnswers(asked: { runs: URLSearchParams[]; charts: URLSearchParams[] }) {
  return [
    http.get(api(`${branchSales.api.base}/`), ({ request }) => {
      const params = new URL(request.url).searchParams
      asked.runs.push(params)
      const page = Number(params.get('page') ?? 1)
      return HttpResponse.json({
        rows: page === 1 ? [{ branch: 'Head office', amount: '1250.50' }, { branch: 'Nowhere', amount: '7.00' }] : [{ branch: 'Sylhet', amount: '3.00' }],
        hidden: page === 1 ? [{ branch_id: '3', state: 'confirmed' }, { branch_id: null, state: null }] : [{ branch_id: 4, state: 'draft' }],
        page,
        size: 30,
        total_pages: 2,
        total_elements: 31,
        totals: { amount: '1260.50' },
      })
    }),
    http.get(api(`${branchSales.api.base}/chart`), ({ request }) => {
      asked.charts.push(new URL(request.url).searchParams)
      return HttpResponse.json({ points: [{ label: 'Head office', values: { amount: '1250.50' }, is_other: false }, { label: null, values: { amount: '10.00' }, is_other: true }], is_cut: false })
    }),
  ]
}

describe('a report with a chart and drill-downs', () => {
  const reports = [gadgetSales, staffCosts, branchSales]

  it('draws the chart of every row of the run above the table, asked once whatever the page', async () => {
    storeSession()
    const asked = { runs: [] as URLSearchParams[], charts: [] as URLSearchParams[] }
    server.use(anyList, ...branchSalesAnswers(asked))
    const { user } = await renderReportApp(`${branchSales.ui.path}?date_after=2026-01-01`, reports)
    const figure = await screen.findByRole('figure', { name: 'Chart of Branch sales' })
    // The chart is its own chunk, drawn once it has come.
    expect(await within(figure).findByTestId('report-chart-branch_sales')).toBeInTheDocument()
    expect(figure.compareDocumentPosition(screen.getByRole('table')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(asked.charts.map((p) => Object.fromEntries(p))).toEqual([{ date_after: '2026-01-01' }])
    await user.click(screen.getByRole('button', { name: 'Next page' }))
    await screen.findByText('Sylhet')
    expect(asked.runs.at(-1)?.get('page')).toBe('2')
    expect(asked.charts).toHaveLength(1)
  })

  it('links a figure to its record, or to the report it is made of with this run’s period and its own parameters', async () => {
    storeSession()
    server.use(anyList, ...branchSalesAnswers({ runs: [], charts: [] }))
    await renderReportApp(`${branchSales.ui.path}?date_after=2026-01-01&date_before=2026-03-31`, reports)
    expect(await screen.findByRole('link', { name: 'Head office' })).toHaveAttribute('href', `${registry.branch.ui.formPath}/3`)
    expect(screen.getByRole('link', { name: '1,250.50' })).toHaveAttribute('href', `${gadgetSales.ui.path}?status=confirmed&date_after=2026-01-01&date_before=2026-03-31`)
    // No id to open, no link; a parameter the row leaves empty is left out.
    expect(screen.queryByRole('link', { name: 'Nowhere' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: '7.00' })).toHaveAttribute('href', `${gadgetSales.ui.path}?date_after=2026-01-01&date_before=2026-03-31`)
    // The totals lead nowhere.
    const totals = screen.getAllByRole('rowgroup').find((g) => g.tagName === 'TFOOT')!
    expect(within(totals).queryByRole('link')).not.toBeInTheDocument()
  })

  it('leaves a figure as text for a user who may not open what it leads to', async () => {
    const viewer = { ...clerkUser, permissions: ['BRANCH_SALES_VIEW'] }
    storeSessionOf(viewer)
    server.use(accessTokenAnswers(viewer), anyList, ...branchSalesAnswers({ runs: [], charts: [] }))
    await renderReportApp(branchSales.ui.path, reports)
    expect(await screen.findByText('Head office')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Head office' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: '1,250.50' })).not.toBeInTheDocument()
  })

  it('downloads the PDF the server draws of the run, with the session’s token and language, as <report>.pdf', async () => {
    storeSession()
    const pdfAsked: { url: URL; authorization: string | null; language: string | null; accept: string | null }[] = []
    server.use(
      anyList,
      ...branchSalesAnswers({ runs: [], charts: [] }),
      http.get(api(`${branchSales.api.base}/pdf`), ({ request }) => {
        pdfAsked.push({ url: new URL(request.url), authorization: request.headers.get('authorization'), language: request.headers.get('accept-language'), accept: request.headers.get('accept') })
        return new HttpResponse('%PDF-1.3', { headers: { 'content-type': 'application/pdf' } })
      }),
    )
    const saved: string[] = []
    URL.createObjectURL = vi.fn(() => 'blob:report') as typeof URL.createObjectURL
    URL.revokeObjectURL = vi.fn()
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download)
    })
    const { user } = await renderReportApp(`${branchSales.ui.path}?date_before=2026-03-31`, reports)
    await screen.findByText('Head office')
    await user.click(screen.getByRole('button', { name: 'Download PDF' }))
    await waitFor(() => expect(saved).toEqual(['branch_sales.pdf']))
    expect(pdfAsked).toHaveLength(1)
    expect(pdfAsked[0]!.authorization).toMatch(/^Bearer /)
    expect([pdfAsked[0]!.language, pdfAsked[0]!.accept]).toEqual(['en', 'application/pdf'])
    expect(Object.fromEntries(pdfAsked[0]!.url.searchParams)).toEqual({ date_before: '2026-03-31' })
  })

  it('says so when the PDF cannot be had', async () => {
    storeSession()
    server.use(anyList, ...branchSalesAnswers({ runs: [], charts: [] }), http.get(api(`${branchSales.api.base}/pdf`), () => HttpResponse.json({ detail: 'Down for a moment.' }, { status: 503 })))
    const { user } = await renderReportApp(branchSales.ui.path, reports)
    await screen.findByText('Head office')
    await user.click(screen.getByRole('button', { name: 'Download PDF' }))
    expect(await screen.findByText(/The PDF could not be downloaded\./)).toBeInTheDocument()
  })
})
