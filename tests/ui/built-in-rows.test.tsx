import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * Rows the system relies on (the roles ADMIN, STAFF and USER) keep their name and stay
 * (issue 8): the server refuses either change, so the screens do not offer them.
 */
const roleBase = registry.role.api.base
const roles = [
  { id: 1, name: 'ADMIN', permissions: [] },
  { id: 4, name: 'ACCOUNTANT', permissions: [] },
]
const permissionsAnswer = http.get(api(`${registry.permission.api.base}/without_pagination/all/`), () => HttpResponse.json({ permissions: [] }))

describe('built-in rows', () => {
  it('offers no delete and no selection for a built-in role, and both for another', async () => {
    storeSessionOf(adminUser)
    server.use(accessTokenAnswers(adminUser), http.get(api(`${roleBase}/all/`), () => HttpResponse.json(envelope(registry.role.listKey, roles))))
    await renderApp(registry.role.ui.listPath)
    const admin = (await screen.findByRole('link', { name: 'ADMIN' })).closest('tr')!
    const accountant = screen.getByRole('link', { name: 'ACCOUNTANT' }).closest('tr')!
    expect(within(admin).queryByRole('button', { name: /Delete/ })).toBeNull()
    expect(within(admin).queryByRole('checkbox')).toBeNull()
    expect(within(accountant).getByRole('button', { name: /Delete/ })).toBeInTheDocument()
    expect(within(accountant).getByRole('checkbox')).toBeInTheDocument()
  })

  it('selects only the rows that can be deleted with “select all”', async () => {
    storeSessionOf(adminUser)
    server.use(accessTokenAnswers(adminUser), http.get(api(`${roleBase}/all/`), () => HttpResponse.json(envelope(registry.role.listKey, roles))))
    const { user } = await renderApp(registry.role.ui.listPath)
    await screen.findByRole('link', { name: 'ADMIN' })
    await user.click(screen.getByRole('checkbox', { name: /Select all/ }))
    expect(screen.getByRole('checkbox', { name: /Select all/ })).toBeChecked()
    expect(within(screen.getByRole('link', { name: 'ACCOUNTANT' }).closest('tr')!).getByRole('checkbox')).toBeChecked()
    expect(screen.getByRole('button', { name: /Delete selected|Delete 1/ })).toBeInTheDocument()
  })

  it('shows a built-in role’s name read-only, saying why, and leaves another role’s editable', async () => {
    storeSessionOf(adminUser)
    server.use(
      accessTokenAnswers(adminUser),
      permissionsAnswer,
      http.get(api(`${roleBase}/1`), () => HttpResponse.json(roles[0])),
      http.get(api(`${roleBase}/4`), () => HttpResponse.json(roles[1])),
    )
    const { router } = await renderApp(`${registry.role.ui.formPath}/1/ADMIN`)
    const name = await screen.findByRole('textbox', { name: 'Name' })
    expect(name).toHaveValue('ADMIN')
    expect(name).toHaveAttribute('readonly')
    expect(name).toHaveAccessibleDescription('Built in: this name cannot be changed.')
    await router.navigate({ to: `${registry.role.ui.formPath}/4/ACCOUNTANT` })
    const other = await screen.findByDisplayValue('ACCOUNTANT')
    expect(other).not.toHaveAttribute('readonly')
    expect(screen.queryByText('Built in: this name cannot be changed.')).toBeNull()
  })
})
