import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { entities, navigationEntries, reports } from '../../schema'
import { applySiteSettings, SITE_SETTINGS_PATH } from '../../src/app/site-settings'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf, thanaBase, thanaRows, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/** Each page names itself in the document title as it names itself on screen, then the site (issue 8). */
describe('the document title', () => {
  it('is the page’s name and the site’s title, in the user’s language, and follows navigation', async () => {
    storeSessionOf(adminUser)
    server.use(
      accessTokenAnswers(adminUser),
      http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', thanaRows))),
      http.get(api(SITE_SETTINGS_PATH), () => HttpResponse.json(envelope('general_settings', [{ id: 1, title: 'Dhaka Office', favicon: null }]))),
      http.get(api('/city/api/v1/city/all/'), () => HttpResponse.json(envelope('cities', []))),
    )
    await applySiteSettings(null)
    const { user, router } = await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    await waitFor(() => expect(document.title).toBe('Police Stations · Dhaka Office'))
    await router.navigate({ to: '/apps/city-management/cities' })
    await waitFor(() => expect(document.title).toBe('Districts · Dhaka Office'))
    await user.click(screen.getByRole('button', { name: /^Language/ }))
    await user.click(screen.getByRole('menuitemradio', { name: /العربية/ }))
    await waitFor(() => expect(document.title).toBe('المناطق · Dhaka Office'))
  })

  it('names a list as the sidebar does, on the page, in the title, on the way back from a record and on the dashboard', async () => {
    // The records' dashboard (an admin's is the shop's): someone who manages the users.
    const manager: ServerUser = { ...adminUser, id: 22, is_admin: false, role: 'MANAGER', permissions: ['USER_LIST', 'USER_DETAILS'] }
    storeSessionOf(manager)
    server.use(
      accessTokenAnswers(manager),
      http.get(api('/:entity/api/v1/:same/all/'), ({ params }) => HttpResponse.json(envelope(`${String(params.entity)}s`, []))),
      http.get(api('/user/api/v1/user/5'), () => HttpResponse.json({ id: 5, email: 'sadia@example.com', username: 'sadia', _labels: {} })),
    )
    const { router } = await renderApp('/apps/users-management/userslist')
    expect(await screen.findByRole('heading', { name: 'User List', level: 1 })).toBeInTheDocument()
    await waitFor(() => expect(document.title).toMatch(/^User List/))
    await router.navigate({ to: '/apps/users-management/userslist/5/sadia' })
    expect(await screen.findByRole('link', { name: /Back to User List/ })).toBeInTheDocument()
    await router.navigate({ to: '/apps/dashboards/project' })
    expect(await screen.findByRole('link', { name: 'Open User List' })).toBeInTheDocument()
  })

  it('names the sign-in and the forgotten-password pages for what they are', async () => {
    server.use(
      http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 })),
      http.get(api(SITE_SETTINGS_PATH), () => HttpResponse.json(envelope('general_settings', [{ id: 1, title: 'Dhaka Office', favicon: null }]))),
    )
    await applySiteSettings(null)
    const { router } = await renderApp('/login')
    await screen.findByLabelText('Email')
    await waitFor(() => expect(document.title).toBe('Sign in · Dhaka Office'))
    await router.navigate({ to: '/pages/auth/forgot-password-2' })
    await screen.findByRole('heading', { name: 'Forgot your password?' })
    await waitFor(() => expect(document.title).toBe('Forgot your password? · Dhaka Office'))
  })

  it('gives every list the name of its sidebar entry', () => {
    const byUrl = new Map(navigationEntries(entities, reports).map((e) => [e.url, e.label]))
    for (const entity of entities.filter((e) => e.nav)) expect(entity.listTitleKey, entity.name).toBe(byUrl.get(entity.ui.listPath))
  })
})
