import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { session } from '../../src/auth/session'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf, thanaBase } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The answers the page's inline script asked for with the HTML (issue 20): the app's first
 * identical call takes them instead of asking again — a list opened by its address shows
 * its rows after two round trips — and anything they cannot be trusted for is asked again.
 */
type Early = { token: string | null; language: string; at: number; answers: Record<string, Promise<Response>> }
const holder = globalThis as { __early?: Early }
const firstPage = `${thanaBase}/all/?page=1&size=30`
const answer = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))

function earlyList(body: Promise<Response>, at = Date.now()): void {
  holder.__early = { token: localStorage.getItem('jwt_access_token'), language: 'en', at, answers: { [firstPage]: body } }
}

/** The list as the server answers it when asked, and how many times it was. */
function lateList(): { calls: () => number } {
  let calls = 0
  server.use(
    accessTokenAnswers(adminUser),
    http.get(api(`${thanaBase}/all/`), () => {
      calls++
      return HttpResponse.json(envelope('thanas', [{ id: 2, name: 'Asked again', city: { id: 1, name: 'Dhaka' } }]))
    }),
  )
  return { calls: () => calls }
}

afterEach(() => {
  delete holder.__early
})

describe('the early answers', () => {
  it('are taken by the list’s first request: its rows come without asking again', async () => {
    storeSessionOf(adminUser)
    earlyList(answer(envelope('thanas', [{ id: 1, name: 'Asked with the page', city: { id: 1, name: 'Dhaka' } }])))
    const late = lateList()
    await renderApp('/apps/thana-management/thanas')
    expect(await screen.findByText('Asked with the page')).toBeInTheDocument()
    expect(late.calls()).toBe(0)
    expect(holder.__early!.answers[firstPage]).toBeUndefined()
  })

  it('are asked again when refused', async () => {
    storeSessionOf(adminUser)
    earlyList(answer({ detail: 'Invalid access_token' }, 401))
    const late = lateList()
    await renderApp('/apps/thana-management/thanas')
    expect(await screen.findByText('Asked again')).toBeInTheDocument()
    expect(late.calls()).toBe(1)
  })

  it('are asked again when left too long (the data may have changed since)', async () => {
    storeSessionOf(adminUser)
    lateList()
    earlyList(answer(envelope('thanas', [{ id: 1, name: 'Stale', city: { id: 1, name: 'Dhaka' } }])), Date.now() - 60_000)
    await renderApp('/apps/thana-management/thanas')
    expect(await screen.findByText('Asked again')).toBeInTheDocument()
    expect(screen.queryByText('Stale')).not.toBeInTheDocument()
  })

  it('are let go, bodies cancelled, once the app asks in another language: no connection stays open for them', async () => {
    storeSessionOf(adminUser)
    let cancelled = false
    const body = new ReadableStream({ cancel: () => void (cancelled = true) })
    holder.__early = { token: localStorage.getItem('jwt_access_token'), language: 'ar', at: Date.now(), answers: { [firstPage]: Promise.resolve(new Response(body)) } }
    const late = lateList()
    await renderApp('/apps/thana-management/thanas')
    expect(await screen.findByText('Asked again')).toBeInTheDocument()
    expect(late.calls()).toBe(1)
    await waitFor(() => expect(cancelled).toBe(true))
    expect(holder.__early).toBeUndefined()
  })

  it('belong to the session they were asked for: its end drops them', () => {
    storeSessionOf(adminUser)
    earlyList(answer(envelope('thanas', [])))
    session.autoLogout()
    expect(holder.__early).toBeUndefined()
  })
})
