import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { api, envelope } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

const noDemo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 }))
const demo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ email: 'admin@example.com', password: 'admin123' }))
const dashboardCounts = http.get(api('/:entity/api/v1/:entity2/all/'), ({ params }) =>
  HttpResponse.json(envelope(`${String(params.entity)}s`, [], 1, 1, 7)),
)

const loginButton = () => screen.getByRole('button', { name: 'Login' })

describe('login screen', () => {
  it('shows the spec messages while typing and enables Login only for a valid, edited form', async () => {
    server.use(noDemo)
    const { user } = await renderApp('/login')
    const email = await screen.findByLabelText('Email')
    const password = screen.getByLabelText('Password')
    expect(loginButton()).toBeDisabled()

    await user.type(email, 'x')
    await user.clear(email)
    expect(await screen.findByText('You must enter a email')).toBeInTheDocument()
    await user.type(email, 'not-an-email')
    expect(screen.getByText('You must enter a valid email')).toBeInTheDocument()
    await user.clear(email)
    await user.type(email, 'admin@example.com')
    expect(screen.queryByText(/You must enter/)).not.toBeInTheDocument()

    await user.type(password, 'a')
    await user.clear(password)
    expect(screen.getByText('Please enter your password.')).toBeInTheDocument()
    await user.type(password, 'abc')
    expect(screen.getByText('Password is too short - should be 4 chars minimum.')).toBeInTheDocument()
    expect(loginButton()).toBeDisabled()
    await user.type(password, 'd')
    expect(screen.queryByText(/Password is too short/)).not.toBeInTheDocument()
    expect(loginButton()).toBeEnabled()
  })

  it('counts the demo prefill as the starting state, so Login can be pressed right away', async () => {
    server.use(demo)
    await renderApp('/login')
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('admin@example.com'))
    expect(screen.getByLabelText('Password')).toHaveValue('admin123')
    expect(loginButton()).toBeEnabled()
  })

  it('stores "Bearer <access>" and user_id, then opens the dashboard', async () => {
    let sent: unknown
    server.use(
      demo,
      dashboardCounts,
      http.post(api('/user/api/v1/user/login/'), async ({ request }) => {
        sent = await request.json()
        return HttpResponse.json({ access: 'header.payload.sig', refresh: 'r', id: 7, email: 'admin@example.com', username: 'admin', image: null, role: null, is_admin: true })
      }),
    )
    const { user, router } = await renderApp('/login')
    await waitFor(() => expect(loginButton()).toBeEnabled())
    await user.click(loginButton())

    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
    expect(sent).toEqual({ email: 'admin@example.com', password: 'admin123' })
    expect(localStorage.getItem('jwt_access_token')).toBe('Bearer header.payload.sig')
    expect(localStorage.getItem('user_id')).toBe('7')
    expect(await screen.findByRole('heading', { name: 'Project dashboard' })).toBeInTheDocument()
  })

  it("brings the user's saved layout settings to this device at sign-in", async () => {
    const saved = { layout: { style: 'layout2' }, theme: { main: 'teal-dark', navbar: 'teal-dark', toolbar: 'teal-dark', footer: 'teal-dark' }, fontScale: 1.2 }
    server.use(
      demo,
      dashboardCounts,
      http.post(api('/user/api/v1/user/login/'), () =>
        HttpResponse.json({ access: 'header.payload.sig', refresh: 'r', id: 7, email: 'admin@example.com', username: 'admin', image: null, role: null, is_admin: true, settings: saved }),
      ),
    )
    const { user, router } = await renderApp('/login')
    await waitFor(() => expect(loginButton()).toBeEnabled())
    await user.click(loginButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
    expect(JSON.parse(localStorage.getItem('layout_settings') ?? '{}')).toMatchObject({ theme: { main: 'teal-dark' } })
    expect(document.documentElement.dataset.theme).toBe('teal-dark')
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    expect(document.documentElement.style.fontSize).toBe('75%')
  })

  it('returns to the remembered page after sign-in', async () => {
    server.use(
      demo,
      http.get(api('/thana/api/v1/thana/all/'), () => HttpResponse.json(envelope('thanas', []))),
      http.post(api('/user/api/v1/user/login/'), () => HttpResponse.json({ access: 'a.b.c', id: 1, email: 'admin@example.com', username: 'admin', role: 'ADMIN', is_admin: true, permissions: [] })),
    )
    const { user, router } = await renderApp('/apps/thana-management/thanas')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({ redirect: '/apps/thana-management/thanas' })
    await waitFor(() => expect(loginButton()).toBeEnabled())
    await user.click(loginButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/thana-management/thanas'))
    expect(await screen.findByRole('heading', { name: 'Police Stations' })).toBeInTheDocument()
  })

  it('shows the server’s 401 detail in the form and stays signed out', async () => {
    server.use(
      demo,
      http.post(api('/user/api/v1/user/login/'), () =>
        HttpResponse.json({ detail: 'No active account found with the given credentials' }, { status: 401 }),
      ),
    )
    const { user, router } = await renderApp('/login')
    await waitFor(() => expect(loginButton()).toBeEnabled())
    await user.click(loginButton())
    expect(await screen.findByRole('alert')).toHaveTextContent('No active account found with the given credentials')
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
    expect(router.state.location.pathname).toBe('/login')
  })

  it('links to the reset-password page', async () => {
    server.use(noDemo)
    await renderApp('/login')
    expect(await screen.findByText('Forgot your Password?')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Reset Password' })).toHaveAttribute('href', '/pages/auth/forgot-password-2')
  })
})
