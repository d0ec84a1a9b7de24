import { act, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { todayIso } from '../../schema/kit/validators'
import { changeLanguage, i18n } from '../../src/i18n'
import { tidyDate } from '../../src/engine/widgets/DateInput'
import { gadgetOrder, throwawayCatalogue, throwawayEntities } from '../support/throwaway-registry'
import { adminUser, api, cityHandlers, envelope, storeSessionOf, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The generic form's behaviour (issue 8, forms): where the keyboard goes, sections, the
 * district → police station cascade, values checked rather than cut, dates in the
 * interface's language and direction, and an empty record refused.
 */
const userBase = registry.user.api.base
const countryBase = registry.country.api.base
const cityBase = registry.city.api.base
const sliderBase = registry.homepage_slider.api.base

const countries = [
  { id: 18, name: 'Bangladesh' },
  { id: 19, name: 'Nepal' },
]
const cities = [
  { id: 1, name: 'Dhaka', country: { id: 18, name: 'Bangladesh' } },
  { id: 2, name: 'Chattogram', country: { id: 18, name: 'Bangladesh' } },
  { id: 5, name: 'Kathmandu', country: { id: 19, name: 'Nepal' } },
]

const flat = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'object' && v !== null && 'id' in v ? (v as { id: number }).id : v]))

/** Countries, districts and police stations, filtered as the server's `search/?city=` does; `seen` records the filtered searches. */
function geoHandlers(seen: string[]) {
  const list = (listKey: string, rows: readonly Record<string, unknown>[]) => ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    const q = (url.searchParams.get('q') ?? '').toLowerCase()
    const filters = [...url.searchParams].filter(([k]) => !['q', 'page', 'size'].includes(k))
    if (url.pathname.endsWith('/search/')) seen.push(`${listKey}?${filters.map(([k, v]) => `${k}=${v}`).join('&')}`)
    const matching = rows.filter((r) => String(r.name).toLowerCase().includes(q) && filters.every(([k, v]) => String((r[k] as { id: number }).id) === v))
    return HttpResponse.json(envelope(listKey, matching, 1, 20))
  }
  const record = (rows: readonly Record<string, unknown>[]) => ({ params }: { params: Record<string, string | readonly string[] | undefined> }) => {
    if (!/^\d+$/.test(String(params.id))) return undefined
    const row = rows.find((r) => String(r.id) === params.id)
    return row ? HttpResponse.json(flat(row)) : HttpResponse.json({ detail: 'missing' }, { status: 404 })
  }
  return [
    http.get(api(`${countryBase}/all/`), list('countries', countries)),
    http.get(api(`${countryBase}/:id`), record(countries)),
    http.get(api(`${cityBase}/all/`), list('cities', cities)),
    http.get(api(`${cityBase}/search/`), list('cities', cities)),
    http.get(api(`${cityBase}/:id`), record(cities)),
    http.get(api(`${thanaBase}/all/`), list('thanas', thanaRows)),
    http.get(api(`${thanaBase}/search/`), list('thanas', thanaRows)),
    http.get(api(`${thanaBase}/:id`), record(thanaRows)),
  ]
}

/** The other lookups of the user and employee forms (roles, branches…): empty lists. */
const anyLookup = http.get(api('/:entity/api/v1/:same/all/'), ({ params }) => HttpResponse.json(envelope(`${String(params.entity)}s`, [])))

beforeEach(() => {
  storeSessionOf(adminUser)
})

