import { http, HttpResponse, delay } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isApiError } from '../../src/engine/api'
import { connectApiSession } from '../../src/engine/api-session'
import { openApiResponse } from '../../src/engine/api-response'
import { server } from './support/server'

/**
 * The streamed calls (exports, imports, bulk changes, report files) go out as the session
 * every call is: its token, the language, the screen a write was made on; a refusal keeps
 * its whole body (a bulk change names each record beside `detail`); a 401 ends the session;
 * and nothing cuts a long answer short but the user's own cancel.
 */
const onUnauthorized = vi.fn()
let disconnect = () => {}

beforeEach(() => {
  onUnauthorized.mockReset()
  disconnect = connectApiSession({ token: () => 'Bearer streamed', onUnauthorized })
})

afterEach(() => {
  disconnect()
  vi.useRealTimers()
})

describe('openApiResponse', () => {
  it('sends the token, the language and, on a write, the screen; the JSON body as JSON', async () => {
    const seen: Request[] = []
    server.use(
      http.post('*/x/api/v1/thing/bulk_update/', async ({ request }) => {
        seen.push(request.clone())
        return HttpResponse.json({ updated: 1, batch: 'b' })
      }),
    )
    window.history.replaceState(null, '', '/thing')
    const response = await openApiResponse('/x/api/v1/thing/bulk_update/', { method: 'post', json: { ids: [1] } })
    expect(await response.json()).toEqual({ updated: 1, batch: 'b' })
    const [request] = seen
    expect(request!.headers.get('authorization')).toBe('Bearer streamed')
    expect(request!.headers.get('accept-language')).toBe('en')
    expect(request!.headers.get('x-screen')).toBe('/thing')
    expect(request!.headers.get('content-type')).toBe('application/json')
    expect(await request!.json()).toEqual({ ids: [1] })
  })

  it('names no screen on a read, and leaves empty query values out', async () => {
    const seen: Request[] = []
    server.use(
      http.get('*/x/api/v1/thing/export/', ({ request }) => {
        seen.push(request)
        return new HttpResponse('a,b\r\n')
      }),
    )
    await openApiResponse('/x/api/v1/thing/export/', { searchParams: { format: 'csv', columns: '', q: undefined } })
    expect(seen[0]!.headers.get('x-screen')).toBeNull()
    expect(new URL(seen[0]!.url).search).toBe('?format=csv')
  })

  it('keeps the whole body of a refusal beside its detail', async () => {
    const body = { detail: 'Nothing was changed.', rows: { '7': { name: ['Too long.'] } }, labels: { '7': 'Dhaka' } }
    server.use(http.post('*/x/api/v1/thing/bulk_update/', () => HttpResponse.json(body, { status: 400 })))
    const error = await openApiResponse('/x/api/v1/thing/bulk_update/', { method: 'post', json: {} }).catch((e: unknown) => e)
    expect(isApiError(error) && error.detail).toBe('Nothing was changed.')
    expect(isApiError(error) && error.body).toEqual(body)
  })

  it('ends the session on a 401', async () => {
    server.use(http.get('*/x/api/v1/thing/export/', () => HttpResponse.json({ detail: 'Invalid access_token' }, { status: 401 })))
    await expect(openApiResponse('/x/api/v1/thing/export/')).rejects.toMatchObject({ status: 401 })
    expect(onUnauthorized).toHaveBeenCalledOnce()
  })

  it('waits for a slow answer past the JSON client’s 30 s, until cancelled', async () => {
    server.use(
      http.post('*/x/api/v1/thing/bulk_update/', async () => {
        await delay(40_000)
        return HttpResponse.json({ updated: 10_000, batch: 'b' })
      }),
    )
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const answer = openApiResponse('/x/api/v1/thing/bulk_update/', { method: 'post', json: {} })
    await vi.advanceTimersByTimeAsync(40_000)
    expect((await answer).status).toBe(200)
  })
})
