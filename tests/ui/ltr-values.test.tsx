import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { defaultSettings } from '../../src/shell/settings/settings'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * Phone numbers and codes read left to right in every language (issue 8): in an Arabic table
 * `+880` stays `+880`, isolated from the Arabic around it, and their inputs are typed left to right.
 */
const arabicAdmin = { ...adminUser, settings: { ...defaultSettings, language: 'ar', direction: 'rtl' as const } }
const bangladesh = { id: 7, name: 'بنغلاديش', capital_name: 'دكا', country_code: 'BD', phone_code: '+880', currency_code: 'BDT', continent_name: 'آسيا' }

describe('left-to-right values in a right-to-left page', () => {
  it('isolates codes in list cells, left to right, and leaves words alone', async () => {
    storeSessionOf(arabicAdmin)
    server.use(
      accessTokenAnswers(arabicAdmin),
      http.get(api(`${registry.country.api.base}/all/`), () => HttpResponse.json(envelope(registry.country.listKey, [bangladesh]))),
    )
    await renderApp(registry.country.ui.listPath)
    const row = (await screen.findByText('بنغلاديش')).closest('tr')!
    expect(document.documentElement).toHaveAttribute('dir', 'rtl')
    for (const code of ['+880', 'BD', 'BDT']) {
      const cell = within(row).getByText(code)
      expect(cell.tagName, code).toBe('BDI')
      expect(cell).toHaveAttribute('dir', 'ltr')
    }
    expect(within(row).getByText('دكا').closest('bdi')).toBeNull()
  })

  it('lines the language menu up with the page, each language’s name isolated in its own direction', async () => {
    storeSessionOf(arabicAdmin)
    server.use(accessTokenAnswers(arabicAdmin), http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('rows', []))))
    const { user } = await renderApp(registry.country.ui.listPath)
    await user.click(await screen.findByRole('button', { name: /^اللغة/ }))
    const english = screen.getByRole('menuitemradio', { name: /English/ })
    expect(english).not.toHaveAttribute('dir')
    const name = within(english).getByText('English')
    expect(name.tagName).toBe('BDI')
    expect(name).toHaveAttribute('lang', 'en')
    expect(name).toHaveAttribute('dir', 'ltr')
  })

  it('types codes left to right in an Arabic form', async () => {
    storeSessionOf(arabicAdmin)
    server.use(accessTokenAnswers(arabicAdmin))
    await renderApp(`${registry.country.ui.formPath}/new`)
    const inputs = await screen.findAllByRole('textbox')
    const byName = (name: string) => inputs.find((i) => i.getAttribute('name') === name)!
    for (const name of ['phone_code', 'country_code', 'currency_code']) expect(byName(name), name).toHaveAttribute('dir', 'ltr')
    expect(byName('name')).not.toHaveAttribute('dir')
  })

  it('types phone numbers and postal codes left to right in an Arabic form', async () => {
    storeSessionOf(arabicAdmin)
    server.use(
      accessTokenAnswers(arabicAdmin),
      http.get(api('/:entity/api/v1/:same/all/'), ({ params }) => HttpResponse.json(envelope(`${String(params.entity)}s`, []))),
    )
    await renderApp(`${registry.user.ui.formPath}/new`)
    await screen.findAllByRole('textbox')
    for (const name of ['primary_phone', 'postal_code']) expect(document.querySelector(`input[name="${name}"]`), name).toHaveAttribute('dir', 'ltr')
    expect(document.querySelector('input[name="first_name"]')).not.toHaveAttribute('dir')
  })
})