describe('focus', () => {
  it('puts the keyboard in the first field of a new form', async () => {
    server.use(...cityHandlers)
    await renderApp('/apps/thana-management/thanas/new')
    await screen.findByRole('heading', { name: 'New Police Station' })
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveFocus())
  })

  it('focuses a first field that is a picker without opening its options', async () => {
    server.use(http.get(api(`${registry.employee.api.base}/all/`), () => HttpResponse.json(envelope('employees', []))))
    const { user } = await renderApp('/apps/qualification-management/qualifications/new')
    await screen.findByRole('heading', { name: 'New Qualification' })
    const employee = screen.getByRole('combobox', { name: /^Employee/ })
    await waitFor(() => expect(employee).toHaveFocus())
    expect(employee).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    // A click, or the arrow key, opens them.
    await user.keyboard('{ArrowDown}')
    expect(await screen.findByRole('listbox')).toBeInTheDocument()
  })

  it('after a failed save, focuses the first invalid field in the form’s order, a document’s lines included', async () => {
    i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
    let posts = 0
    server.use(...cityHandlers, http.post(api(`${gadgetOrder.api.base}/create/`), () => ((posts += 1), HttpResponse.json({}, { status: 201 }))))
    const { user } = await renderApp(`${gadgetOrder.ui.formPath}/new`, { entities: throwawayEntities })
    await screen.findByRole('heading', { name: 'New Gadget order' })
    await user.type(screen.getByLabelText(/^Join Date/), '2026-11-22')
    // The e-mail comes before the lines, the note after them.
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-email')
    await user.type(screen.getByRole('textbox', { name: 'Full Description' }), 'x'.repeat(201))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Email' })).toHaveFocus())

    await user.clear(screen.getByRole('textbox', { name: 'Email' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    // The first line's district (required) is before the note.
    await waitFor(() => expect(screen.getByLabelText('District, line 1')).toHaveFocus())
    expect(posts).toBe(0)
  })

  it('after the server’s field map, focuses the first field it names in the form’s order, not the map’s', async () => {
    server.use(
      ...cityHandlers,
      http.post(api(`${thanaBase}/create/`), () => HttpResponse.json({ city: ['Police Station is not in the chosen District.'], name: ['Police Station with this Name already exists.'] }, { status: 400 })),
    )
    const { user } = await renderApp('/apps/thana-management/thanas/new')
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Gulshan')
    const district = screen.getByRole('combobox', { name: /^District/ })
    await user.click(district)
    await user.click(await screen.findByRole('option', { name: 'Dhaka' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Police Station with this Name already exists.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveFocus())
  })
})

describe('sections', () => {
  it('lays the employee form out in the registry’s sections, each a named group under its heading', async () => {
    server.use(anyLookup)
    await renderApp('/apps/employee-management/employees/new')
    await screen.findByRole('heading', { name: 'New Employee' })
    const groups = screen.getAllByRole('group').filter((g) => g.tagName === 'FIELDSET' && g.querySelector(':scope > legend'))
    expect(groups.map((g) => within(g).getByRole('heading', { level: 2 }).textContent)).toEqual(['Account', 'Personal', 'Address', 'Employment'])
    const group = (name: string) => screen.getByRole('group', { name })
    expect(within(group('Account')).getByRole('textbox', { name: /^User Name/ })).toBeInTheDocument()
    expect(within(group('Personal')).getByRole('textbox', { name: /^First Name/ })).toBeInTheDocument()
    expect(within(group('Address')).getByRole('combobox', { name: /^Police Station/ })).toBeInTheDocument()
    expect(within(group('Address')).getByRole('textbox', { name: 'Postal Code' })).toBeInTheDocument()
    expect(within(group('Employment')).getByRole('combobox', { name: /^Branch/ })).toBeInTheDocument()
    // Every field the form shows is in one of them.
    const rows = document.querySelectorAll('form [data-field]')
    expect(rows.length).toBeGreaterThan(30)
    for (const row of rows) expect(row.closest('fieldset:has(> legend)')).not.toBeNull()
  })

  it('keeps a form without sections one grid, with no headings of its own', async () => {
    server.use(...cityHandlers)
    await renderApp('/apps/thana-management/thanas/new')
    await screen.findByRole('heading', { name: 'New Police Station' })
    expect(document.querySelectorAll('form legend')).toHaveLength(0)
  })
})

describe('district, police station and country pickers', () => {
  const combo = (name: RegExp) => screen.getByRole('combobox', { name })

  it('lists only the chosen district’s police stations', async () => {
    const seen: string[] = []
    server.use(...geoHandlers(seen), anyLookup)
    const { user } = await renderApp('/apps/users-management/userslist/new')
    await screen.findByRole('heading', { name: 'New User' })
    await user.click(combo(/^District/))
    await user.click(await screen.findByRole('option', { name: 'Chattogram' }))
    await user.click(combo(/^Police Station/))
    expect(await screen.findByRole('option', { name: 'Kotwali' })).toBeInTheDocument()
    expect(screen.queryByRole('option', { name: 'Gulshan' })).not.toBeInTheDocument()
    expect(seen).toContain('thanas?city=2')
  })

  it('fills in the district and its country from a chosen police station, and clears it when another district is chosen', async () => {
    const seen: string[] = []
    let body: Record<string, unknown> | undefined
    server.use(
      ...geoHandlers(seen),
      anyLookup,
      http.post(api(`${userBase}/create/`), async ({ request }) => ((body = (await request.json()) as Record<string, unknown>), HttpResponse.json({ id: 9 }, { status: 201 }))),
    )
    const { user } = await renderApp('/apps/users-management/userslist/new')
    await screen.findByRole('heading', { name: 'New User' })
    await user.click(combo(/^Police Station/))
    await user.click(await screen.findByRole('option', { name: 'Kotwali' }))
    await waitFor(() => expect(combo(/^District/)).toHaveValue('Chattogram'))
    await waitFor(() => expect(combo(/^Country/)).toHaveValue('Bangladesh'))
    expect(combo(/^Police Station/)).toHaveValue('Kotwali')

    // Another district of the same country: the police station is no longer in it.
    await user.click(combo(/^District/))
    await user.click(await screen.findByRole('option', { name: 'Dhaka' }))
    await waitFor(() => expect(combo(/^Police Station/)).toHaveValue(''))
    expect(combo(/^Country/)).toHaveValue('Bangladesh')
    // The districts offered are the chosen country's.
    expect(seen).toContain('cities?country=18')

    // Another country: the district (and with it the police station) is no longer in it.
    await user.click(combo(/^Country/))
    await user.click(await screen.findByRole('option', { name: 'Nepal' }))
    await waitFor(() => expect(combo(/^District/)).toHaveValue(''))

    await user.type(screen.getByRole('textbox', { name: /^First Name/ }), 'Nadia')
    await user.type(screen.getByRole('textbox', { name: /^Last Name/ }), 'Akter')
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'nadia@example.com')
    await user.type(screen.getByLabelText(/^Password/), 'secret1')
    await user.type(screen.getByLabelText(/^Confirm Password/), 'secret1')
    server.use(http.get(api(`${userBase}/:check`), ({ params }) => HttpResponse.json({ [`${String(params.check).replace(/^check_|_when_create$/g, '')}_exists`]: false })))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body).toMatchObject({ country: 19, city: null, thana: null })
  })
})

describe('the same cascade on My Profile', () => {
  it('fills in the district and country from the police station a user picks for their own address', async () => {
    const me = { ...adminUser, first_name: 'Ada', last_name: 'Admin', gender: 'female', thana: null, city: null, country: null }
    server.use(...geoHandlers([]), http.get(api(`${userBase}/1`), () => HttpResponse.json(me)))
    const { user } = await renderApp('/pages/profile')
    await screen.findByRole('textbox', { name: /^First Name/ })
    await user.click(screen.getByRole('combobox', { name: /^Police Station/ }))
    await user.click(await screen.findByRole('option', { name: 'Gulshan' }))
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^District/ })).toHaveValue('Dhaka'))
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Country/ })).toHaveValue('Bangladesh'))
  })
})

