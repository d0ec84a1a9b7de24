import { act, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { entities } from '../../schema'
import { checkToken, session } from '../../src/auth/session'
import { accessTokenAnswers, api, clerkUser, envelope, expiredToken, fakeJwt, storeSession, storeSessionOf, thanaBase, thanaRows, validToken, type ServerUser } from './support/fixtures'
import { dashboardWidgets } from '../../schema/dashboards'
import { renderApp } from './support/render-app'
import { server } from './support/server'

const thanaList = http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', thanaRows)))
const demo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 }))

describe('session', () => {
  afterEach(() => vi.restoreAllMocks())

  it('judges stored tokens by their exp claim; a token with no value is invalid', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(checkToken(null)).toBe('none')
    expect(checkToken('Bearer ')).toBe('invalid')
    expect(checkToken('Bearer undefined')).toBe('invalid')
    expect(checkToken('Bearer not-a-jwt')).toBe('invalid')
    expect(checkToken(`Bearer ${validToken()}`)).toBe('valid')
    expect(checkToken(`Bearer ${expiredToken()}`)).toBe('expired')
    expect(checkToken(`Bearer ${fakeJwt({ user_id: 1 })}`)).toBe('valid')
    // Spec §5: an expired token logs a warning.
    expect(warn).toHaveBeenCalledWith('access token expired')
    warn.mockRestore()
  })

  it('sends the stored token and the interface language with every call', async () => {
    storeSession()
    let headers: Headers | undefined
    server.use(
      http.get(api(`${thanaBase}/all/`), ({ request }) => {
        headers = request.headers
        return HttpResponse.json(envelope('thanas', thanaRows))
      }),
    )
    await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    expect(headers?.get('authorization')).toBe(localStorage.getItem('jwt_access_token'))
    expect(headers?.get('accept-language')).toBe('en')
  })

  it('logs out with "Invalid access_token" when the API answers 401, and remembers the page', async () => {
    storeSession()
    server.use(demo, http.get(api(`${thanaBase}/all/`), () => HttpResponse.json({ detail: 'Token is expired', code: 'token_not_valid' }, { status: 401 })))
    const { router } = await renderApp('/apps/thana-management/thanas')
    expect(await screen.findByText('Invalid access_token')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({ redirect: '/apps/thana-management/thanas' })
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
    expect(localStorage.getItem('user_id')).toBeNull()
  })

  it('clears an expired token at start-up with "access_token expired"', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    storeSession(expiredToken())
    server.use(demo)
    const { router } = await renderApp('/apps/thana-management/thanas')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(await screen.findByText('access_token expired')).toBeInTheDocument()
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
  })

  it('logs this tab out when another tab logs out (storage event)', async () => {
    storeSession()
    server.use(demo, thanaList)
    const { router } = await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    act(() => {
      localStorage.removeItem('jwt_access_token')
      localStorage.removeItem('user_id')
      window.dispatchEvent(new StorageEvent('storage', { key: 'jwt_access_token', oldValue: 'Bearer x', newValue: null }))
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(session.getState().isLoggedIn).toBe(false)
  })

  it('menu logout clears both keys and goes to / (then the login screen)', async () => {
    storeSession()
    server.use(demo, thanaList)
    const { router, user } = await renderApp('/apps/thana-management/thanas')
    await screen.findByText('Gulshan')
    await user.click(screen.getByRole('button', { name: /^User menu/ }))
    const menu = screen.getByRole('menu', { name: 'User menu' })
    expect(within(menu).getByText('admin@example.com')).toBeInTheDocument()
    await user.click(within(menu).getByRole('menuitem', { name: 'Logout' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({})
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
    expect(localStorage.getItem('user_id')).toBeNull()
  })

  it('sends a guest from / to /login and a signed-in user to the dashboard', async () => {
    server.use(demo)
    const guest = await renderApp('/')
    await waitFor(() => expect(guest.router.state.location.pathname).toBe('/login'))
    guest.unmount()

    storeSession()
    server.use(http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', [], 1, 1, 0))))
    const member = await renderApp('/')
    await waitFor(() => expect(member.router.state.location.pathname).toBe('/apps/dashboards/project'))
  })
})

describe('routes', () => {
  it('sends every unknown route to the 404 page', async () => {
    storeSession()
    const { router } = await renderApp('/apps/nothing-here/at-all')
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/errors/error-404'))
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
  })

  it('starts with the public routes only and loads the registry when a screen needs it', async () => {
    storeSession()
    server.use(thanaList)
    let loads = 0
    const { router } = await renderApp('/apps/thana-management/thanas', {
      entities: null,
      loadEntities: async () => {
        loads += 1
        return entities
      },
    })
    expect(await screen.findByText('Gulshan')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/apps/thana-management/thanas')
    expect(loads).toBe(1)
  })

  it('shows the dashboard with a card and count per registered entity it may list', async () => {
    // Someone who reads no widget's data (an admin sees the shop's dashboard: dashboard.test.tsx).
    const counted = entities.filter((e) => !e.isLine && !dashboardWidgets.some((w) => w.reads === e.name))
    const clerk: ServerUser = { ...clerkUser, id: 21, permissions: counted.map((e) => e.permissions.LIST) }
    storeSessionOf(clerk)
    server.use(
      accessTokenAnswers(clerk),
      // Every count in one answer, the quick panel's (dashboard.test.tsx has the rest).
      http.get(api('/api/quick-panel/data'), () =>
        HttpResponse.json({ date: '2026-05-04', counts: Object.fromEntries(entities.filter((e) => !e.isLine).map((e) => [e.listKey, e.name.length * 100])), recent: [] }),
      ),
    )
    await renderApp('/apps/dashboards/project')
    for (const entity of counted) {
      const card = await screen.findByTestId(`count-${entity.name}`)
      expect(card).toHaveTextContent(String(entity.name.length * 100).replace(/\B(?=(\d{3})+(?!\d))/g, ','))
    }
    // The lines of a document have no list of their own, so no card.
    const lineEntities = entities.filter((e) => e.isLine)
    expect(lineEntities.length).toBeGreaterThan(0)
    for (const entity of lineEntities) expect(screen.queryByTestId(`count-${entity.name}`)).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Open Police Stations' })).toHaveAttribute('href', '/apps/thana-management/thanas')
  })
})
