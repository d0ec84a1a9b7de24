import { http, HttpResponse, type JsonBodyType } from 'msw'
import { registry } from '../../../schema'

/** Demo rows in the shapes the contract answers (list rows nest references as {id, name}). */
export const cities = [
  { id: 1, name: 'Dhaka', bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' } },
  { id: 2, name: 'Chattogram', bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' } },
  { id: 3, name: "Cox's Bazar", bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' } },
]

export const thanaRows = [
  { id: 11, name: 'Gulshan', bn_name: 'গুলশান', url: null, city: { id: 1, name: 'Dhaka' } },
  { id: 12, name: 'Banani', bn_name: null, url: 'www.banani.gov.bd', city: { id: 1, name: 'Dhaka' } },
  { id: 13, name: 'Kotwali', bn_name: null, url: null, city: { id: 2, name: 'Chattogram' } },
]

export const api = (path: string) => `*${path}`

export const thanaBase = registry.thana.api.base
export const cityBase = registry.city.api.base

export function envelope(listKey: string, rows: readonly JsonBodyType[], page = 1, size = 30, total = rows.length) {
  return { [listKey]: rows, page, size, total_pages: Math.max(1, Math.ceil(total / size)), total_elements: total }
}

/** A JWT shape `decodeJwt` accepts (the browser never verifies signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`
}

export const validToken = () => fakeJwt({ user_id: 1, token_type: 'access', exp: Math.floor(Date.now() / 1000) + 3600 })
export const expiredToken = () => fakeJwt({ user_id: 1, token_type: 'access', exp: Math.floor(Date.now() / 1000) - 60 })

export function storeSession(token = validToken()): void {
  localStorage.setItem('jwt_access_token', `Bearer ${token}`)
  localStorage.setItem('user_id', '1')
  localStorage.setItem('user_profile', JSON.stringify({ id: 1, email: 'admin@example.com', displayName: 'admin', role: 'admin', photoURL: null }))
}

/** Handlers for the city lookups a thana form needs. */
export const cityHandlers = [
  http.get(api(`${cityBase}/all/`), ({ request }) => {
    const size = Number(new URL(request.url).searchParams.get('size') ?? 30)
    return HttpResponse.json(envelope('cities', cities.slice(0, size), 1, size, cities.length))
  }),
  http.get(api(`${cityBase}/search/`), ({ request }) => {
    const text = (new URL(request.url).searchParams.get('name') ?? '').toLowerCase()
    const rows = cities.filter((c) => c.name.toLowerCase().includes(text))
    return HttpResponse.json(envelope('cities', rows, 1, 20))
  }),
  http.get(api(`${cityBase}/:id`), ({ params }) => {
    if (!/^\d+$/.test(String(params.id))) return undefined
    const city = cities.find((c) => String(c.id) === params.id)
    return city ? HttpResponse.json({ ...city, country: 18 }) : HttpResponse.json({ detail: 'City id - x doesn\'t exists' }, { status: 404 })
  }),
]
