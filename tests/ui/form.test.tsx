import { act, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { changeLanguage } from '../../src/i18n'
import { api, cityBase, cityHandlers, envelope, storeSession, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

const newPath = '/apps/thana-management/thanas/new'
const gulshan = { id: 11, name: 'Gulshan', bn_name: null, url: null, city: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', created_by: 1, updated_by: 1 }

function recordHandlers() {
  server.use(
    ...cityHandlers,
    http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', thanaRows))),
    http.get(api(`${thanaBase}/:id`), ({ params }) => {
      if (params.id === '11') return HttpResponse.json(gulshan)
      if (/^\d+$/.test(String(params.id))) return HttpResponse.json({ detail: `Thana id - ${String(params.id)} doesn't exists` }, { status: 404 })
      return undefined
    }),
  )
}

const nameInput = () => screen.getByRole('textbox', { name: /^Name/ })
const districtInput = () => screen.getByRole('combobox', { name: /^District/ })

describe('generic form (police station)', () => {
  beforeEach(() => {
    storeSession()
    recordHandlers()
  })

  it('validates with the registry schema and its messages before sending anything', async () => {
    let posts = 0
    server.use(http.post(api(`${thanaBase}/create/`), () => {
      posts += 1
      return HttpResponse.json({}, { status: 201 })
    }))
    const { user } = await renderApp(newPath)
    expect(await screen.findByRole('heading', { name: 'New Police Station' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('District is required')).toBeInTheDocument()
    expect(nameInput()).toHaveAttribute('aria-invalid', 'true')
    // No maxLength: a pasted name over the limit is told so, not cut (see form-behaviour.test.tsx).
    expect(nameInput()).not.toHaveAttribute('maxLength')

    await user.type(screen.getByRole('textbox', { name: 'Website' }), 'not a url')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Enter a valid URL.')).toBeInTheDocument()
    expect(posts).toBe(0)
  })

  it('shows validation messages in the interface language, and re-renders them when it changes', async () => {
    const { user } = await renderApp(newPath)
    await user.click(await screen.findByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    await act(() => changeLanguage('tr'))
    expect(await screen.findByText('Ad zorunludur')).toBeInTheDocument()
    expect(screen.getByText('İlçe zorunludur')).toBeInTheDocument()
    await act(() => changeLanguage('en'))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
  })

  it('searches the district by any of its searchable fields (all/?q=) and posts the chosen id', async () => {
    const searched: string[] = []
    let body: unknown
    server.use(
      http.get(api(`${cityBase}/all/`), ({ request }) => {
        const url = new URL(request.url)
        if (!url.searchParams.get('q')) return undefined
        searched.push(`${url.searchParams.get('q')}|${url.searchParams.get('size')}`)
        return HttpResponse.json(envelope('cities', [{ id: 2, name: 'Chattogram', country: { id: 18, name: 'Bangladesh' } }], 1, 20))
      }),
      http.post(api(`${thanaBase}/create/`), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ ...gulshan, id: 99, name: 'Uttara', city: 2 }, { status: 201 })
      }),
    )
    const { user, router } = await renderApp(newPath)
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Uttara')
    await user.click(districtInput())
    await user.type(districtInput(), 'Chat')
    await waitFor(() => expect(searched).toContain('Chat|20'))
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Dhaka' })).not.toBeInTheDocument())
    await user.click(screen.getByRole('option', { name: 'Chattogram' }))
    expect(districtInput()).toHaveValue('Chattogram')

    await user.click(screen.getByRole('button', { name: 'Save & close' }))
    await waitFor(() => expect(body).toEqual({ name: 'Uttara', bn_name: null, url: null, city: 2 }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/thana-management/thanas'))
    expect(await screen.findByText('Police Station saved.')).toBeInTheDocument()
  })

  it('puts the server’s field errors on their fields and its detail in a banner', async () => {
    let calls = 0
    server.use(
      http.post(api(`${thanaBase}/create/`), () => {
        calls += 1
        return calls === 1
          ? HttpResponse.json({ name: ['Police Station with this Name already exists.'] }, { status: 400 })
          : HttpResponse.json({ detail: 'The district is archived.' }, { status: 400 })
      }),
    )
    const { user } = await renderApp(newPath)
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Gulshan')
    await user.click(districtInput())
    await user.click(await screen.findByRole('option', { name: 'Dhaka' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    const message = await screen.findByText('Police Station with this Name already exists.')
    expect(nameInput()).toHaveAttribute('aria-invalid', 'true')
    expect(nameInput()).toHaveAttribute('aria-describedby', message.id)

    await user.clear(nameInput())
    await user.type(nameInput(), 'Gulshan 2')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The district is archived.')
  })

  it('edits a record: loads {id}, shows the district’s name, saves with PUT update/{id} and the version it was read at', async () => {
    let body: unknown
    server.use(
      http.put(api(`${thanaBase}/update/:id`), async ({ request, params }) => {
        expect(params.id).toBe('11')
        body = await request.json()
        return HttpResponse.json({ ...gulshan, name: 'Gulshan North' })
      }),
    )
    const { user, router } = await renderApp('/apps/thana-management/thanas/11/Gulshan')
    expect(await screen.findByRole('heading', { name: 'Edit Police Station' })).toBeInTheDocument()
    expect(nameInput()).toHaveValue('Gulshan')
    await waitFor(() => expect(districtInput()).toHaveValue('Dhaka'))
    await user.clear(nameInput())
    await user.type(nameInput(), 'Gulshan North{Enter}')
    await waitFor(() => expect(body).toEqual({ name: 'Gulshan North', bn_name: null, url: null, city: 1, updated_at: gulshan.updated_at }))
    // Save stays on the saved record, which now shows what was saved.
    expect(await screen.findByText('Police Station saved.')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/apps/thana-management/thanas/11/Gulshan')
    expect(nameInput()).toHaveValue('Gulshan North')
  })

  it('opens the same form at <area>/{id}', async () => {
    await renderApp('/apps/thana-management/11')
    expect(await screen.findByRole('heading', { name: 'Edit Police Station' })).toBeInTheDocument()
    expect(nameInput()).toHaveValue('Gulshan')
  })

  it('says so when the record does not exist', async () => {
    await renderApp('/apps/thana-management/thanas/999/Nowhere')
    expect(await screen.findByRole('heading', { name: 'This Police Station does not exist.' })).toBeInTheDocument()
  })

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = await renderApp('/apps/thana-management/thanas/11/Gulshan')
    await screen.findByRole('heading', { name: 'Edit Police Station' })
    await user.type(nameInput(), ' East')

    await user.click(screen.getByRole('link', { name: 'Back to Police Stations' }))
    let dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('Leave without saving?')
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(router.state.location.pathname).toBe('/apps/thana-management/thanas/11/Gulshan')
    expect(nameInput()).toHaveValue('Gulshan East')

    await user.click(screen.getByRole('link', { name: 'Back to Police Stations' }))
    dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/thana-management/thanas'))
  })

  it('leaves an untouched form without asking', async () => {
    const { user, router } = await renderApp('/apps/thana-management/thanas/11/Gulshan')
    await screen.findByRole('heading', { name: 'Edit Police Station' })
    await user.click(screen.getByRole('link', { name: 'Back to Police Stations' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/thana-management/thanas'))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})