describe('values are checked, not cut', () => {
  it('keeps a pasted name over the limit whole and says it is too long', async () => {
    let posts = 0
    server.use(...cityHandlers, http.post(api(`${thanaBase}/create/`), () => ((posts += 1), HttpResponse.json({}, { status: 201 }))))
    const { user } = await renderApp('/apps/thana-management/thanas/new')
    const name = await screen.findByRole('textbox', { name: /^Name/ })
    await user.click(name)
    await user.paste('G'.repeat(60))
    expect(name).toHaveValue('G'.repeat(60))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Ensure this field has no more than 50 characters.')).toBeInTheDocument()
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(posts).toBe(0)
  })

  it('refuses a postal code that is not one, and a birthday in the future', async () => {
    server.use(...geoHandlers([]), anyLookup)
    const { user } = await renderApp('/apps/users-management/userslist/new')
    await screen.findByRole('heading', { name: 'New User' })
    await user.type(screen.getByRole('textbox', { name: 'Postal Code' }), 'Dhaka')
    await user.type(screen.getByRole('textbox', { name: 'Birthday' }), `${new Date().getFullYear() + 1}-01-01`)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Birthday cannot be in the future.')).toBeInTheDocument()
    expect(screen.getByText('Enter a valid postal code: 3 to 12 letters, digits, spaces or hyphens, with at least one digit.')).toBeInTheDocument()
    await user.clear(screen.getByRole('textbox', { name: 'Birthday' }))
    await user.type(screen.getByRole('textbox', { name: 'Birthday' }), todayIso())
    await user.tab()
    await waitFor(() => expect(screen.queryByText('Birthday cannot be in the future.')).not.toBeInTheDocument())
  })

  it('refuses an entirely empty slide with a clear message', async () => {
    let posts = 0
    server.use(http.post(api(`${sliderBase}/create/`), () => ((posts += 1), HttpResponse.json({}, { status: 201 }))))
    const { user } = await renderApp('/apps/slidersetting-management/slidersettings/new')
    await screen.findByRole('heading', { name: 'New Slider Setting' })
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Fill in at least one field: an empty Slider Setting cannot be saved.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Title' })).toHaveFocus())
    expect(posts).toBe(0)
  })
})

