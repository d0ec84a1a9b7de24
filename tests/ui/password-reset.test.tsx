import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { changeLanguage } from '../../src/i18n'
import { api } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A forgotten password (issue 9): the login page's Reset Password link opens a page asking
 * for the e-mail, and the mailed link a page asking for the new password twice, by the
 * user's password rules; both say what the server answers, in the interface's language.
 */
const FORGOT_PAGE = '/pages/auth/forgot-password-2'
const noDemo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 }))
const SENT = 'If an account uses this e-mail, a link to reset its password is on its way. It is valid for one hour.'

beforeEach(() => localStorage.clear())

describe('asking for a link', () => {
  it('opens from the login page’s Reset Password link', async () => {
    server.use(noDemo)
    const { user, router } = await renderApp('/login')
    await user.click(await screen.findByRole('link', { name: 'Reset Password' }))
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(FORGOT_PAGE)
  })

  it('checks the e-mail as the registry does, sends it, and shows the server’s answer', async () => {
    let body: unknown
    server.use(
      http.post(api('/api/auth/forgot-password'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ detail: SENT })
      }),
    )
    const { user } = await renderApp(FORGOT_PAGE)
    const email = await screen.findByRole('textbox', { name: /^Email/ })
    await user.type(email, 'not-an-email')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('You must enter a valid email')).toBeInTheDocument()
    expect(body).toBeUndefined()

    await user.clear(email)
    await user.type(email, 'Sadia@Example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByRole('status')).toHaveTextContent(SENT)
    expect(body).toEqual({ email: 'sadia@example.com' })
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
  })

  it('shows a refusal (too many requests) as an alert, and a field message on its field', async () => {
    let calls = 0
    server.use(
      http.post(api('/api/auth/forgot-password'), () => {
        calls += 1
        return calls === 1
          ? HttpResponse.json({ email: ['Enter a valid email address.'] }, { status: 400 })
          : HttpResponse.json({ detail: 'Too many password reset requests. Try again in 3599 seconds.' }, { status: 429, headers: { 'Retry-After': '3599' } })
      }),
    )
    const { user } = await renderApp(FORGOT_PAGE)
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'sadia@example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveAttribute('aria-invalid', 'true')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many password reset requests. Try again in 3599 seconds.')
  })
})

describe('choosing the new password', () => {
  it('asks for it twice by the password rules, sends it with the link’s token, and leads to the login', async () => {
    let body: unknown
    server.use(
      noDemo,
      http.post(api('/api/auth/reset-password'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ detail: 'Your password has been changed. Sign in with the new password.' })
      }),
    )
    const { user, router } = await renderApp('/reset-password?token=a.b.c')
    await user.type(await screen.findByLabelText(/^New password/), 'abc')
    await user.type(screen.getByLabelText(/^Confirm Password/), 'abd')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument()
    await user.clear(screen.getByLabelText(/^New password/))
    await user.type(screen.getByLabelText(/^New password/), 'secret1')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument()
    expect(body).toBeUndefined()

    await user.clear(screen.getByLabelText(/^Confirm Password/))
    await user.type(screen.getByLabelText(/^Confirm Password/), 'secret1')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed. Sign in with the new password.')
    expect(body).toEqual({ token: 'a.b.c', password: 'secret1', confirm_password: 'secret1' })
    await user.click(screen.getByRole('link', { name: 'Go to login' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })

  it('says when the link is spent or expired, and offers a new one', async () => {
    server.use(
      http.post(api('/api/auth/reset-password'), () => HttpResponse.json({ detail: 'This password reset link has already been used. Ask for a new one.' }, { status: 400 })),
    )
    const { user, router } = await renderApp('/reset-password?token=spent')
    await user.type(await screen.findByLabelText(/^New password/), 'secret1')
    await user.type(screen.getByLabelText(/^Confirm Password/), 'secret1')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This password reset link has already been used. Ask for a new one.')
    await user.click(screen.getByRole('link', { name: 'Ask for a new link' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(FORGOT_PAGE))
  })

  it('says a link without its token is not valid, without a form', async () => {
    await renderApp('/reset-password')
    expect(await screen.findByRole('alert')).toHaveTextContent('This password reset link is not valid. Ask for a new one.')
    expect(screen.queryByRole('button', { name: 'Change password' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', FORGOT_PAGE)
  })

  it('reads right to left in Arabic, in the interface’s words', async () => {
    await changeLanguage('ar')
    const { user } = await renderApp('/reset-password?token=a.b.c')
    expect(await screen.findByRole('heading', { name: 'اختر كلمة مرور جديدة' })).toBeInTheDocument()
    expect(document.documentElement).toHaveAttribute('dir', 'rtl')
    await user.click(screen.getByRole('button', { name: 'تغيير كلمة المرور' }))
    await waitFor(() => expect(screen.getByLabelText(/^كلمة المرور الجديدة/)).toHaveAttribute('aria-invalid', 'true'))
  })
})
