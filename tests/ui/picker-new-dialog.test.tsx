import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { i18n } from '../../src/i18n'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A reference picker's "New …" (issue 25), for entities defined at run time: a site lies in a
 * zone within its region (as a police station in a district within its country). The zone
 * picker opens the zone's own generic form in a dialog, with the region already chosen in the
 * site's form; its save creates the zone and selects it, and the site's form keeps everything
 * typed. Offered only to those who may create the target.
 */
const region = defineEntity({
  name: 'lot_region',
  module: 'test',
  listKey: 'lot_regions',
  route: { area: 'lotRegion-management', list: 'lotRegions' },
  fields: { name: f.text({ max: 50, required: true, search: true }) },
})
const zone = defineEntity({
  name: 'lot_zone',
  module: 'test',
  listKey: 'lot_zones',
  route: { area: 'lotZone-management', list: 'lotZones' },
  fields: { name: f.text({ max: 50, required: true, search: true }), region: f.ref('lot_region', { required: true }), code: f.text({ max: 10 }) },
})
const site = defineEntity({
  name: 'lot_site',
  module: 'test',
  listKey: 'lot_sites',
  route: { area: 'lotSite-management', list: 'lotSites' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    region: f.ref('lot_region', { required: true }),
    zone: f.ref('lot_zone', { required: true, within: { region: 'region' } }),
    note: f.text({ max: 200 }),
  },
})
const registered = [...entities, region, zone, site]
const labels = {
  entity: { lot_region: { one: 'Region', other: 'Regions' }, lot_zone: { one: 'Zone', other: 'Zones' }, lot_site: { one: 'Site', other: 'Sites' } },
  field: { region: 'Region', zone: 'Zone', note: 'Note', code: 'Code' },
}
const at = { created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', created_by: 1, updated_by: 1 }
const eastern = { id: 3, name: 'Eastern', ...at }
const hills = { id: 21, name: 'Hills', region: 3, code: 'H1', ...at }

beforeEach(() => {
  i18n.addResourceBundle('en', 'translation', labels, true, true)
})

type Posts = { zone: Record<string, unknown>[]; site: Record<string, unknown>[] }

function answers(posts: Posts) {
  return [
    http.get(api(`${region.api.base}/all/`), () => HttpResponse.json(envelope('lot_regions', [eastern]))),
    http.get(api(`${region.api.base}/3`), () => HttpResponse.json(eastern)),
    // The zones within the chosen region: none yet, until one is made.
    http.get(api(`${zone.api.base}/search/`), () => HttpResponse.json(envelope('lot_zones', posts.zone.length > 0 ? [{ ...hills, region: { id: 3, name: 'Eastern' } }] : []))),
    http.get(api(`${zone.api.base}/all/`), () => HttpResponse.json(envelope('lot_zones', []))),
    http.get(api(`${zone.api.base}/21`), () => HttpResponse.json(hills)),
    http.post(api(`${zone.api.base}/create/`), async ({ request }) => {
      posts.zone.push((await request.json()) as Record<string, unknown>)
      return HttpResponse.json(hills, { status: 201 })
    }),
    http.post(api(`${site.api.base}/create/`), async ({ request }) => {
      posts.site.push((await request.json()) as Record<string, unknown>)
      return HttpResponse.json({ id: 40, name: 'North gate', region: 3, zone: 21, note: 'By the river', ...at }, { status: 201 })
    }),
    http.get(api(`${site.api.base}/40`), () => HttpResponse.json({ id: 40, name: 'North gate', region: 3, zone: 21, note: 'By the river', ...at, _labels: { region: 'Eastern', zone: 'Hills' } })),
    http.get(api(`${site.api.base}/history/:id`), () => HttpResponse.json({ history: [] })),
  ]
}

const zonePicker = () => screen.getByRole('combobox', { name: /^Zone/ })

describe('a picker’s "New …" in a dialog', () => {
  it('makes the missing zone in its own form, within the region chosen, selects it and keeps what was typed', async () => {
    storeSessionOf(adminUser)
    const posts: Posts = { zone: [], site: [] }
    server.use(...answers(posts))
    const { user, router } = await renderApp(`${site.ui.formPath}/new`, { entities: registered })
    const fill = async (input: HTMLElement, text: string) => {
      await user.click(input)
      await user.paste(text)
    }
    await screen.findByRole('heading', { name: 'New Site' })
    await fill(screen.getByRole('textbox', { name: /^Name/ }), 'North gate')
    await fill(screen.getByRole('textbox', { name: /^Note/ }), 'By the river')
    await user.click(screen.getByRole('combobox', { name: /^Region/ }))
    await user.click(await screen.findByRole('option', { name: 'Eastern' }))
    // What was typed in the zone picker, finding nothing, names the new zone.
    await fill(zonePicker(), 'Hills')
    await screen.findByText('No results..')
    await user.click(screen.getByRole('button', { name: 'New Zone' }))

    const dialog = await screen.findByRole('dialog', { name: 'New Zone' })
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Hills')
    // The region chosen in the site's form is the new zone's.
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: /^Region/ })).toHaveValue('Eastern'))
    await fill(within(dialog).getByRole('textbox', { name: /^Code/ }), 'H1')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(posts.zone).toEqual([expect.objectContaining({ name: 'Hills', region: 3, code: 'H1' })])
    // Only the dialog's form was sent; the site's stays as it was being filled in, the new zone chosen.
    expect(posts.site).toEqual([])
    expect(zonePicker()).toHaveValue('Hills')
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('North gate')
    expect(screen.getByRole('textbox', { name: /^Note/ })).toHaveValue('By the river')
    expect(screen.getByRole('combobox', { name: /^Region/ })).toHaveValue('Eastern')
    expect(router.state.location.pathname).toBe(`${site.ui.formPath}/new`)

    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(posts.site).toHaveLength(1))
    expect(posts.site[0]).toMatchObject({ name: 'North gate', region: 3, zone: 21, note: 'By the river' })
  })

  it('says what is wrong in the dialog and sends nothing until it is fixed; Cancel leaves the form as it was', async () => {
    storeSessionOf(adminUser)
    const posts: Posts = { zone: [], site: [] }
    server.use(...answers(posts))
    const { user } = await renderApp(`${site.ui.formPath}/new`, { entities: registered })
    const fill = async (input: HTMLElement, text: string) => {
      await user.click(input)
      await user.paste(text)
    }
    await screen.findByRole('heading', { name: 'New Site' })
    await fill(screen.getByRole('textbox', { name: /^Name/ }), 'South gate')
    await user.click(screen.getByRole('button', { name: 'New Zone' }))
    const dialog = await screen.findByRole('dialog', { name: 'New Zone' })
    // No region chosen outside: none inside either.
    expect(within(dialog).getByRole('combobox', { name: /^Region/ })).toHaveValue('')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument()
    expect(posts.zone).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('South gate')
    expect(zonePicker()).toHaveValue('')
    // The site's form was not checked by the dialog's save: no message on it.
    expect(screen.queryByText('Zone is required')).toBeNull()
    expect(posts.site).toEqual([])
  })

  it('is offered only for a target the user may create', async () => {
    const clerk: ServerUser = {
      ...adminUser,
      id: 14,
      is_admin: false,
      role: 'CLERK',
      permissions: ['LOT_SITE_LIST', 'LOT_SITE_DETAILS', 'LOT_SITE_CREATE', 'LOT_ZONE_LIST', 'LOT_REGION_LIST', 'LOT_REGION_CREATE'],
    }
    storeSessionOf(clerk)
    server.use(accessTokenAnswers(clerk), ...answers({ zone: [], site: [] }))
    await renderApp(`${site.ui.formPath}/new`, { entities: registered })
    await screen.findByRole('heading', { name: 'New Site' })
    await screen.findByRole('combobox', { name: /^Zone/ })
    expect(screen.getByRole('button', { name: 'New Region' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New Zone' })).toBeNull()
  })

  it('is not offered by a list’s filter', async () => {
    storeSessionOf(adminUser)
    server.use(...answers({ zone: [], site: [] }), http.get(api(`${site.api.base}/all/`), () => HttpResponse.json(envelope('lot_sites', []))))
    const { user } = await renderApp(site.ui.listPath, { entities: registered })
    await user.click(await screen.findByRole('button', { name: /Filters/ }))
    await screen.findByRole('combobox', { name: /^Zone/ })
    expect(screen.queryByRole('button', { name: 'New Zone' })).toBeNull()
  })
})
