import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { accessTokenAnswers, adminUser, api, type ServerUser, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A required reference whose rows the user may not list (a staff member without the users'
 * list, on a shipping address): no empty picker — the stored choice by its name, read-only,
 * and why.
 */
const ADDRESS = registry.shippingaddress
const staff: ServerUser = {
  ...adminUser,
  id: 12,
  is_admin: false,
  role: 'STAFF',
  permissions: ['SHIPPING_ADDRESS_LIST', 'SHIPPING_ADDRESS_DETAILS', 'SHIPPING_ADDRESS_UPDATE', 'COUNTRY_LIST', 'CITY_LIST', 'THANA_LIST'],
}

describe('a reference the user may not list', () => {
  it('shows the stored user by name, read-only, with the reason, instead of a picker', async () => {
    storeSessionOf(staff)
    server.use(
      accessTokenAnswers(staff),
      http.get(api(`${ADDRESS.api.base}/4`), () =>
        HttpResponse.json({ id: 4, user: 9, name: 'Nusrat Jahan', phone: '+8801811000222', street_address: 'Road 5', zip_code: '1205', country: null, city: null, thana: null, updated_at: '2026-11-23T00:00:00Z', _labels: { user: 'farhana' } }),
      ),
    )
    await renderApp(`${ADDRESS.ui.formPath}/4`)
    const user = await screen.findByRole('textbox', { name: /^User/ })
    expect(user).toHaveValue('farhana')
    expect(user).toHaveAttribute('readonly')
    expect(within(user.closest('[data-field]') as HTMLElement).getByText('You may not list Users: an administrator can set this.')).toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: /^User/ })).toBeNull()
  })
})
