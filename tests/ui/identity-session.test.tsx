import { act, screen, waitFor, within } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { applySiteSettings, SITE_SETTINGS_PATH } from '../../src/app/site-settings'
import { session } from '../../src/auth/session'
import { getSettings } from '../../src/shell/settings/store'
import { defaultSettings } from '../../src/shell/settings/settings'
import {
  accessTokenAnswers,
  adminUser,
  api,
  envelope,
  expiredToken,
  storeSessionOf,
  thanaBase,
  thanaRows,
  validToken,
} from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The session's transitions (spec §4, §8) with the server's sign-in by token
 * (`GET /api/auth/access-token`): the splash while the start-up check runs, a valid
 * token signs in again (fresh token, user, settings), a failure is said in the message
 * bar, an expired token and a 401 log out, no token ends as a guest, another tab's
 * logout and the menu logout end this one.
 */
const noDemo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 }))
const thanaList = http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', thanaRows)))

afterEach(() => vi.restoreAllMocks())

describe('start-up check', () => {
  it('shows the splash while it signs in with the stored token, then stores the fresh token, sets the user and applies their settings', async () => {
    const fresh = validToken()
    let release!: () => void
    const answered = new Promise<void>((resolve) => (release = resolve))
    let sentToken: string | null = null
    const stored = validToken()
    storeSessionOf({ ...adminUser, username: 'old-name' }, stored)
    server.use(
      thanaList,
      http.get(api('/api/auth/access-token'), async ({ request }) => {
        sentToken = request.headers.get('authorization')
        await answered
        return HttpResponse.json({
          access_token: fresh,
          user: { ...adminUser, username: 'ada', role: 'ADMIN', settings: { ...defaultSettings, theme: { main: 'teal-dark', navbar: 'teal-dark', toolbar: 'teal-dark', footer: 'teal-dark' } } },
        })
      }),
    )
    const rendering = renderApp('/apps/thana-management/thanas')
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeInTheDocument()
    await waitFor(() => expect(sentToken).toBe(`Bearer ${stored}`))
    release()
    await rendering

    expect(await screen.findByText('Gulshan')).toBeInTheDocument()
    expect(localStorage.getItem('jwt_access_token')).toBe(`Bearer ${fresh}`)
    expect(session.getState().user).toMatchObject({ displayName: 'ada', role: 'ADMIN', isAdmin: true })
    expect(screen.getByTestId('user-role')).toHaveTextContent('Admin')
    expect(getSettings().theme.main).toBe('teal-dark')
    expect(document.documentElement).toHaveAttribute('data-theme', 'teal-dark')
  })

  it('says "Failed to login with token." in the message bar when the sign-in fails, logs out and continues as a guest', async () => {
    storeSessionOf(adminUser)
    server.use(noDemo, http.get(api('/api/auth/access-token'), () => HttpResponse.json({ detail: 'User not found or inactive' }, { status: 401 })))
    const { router } = await renderApp('/apps/thana-management/thanas')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(await screen.findByTestId('snackbar')).toHaveTextContent('Failed to login with token.')
    // Not the 401's auto-logout message: the check's own.
    expect(screen.queryByText('Invalid access_token')).not.toBeInTheDocument()
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
    expect(localStorage.getItem('user_id')).toBeNull()
    expect(localStorage.getItem('user_profile')).toBeNull()
    expect(router.state.location.search).toEqual({ redirect: '/apps/thana-management/thanas' })
  })

  it('clears an expired token without asking the server and signals "access_token expired"', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    let asked = false
    storeSessionOf(adminUser, expiredToken())
    server.use(noDemo, http.get(api('/api/auth/access-token'), () => ((asked = true), HttpResponse.json({}))))
    const { router } = await renderApp('/apps/thana-management/thanas')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(await screen.findByText('access_token expired')).toBeInTheDocument()
    expect(asked).toBe(false)
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
  })

  it('ends as a guest when no token is stored: no sign-in, no message', async () => {
    let asked = false
    server.use(noDemo, http.get(api('/api/auth/access-token'), () => ((asked = true), HttpResponse.json({}))))
    const { router } = await renderApp('/apps/users-management/userslist')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({ redirect: '/apps/users-management/userslist' })
    expect(asked).toBe(false)
    expect(session.getState()).toMatchObject({ isChecking: false, isLoggedIn: false, user: null })
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

describe('ending a session', () => {
  it('logs out on a 401 with "Invalid access_token" and returns to the page after signing in again', async () => {
    storeSessionOf(adminUser)
    let isTokenValid = true
    server.use(
      noDemo,
      http.get(api(`${thanaBase}/all/`), () =>
        isTokenValid ? HttpResponse.json({ detail: 'Given token not valid for any token type', code: 'token_not_valid' }, { status: 401 }) : HttpResponse.json(envelope('thanas', thanaRows)),
      ),
      http.post(api('/user/api/v1/user/login/'), () => HttpResponse.json({ access: validToken(), id: 1, email: 'admin@example.com', username: 'admin', role: 'ADMIN', is_admin: true, permissions: [] })),
    )
    const { router, user } = await renderApp('/apps/thana-management/thanas')
    expect(await screen.findByText('Invalid access_token')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({ redirect: '/apps/thana-management/thanas' })

    isTokenValid = false
    await user.type(screen.getByLabelText('Email'), 'admin@example.com')
    await user.type(screen.getByLabelText('Password'), 'admin123')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/thana-management/thanas'))
    expect(await screen.findByText('Gulshan')).toBeInTheDocument()
  })

  it('logs out when another tab logs out (storage event), then asks to sign in for the same page', async () => {
    storeSessionOf(adminUser)
    server.use(noDemo, thanaList)
    const { router } = await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    act(() => {
      for (const key of ['jwt_access_token', 'user_id', 'user_profile']) localStorage.removeItem(key)
      window.dispatchEvent(new StorageEvent('storage', { key: 'jwt_access_token', oldValue: 'Bearer x', newValue: null }))
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({ redirect: '/apps/thana-management/thanas' })
    expect(session.getState().user).toBeNull()
  })

  it('menu logout clears the token, the user id and the profile, resets the settings and goes to /', async () => {
    storeSessionOf(adminUser)
    server.use(
      noDemo,
      thanaList,
      accessTokenAnswers({ ...adminUser, settings: { ...defaultSettings, layout: { ...defaultSettings.layout, style: 'layout2' } } }),
      http.post(api('/api/auth/user/update'), () => HttpResponse.json({})),
    )
    const { router, user } = await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    expect(getSettings().layout.style).toBe('layout2')
    await user.click(screen.getByRole('button', { name: /^User menu/ }))
    await user.click(within(screen.getByRole('menu', { name: 'User menu' })).getByRole('menuitem', { name: 'Logout' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({})
    for (const key of ['jwt_access_token', 'user_id', 'user_profile']) expect(localStorage.getItem(key)).toBeNull()
    expect(getSettings().layout.style).toBe('layout1')
  })
})

describe('a session without its user', () => {
  it('signs in again with the token to learn the user when another tab leaves only a new user id', async () => {
    storeSessionOf(adminUser)
    server.use(thanaList)
    await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    server.use(accessTokenAnswers({ ...adminUser, id: 2, username: 'second-admin' }))
    act(() => {
      localStorage.setItem('user_id', '2')
      localStorage.removeItem('user_profile')
      window.dispatchEvent(new StorageEvent('storage', { key: 'user_id', oldValue: '1', newValue: '2' }))
    })
    await waitFor(() => expect(session.getState().user).toMatchObject({ id: 2, displayName: 'second-admin', isAdmin: true }))
    expect(await within(screen.getByTestId('toolbar')).findByText('second-admin')).toBeInTheDocument()
  })
})

describe('site settings at start-up (spec §1, §7)', () => {
  afterEach(() => {
    document.title = 'No title'
    document.head.querySelector('link[rel=icon]')?.remove()
  })

  it('takes the page title and favicon from the first general setting, with the stored token', async () => {
    const link = document.createElement('link')
    link.rel = 'icon'
    link.href = 'data:,'
    document.head.append(link)
    let authorization: string | null = null
    server.use(
      http.get(api(SITE_SETTINGS_PATH), ({ request }) => {
        authorization = request.headers.get('authorization')
        return HttpResponse.json(envelope('general_settings', [{ id: 2, title: 'Dream Tourism', favicon: '/media/general_setting/icon.png' }, { id: 1, title: 'Older' }]))
      }),
    )
    await applySiteSettings('Bearer abc')
    expect(document.title).toBe('Dream Tourism')
    expect(link.getAttribute('href')).toBe('/media/general_setting/icon.png')
    expect(authorization).toBe('Bearer abc')
  })

  it("falls back to 'No title', and ignores a failed fetch", async () => {
    server.use(http.get(api(SITE_SETTINGS_PATH), () => HttpResponse.json(envelope('general_settings', []))))
    document.title = 'Something'
    await applySiteSettings(null)
    expect(document.title).toBe('No title')

    document.title = 'Kept'
    server.use(http.get(api(SITE_SETTINGS_PATH), () => HttpResponse.error()))
    await expect(applySiteSettings(null)).resolves.toBeUndefined()
    expect(document.title).toBe('Kept')
  })

  it('is read without waiting: a slow answer does not hold the page', async () => {
    server.use(http.get(api(SITE_SETTINGS_PATH), async () => (await delay(50), HttpResponse.json(envelope('general_settings', [{ id: 1, title: 'Late' }])))))
    const pending = applySiteSettings(null)
    expect(document.title).toBe('No title')
    await pending
    expect(document.title).toBe('Late')
  })
})
