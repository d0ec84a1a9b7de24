import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { adminUser, api, envelope, storeSessionOf, thanaBase, validToken } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * Sessions that end on the server (issue 9): the menu logout tells the server, so the token
 * stops working wherever it was copied; one's own password change ends one's other sessions
 * and this one goes on with the fresh token the server answers.
 */
const userBase = registry.user.api.base
const noDemo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 }))

describe('the menu logout', () => {
  it('ends the session on the server with the stored token, then signs out here', async () => {
    const token = validToken()
    storeSessionOf(adminUser, token)
    const ended: Array<string | null> = []
    server.use(
      noDemo,
      http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', []))),
      http.post(api('/api/auth/logout'), ({ request }) => {
        ended.push(request.headers.get('authorization'))
        return HttpResponse.json({ detail: 'You are signed out.' })
      }),
    )
    const { router, user } = await renderApp('/apps/thana-management/thanas')
    await user.click(await screen.findByRole('button', { name: /^User menu/ }))
    await user.click(within(screen.getByRole('menu', { name: 'User menu' })).getByRole('menuitem', { name: 'Logout' }))
    await waitFor(() => expect(ended).toEqual([`Bearer ${token}`]))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
  })

  it('signs out here even when the server cannot be reached', async () => {
    storeSessionOf(adminUser)
    server.use(
      noDemo,
      http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', []))),
      http.post(api('/api/auth/logout'), () => HttpResponse.error()),
    )
    const { router, user } = await renderApp('/apps/thana-management/thanas')
    await user.click(await screen.findByRole('button', { name: /^User menu/ }))
    await user.click(within(screen.getByRole('menu', { name: 'User menu' })).getByRole('menuitem', { name: 'Logout' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
  })
})

describe('one’s own password change', () => {
  it('keeps this session with the fresh token the server answers', async () => {
    storeSessionOf(adminUser)
    const fresh = validToken()
    const me = { ...adminUser, id: 1, role: 1, settings: { layout: {} } }
    server.use(
      http.get(api(`${userBase}/1`), () => HttpResponse.json(me)),
      http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', []))),
      http.patch(api(`${userBase}/passwordchange/1`), () => HttpResponse.json({ detail: "User Id - 1's password has been changed successfully.", access_token: fresh })),
    )
    const { user } = await renderApp('/pages/profile')
    const form = await screen.findByRole('form', { name: 'Password' })
    await user.type(within(form).getByLabelText(/^Current Password/), 'oldpass1')
    await user.type(within(form).getByLabelText(/^New password/), 'newpass1')
    await user.type(within(form).getByLabelText(/^Confirm Password/), 'newpass1')
    await user.click(within(form).getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText("User Id - 1's password has been changed successfully.")).toBeInTheDocument()
    expect(localStorage.getItem('jwt_access_token')).toBe(`Bearer ${fresh}`)
    expect(localStorage.getItem('user_id')).toBe('1')
  })
})
