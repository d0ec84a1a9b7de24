import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { changeLanguage } from '../../src/i18n'
import { api, envelope, storeSession, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * Deleting from a list (issue 8): before anything is done the confirmation asks the server
 * what refers to the record (`delete_impact/`) and says it with the screens' names — what
 * refuses the delete (then only Close is offered), what is deleted with it, whose link is
 * cleared, what it is removed from; for a selection too. The toast after a delete is the
 * screen's own, in the user's language.
 */
const listPath = '/apps/thana-management/thanas'

type Impact = { can_delete: boolean; references: Array<{ entity: string; field: string; count: number; effect: string }> }

function listAnswering(impact: (ids: number[]) => Impact) {
  const asked: string[] = []
  const deleted: unknown[] = []
  server.use(
    http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', thanaRows))),
    http.get(api(`${thanaBase}/delete_impact/:id`), ({ request, params }) => {
      asked.push(new URL(request.url).pathname)
      return HttpResponse.json({ ids: [Number(params.id)], ...impact([Number(params.id)]) })
    }),
    http.get(api(`${thanaBase}/delete_impact/`), ({ request }) => {
      const url = new URL(request.url)
      asked.push(`${url.pathname}?ids=${url.searchParams.get('ids')}`)
      const ids = (url.searchParams.get('ids') ?? '').split(',').map(Number)
      return HttpResponse.json({ ids, ...impact(ids) })
    }),
    http.delete(api(`${thanaBase}/delete/:id`), ({ params }) => {
      deleted.push(Number(params.id))
      return HttpResponse.json({ detail: `Thana id - ${String(params.id)} is deleted successfully` })
    }),
    http.delete(api(`${thanaBase}/delete_multiple/`), async ({ request }) => {
      deleted.push(await request.json())
      return HttpResponse.json({ detail: 'Thana ids - [11, 13] deleted successfully' })
    }),
  )
  return { asked, deleted }
}

const refusedByUsers: Impact = {
  can_delete: false,
  references: [
    { entity: 'user', field: 'thana', count: 3, effect: 'refuse' },
    { entity: 'branch', field: 'thana', count: 1, effect: 'clear' },
  ],
}

beforeEach(() => storeSession())

describe('deleting a record others refer to', () => {
  it('says what refers to it and that it cannot be deleted, offering only Close', async () => {
    const { asked, deleted } = listAnswering(() => refusedByUsers)
    const { user } = await renderApp(listPath)
    await user.click(await screen.findByRole('button', { name: 'Delete Gulshan' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete this Police Station?' })
    await waitFor(() => expect(dialog).toHaveTextContent('It cannot be deleted while these refer to it:'))
    expect(asked).toEqual(['/thana/api/v1/thana/delete_impact/11'])
    const refused = dialog.querySelector('[data-effect="refuse"]')!
    expect(within(refused as HTMLElement).getByRole('listitem')).toHaveTextContent('3 Users')
    const cleared = dialog.querySelector('[data-effect="clear"]') as HTMLElement
    expect(cleared).toHaveTextContent('Their link to it is cleared:')
    expect(within(cleared).getByRole('listitem')).toHaveTextContent('1 Branch (Police Station)')
    expect(dialog).not.toHaveTextContent('will be deleted')
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(deleted).toEqual([])
  })

  it('says what else the delete does when it may go on, and waits for the answer before offering Delete', async () => {
    let answer: () => void = () => undefined
    const held = new Promise<void>((resolve) => (answer = resolve))
    const { deleted } = listAnswering(() => ({
      can_delete: true,
      references: [
        { entity: 'qualification', field: 'employee_id', count: 2, effect: 'delete' },
        { entity: 'role', field: 'permissions', count: 1, effect: 'unlink' },
      ],
    }))
    server.use(
      http.get(api(`${thanaBase}/delete_impact/:id`), async ({ params }) => {
        await held
        return HttpResponse.json({ ids: [Number(params.id)], can_delete: true, references: [{ entity: 'qualification', field: 'employee_id', count: 2, effect: 'delete' }, { entity: 'role', field: 'permissions', count: 1, effect: 'unlink' }] })
      }),
    )
    const { user } = await renderApp(listPath)
    await user.click(await screen.findByRole('button', { name: 'Delete Banani' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('“Banani” will be deleted.')
    expect(within(dialog).getByRole('status')).toHaveTextContent('Checking what refers to it…')
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDisabled()
    answer()
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled())
    expect(dialog.querySelector('[data-effect="delete"]')).toHaveTextContent('Deleted with it:2 Qualifications')
    expect(dialog.querySelector('[data-effect="unlink"]')).toHaveTextContent('It is removed from:1 Role')
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual([12]))
    expect(await screen.findByText('Police Station “Banani” deleted.')).toBeInTheDocument()
  })

  it('asks the same for a selection, and says it of them', async () => {
    const { asked, deleted } = listAnswering((ids) => (ids.includes(11) ? refusedByUsers : { can_delete: true, references: [] }))
    const { user } = await renderApp(listPath)
    await user.click(await screen.findByRole('checkbox', { name: 'Select Gulshan' }))
    await user.click(screen.getByRole('checkbox', { name: 'Select Kotwali' }))
    await user.click(screen.getByRole('button', { name: 'Delete selected' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete the selected records?' })
    await waitFor(() => expect(dialog).toHaveTextContent('They cannot be deleted while these refer to them:'))
    expect(asked).toEqual(['/thana/api/v1/thana/delete_impact/?ids=11,13'])
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))

    // Without the one others refer to, the selection goes.
    await user.click(screen.getByRole('checkbox', { name: 'Select Gulshan' }))
    await user.click(screen.getByRole('checkbox', { name: 'Select Banani' }))
    await user.click(screen.getByRole('button', { name: 'Delete selected' }))
    const next = await screen.findByRole('dialog')
    expect(next).toHaveTextContent('2 Police Stations will be deleted.')
    await waitFor(() => expect(within(next).getByRole('button', { name: 'Delete' })).toBeEnabled())
    await user.click(within(next).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual([{ ids: [13, 12] }]))
    expect(await screen.findByText('2 Police Stations deleted.')).toBeInTheDocument()
  })

  it('speaks the user’s language: the screens’ names in the confirmation and in the toast', async () => {
    listAnswering((ids) => (ids.includes(11) ? refusedByUsers : { can_delete: true, references: [] }))
    await changeLanguage('tr')
    const { user } = await renderApp(listPath)
    await user.click(await screen.findByRole('button', { name: 'Gulshan sil' }))
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(dialog).toHaveTextContent('Şu kayıtlar ona bağlıyken silinemez:'))
    // A noun after a number stays singular in Turkish.
    expect(dialog.querySelector('[data-effect="refuse"] li')).toHaveTextContent('3 Kullanıcı')
    await user.click(within(dialog).getByRole('button', { name: 'Kapat' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await user.click(screen.getByRole('button', { name: 'Banani sil' }))
    const next = await screen.findByRole('dialog')
    await waitFor(() => expect(within(next).getByRole('button', { name: 'Sil' })).toBeEnabled())
    await user.click(within(next).getByRole('button', { name: 'Sil' }))
    expect(await screen.findByText('Karakol “Banani” silindi.')).toBeInTheDocument()
  })

  it('still lets the user go on when the check itself fails (the server refuses what it must)', async () => {
    const { deleted } = listAnswering(() => ({ can_delete: true, references: [] }))
    server.use(http.get(api(`${thanaBase}/delete_impact/:id`), () => HttpResponse.json({ detail: 'Internal server error. The error was logged.' }, { status: 500 })))
    const { user } = await renderApp(listPath)
    await user.click(await screen.findByRole('button', { name: 'Delete Kotwali' }))
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(dialog).toHaveTextContent('Could not check what refers to it'))
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual([13]))
  })
})
