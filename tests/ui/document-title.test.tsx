import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { applySiteSettings, SITE_SETTINGS_PATH } from '../../src/app/site-settings'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf, thanaBase, thanaRows } from './support/fixtures'
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
})
