import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { currentLanguage } from '../../src/i18n'
import { defaultSettings, SETTINGS_KEY, type Settings } from '../../src/shell/settings/settings'
import { getSettings, setDirection, USER_UPDATE_PATH } from '../../src/shell/settings/store'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * One source of truth for the language (issue 8): the user's choice is kept with their
 * settings on the server and applied at sign-in on any device; a guest's stays on the device;
 * the direction follows the language unless the user sets the other one, which then stays.
 */
const thanaList = http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', thanaRows)))
const noDemo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 }))
const withSettings = (patch: Partial<Settings>) => ({ ...adminUser, settings: { ...defaultSettings, ...patch } })

function savedBodies(): unknown[] {
  const bodies: unknown[] = []
  server.use(http.post(api(USER_UPDATE_PATH), async ({ request }) => (bodies.push(await request.json()), HttpResponse.json({}))))
  return bodies
}

describe('the language follows the user', () => {
  it('keeps a language chosen in the toolbar with the user’s settings on the server, its direction with it', async () => {
    storeSessionOf(adminUser)
    const bodies = savedBodies()
    server.use(accessTokenAnswers(adminUser), thanaList)
    const { user } = await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    await user.click(screen.getByRole('button', { name: /^Language/ }))
    await user.click(screen.getByRole('menuitemradio', { name: /العربية/ }))
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'))
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ settings: { language: 'ar', direction: 'rtl' } }))
  })

  it('applies the user’s language at sign-in on another device, whatever this one had', async () => {
    storeSessionOf(adminUser)
    server.use(accessTokenAnswers(withSettings({ language: 'ar', direction: 'rtl' })), thanaList, http.post(api(USER_UPDATE_PATH), () => HttpResponse.json({})))
    expect(currentLanguage()).toBe('en')
    await renderApp('/apps/thana-management/thanas')
    await waitFor(() => expect(currentLanguage()).toBe('ar'))
    expect(document.documentElement).toHaveAttribute('lang', 'ar')
    expect(document.documentElement).toHaveAttribute('dir', 'rtl')
    expect(await screen.findByRole('heading', { name: 'مراكز الشرطة', level: 1 })).toBeInTheDocument()
  })

  it('keeps a direction the user set over the language’s, until they choose a language again', async () => {
    storeSessionOf(adminUser)
    const bodies = savedBodies()
    server.use(accessTokenAnswers(withSettings({ language: 'ar', direction: 'ltr' })), thanaList)
    const { user } = await renderApp('/apps/thana-management/thanas')
    await waitFor(() => expect(currentLanguage()).toBe('ar'))
    // Arabic, laid out left to right as the user chose on their other device.
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'))
    expect(getSettings()).toMatchObject({ language: 'ar', direction: 'ltr' })
    await user.click(screen.getByRole('button', { name: /^اللغة/ }))
    await user.click(screen.getByRole('menuitemradio', { name: /English/ }))
    await waitFor(() => expect(getSettings()).toMatchObject({ language: 'en', direction: 'ltr' }))
    setDirection('rtl')
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'))
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ settings: { language: 'en', direction: 'rtl' } }))
  })

  it('signs in with the password and switches to the language the user keeps', async () => {
    server.use(
      noDemo,
      thanaList,
      http.post(api('/user/api/v1/user/login/'), () =>
        HttpResponse.json({ ...withSettings({ language: 'tr', direction: 'ltr' }), access: 'x.y.z', refresh: 'r', id: 1 }),
      ),
      accessTokenAnswers(withSettings({ language: 'tr', direction: 'ltr' })),
      http.post(api(USER_UPDATE_PATH), () => HttpResponse.json({})),
    )
    const { user } = await renderApp('/login')
    await user.type(await screen.findByLabelText('Email'), 'admin@example.com')
    await user.type(screen.getByLabelText('Password', { exact: true }), 'admin123')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    await waitFor(() => expect(currentLanguage()).toBe('tr'))
    expect(document.documentElement).toHaveAttribute('lang', 'tr')
  })

  it('keeps a guest’s choice on the device only: nothing is sent, the next start begins in it', async () => {
    const bodies = savedBodies()
    server.use(noDemo)
    const { user } = await renderApp('/login')
    await user.selectOptions(await screen.findByRole('combobox', { name: /Language/ }), 'ar')
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'))
    expect(localStorage.getItem('language')).toBe('ar')
    expect(bodies).toEqual([])
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}').user).toBeUndefined()
  })
})