describe('date inputs', () => {
  it('takes a typed date and sends it as YYYY-MM-DD, tidying other separators and digits', async () => {
    expect(tidyDate('2024/3/5')).toBe('2024-03-05')
    expect(tidyDate(' ٢٠٢٤-٠٣-٠٥ ')).toBe('2024-03-05')
    expect(tidyDate('05.03.2024')).toBe('05.03.2024')
    server.use(...geoHandlers([]), anyLookup)
    const { user } = await renderApp('/apps/users-management/userslist/new')
    const birthday = await screen.findByRole('textbox', { name: 'Birthday' })
    expect(birthday).toHaveAttribute('type', 'text')
    expect(birthday).toHaveAttribute('placeholder', 'YYYY-MM-DD')
    await user.type(birthday, '1991/5/5')
    await user.tab()
    expect(birthday).toHaveValue('1991-05-05')
    // The chosen day, read in the interface's language.
    expect(screen.getByText('Sunday, May 5, 1991')).toBeInTheDocument()
  })

  it('opens a calendar in the interface’s language and direction, keyboard first; a picked day fills the input', async () => {
    // The language is a setting the signed-in user keeps on the server.
    server.use(...geoHandlers([]), anyLookup, http.post(api('/api/auth/user/update'), () => HttpResponse.json({ user: adminUser })))
    const { user } = await renderApp('/apps/users-management/userslist/new')
    const birthday = await screen.findByRole('textbox', { name: 'Birthday' })
    await user.type(birthday, '1991-05-05')
    await user.click(screen.getByRole('button', { name: 'Choose Birthday from a calendar' }))
    const dialog = await screen.findByRole('dialog', { name: 'Choose Birthday from a calendar' })
    const grid = await within(dialog).findByRole('grid', { name: 'May 1991' })
    // The chosen day has the keyboard; arrows move by day.
    const selected = within(grid).getByRole('button', { name: /May 5th, 1991/ })
    await waitFor(() => expect(selected).toHaveFocus())
    await user.keyboard('{ArrowRight}{Enter}')
    await waitFor(() => expect(birthday).toHaveValue('1991-05-06'))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()

    await act(() => changeLanguage('ar'))
    await user.click(screen.getByRole('button', { name: 'اختر تاريخ الميلاد من التقويم' }))
    const arabic = await screen.findByRole('dialog')
    await waitFor(() => expect(arabic.querySelector('[dir="rtl"]')).not.toBeNull())
    expect(within(arabic).getByRole('grid', { name: /مايو 1991/ })).toBeInTheDocument()
    // The week starts on Saturday in Arabic.
    expect(arabic.querySelector('th')).toHaveAttribute('aria-label', 'السبت')
  })

  it('offers no day after today for a birthday', async () => {
    server.use(...geoHandlers([]), anyLookup)
    const { user } = await renderApp('/apps/users-management/userslist/new')
    await screen.findByRole('textbox', { name: 'Birthday' })
    await user.click(screen.getByRole('button', { name: 'Choose Birthday from a calendar' }))
    const dialog = await screen.findByRole('dialog')
    const today = new Date()
    const todayButton = await within(dialog).findByRole('button', { name: /^Today/ })
    expect(todayButton).toBeEnabled()
    const later = within(dialog).queryAllByRole('button').filter((b) => b.closest('td') && b.hasAttribute('disabled'))
    // Every day after today in this month is disabled (none when today is the month's last day).
    const daysLeft = new Date(today.getFullYear(), today.getMonth() + 1, 0).getDate() - today.getDate()
    expect(later.length).toBeGreaterThanOrEqual(daysLeft)
  })
})
