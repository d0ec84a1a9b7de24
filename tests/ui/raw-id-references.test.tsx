import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { api, envelope, storeSession } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A reference the contract lists as its raw id (`listAs: 'id'`: a qualification's
 * `employee_id`, for the original client) still reads as a name in our list, from the
 * row's `_labels` (issue 9).
 */
const base = registry.qualification.api.base

const rows = [
  { id: 41, employee_id: 7, degree_name: 'Bachelor of commerce', passign_year: '2016', board: 'Dhaka', institute_name: 'Dhaka College', grade: '3.50', _labels: { employee_id: 'nusrat' } },
  { id: 42, employee_id: 9, degree_name: 'Master of arts', passign_year: '2019', board: 'Rajshahi', institute_name: 'Rajshahi University', grade: null, _labels: {} },
]

describe('a list column of raw reference ids', () => {
  beforeEach(() => storeSession())

  it('shows the referenced row’s name from _labels, and the id only when no name came with it', async () => {
    const answer = () => HttpResponse.json(envelope('qualifications', rows))
    server.use(http.get(api(`${base}/all/`), answer), http.get(api(`${base}/search/`), answer))
    await renderApp(registry.qualification.ui.listPath)
    const row = (await screen.findByText('Bachelor of commerce')).closest('tr')!
    expect(within(row).getByText('nusrat')).toBeInTheDocument()
    expect(within(row).queryByText('#7')).not.toBeInTheDocument()
    expect(within(screen.getByText('Master of arts').closest('tr')!).getByText('#9')).toBeInTheDocument()
  })

  it('names a role’s permissions listed as ids from _labels, summed up when many', async () => {
    const roles = [{ id: 3, name: 'CLERK', permissions: [1, 2, 6], _labels: { permissions: { 1: 'COUNTRY_LIST', 2: 'COUNTRY_DETAILS', 6: 'CITY_LIST' } } }, { id: 4, name: 'VIEWER', permissions: [1], _labels: { permissions: { 1: 'COUNTRY_LIST' } } }]
    server.use(http.get(api(`${registry.role.api.base}/all/`), () => HttpResponse.json(envelope('roles', roles))))
    const { user } = await renderApp(registry.role.ui.listPath)
    const viewer = (await screen.findByRole('link', { name: 'VIEWER' })).closest('tr')!
    expect(within(viewer).getByText('COUNTRY_LIST')).toBeInTheDocument()
    const clerk = screen.getByRole('link', { name: 'CLERK' }).closest('tr')!
    await user.click(within(clerk).getByRole('button', { name: /3 Permissions/ }))
    expect(within(clerk).getByText('CITY_LIST')).toBeInTheDocument()
  })
})
