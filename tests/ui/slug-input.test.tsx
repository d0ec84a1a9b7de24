import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { i18n } from '../../src/i18n'
import { api, storeSession } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/** A page of a site whose address is made from its title: an entity of this test only. */
const page = defineEntity({
  name: 'page',
  module: 'test',
  listKey: 'pages',
  route: { area: 'page-management', list: 'pages' },
  fields: {
    title: f.text({ max: 100, required: true, search: true }),
    slug: f.slug({ from: 'title', max: 20 }),
  },
})
const withPage = [...entities, page]
const base = '/page/api/v1/page'
const stored = { id: 4, title: 'About us', slug: 'about-us', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', created_by: 1, updated_by: 1 }

const title = () => screen.getByRole('textbox', { name: /^Title/ })
const slug = () => screen.getByRole('textbox', { name: /^Slug/ })

describe('slug input (f.slug)', () => {
  let sent: Record<string, unknown> | undefined
  beforeEach(() => {
    sent = undefined
    storeSession()
    i18n.addResourceBundle('en', 'translation', { entity: { page: { one: 'Page', other: 'Pages' } }, field: { title: 'Title', slug: 'Slug' } }, true, true)
    server.use(
      http.get(api(`${base}/all/`), () => HttpResponse.json({ pages: [stored], page: 1, size: 30, total_pages: 1, total_elements: 1 })),
      http.get(api(`${base}/4`), () => HttpResponse.json(stored)),
      http.post(api(`${base}/create/`), async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ ...stored, ...sent, id: 5 }, { status: 201 })
      }),
      http.put(api(`${base}/update/4`), async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ ...stored, ...sent })
      }),
    )
  })

  it('makes the slug from the title as it is typed, with the server’s function, and sends it', async () => {
    const { user } = await renderApp('/apps/page-management/pages/new', { entities: withPage })
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Summer in Şile!')
    expect(slug()).toHaveValue('summer-in-sile')
    expect(slug()).toHaveAccessibleDescription('Filled in as you type; you may write your own.')
    await user.type(title(), ' 2026, the long guide')
    // Within the field's 20 characters, never ending in a dash.
    expect(slug()).toHaveValue('summer-in-sile-2026')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toEqual({ title: 'Summer in Şile! 2026, the long guide', slug: 'summer-in-sile-2026' }))
  })

  it('keeps a slug the person writes, made tidy when they leave it', async () => {
    const { user } = await renderApp('/apps/page-management/pages/new', { entities: withPage })
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Prices')
    expect(slug()).toHaveValue('prices')
    await user.clear(slug())
    await user.type(slug(), 'Our Prices 2026')
    await user.click(title())
    expect(slug()).toHaveValue('our-prices-2026')
    await user.type(title(), ' and offers')
    expect(slug()).toHaveValue('our-prices-2026')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toEqual({ title: 'Prices and offers', slug: 'our-prices-2026' }))
  })

  it('leaves a stored record’s slug as it is; cleared, it shows the slug the title makes and follows the title again', async () => {
    const { user } = await renderApp('/apps/page-management/pages/4', { entities: withPage })
    await waitFor(() => expect(title()).toHaveValue('About us'))
    await user.type(title(), ' and our team')
    expect(slug()).toHaveValue('about-us')

    await user.clear(slug())
    expect(slug()).toHaveAttribute('placeholder', 'about-us-and-our-tea')
    await user.type(title(), 's')
    expect(slug()).toHaveValue('about-us-and-our-tea')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toMatchObject({ title: 'About us and our teams', slug: 'about-us-and-our-tea' }))
  })
})
