import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { matchCommands, type PaletteCommand } from '../../src/shell/palette/palette-commands'
import { accessTokenAnswers, adminUser, api, clerkUser, storeSessionOf, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/** The command palette (Ctrl/Cmd+K) and the shortcuts sheet (`?`), issue 25. */
function signedInAs(user: ServerUser) {
  storeSessionOf(user)
  server.use(accessTokenAnswers(user))
}

async function openPalette() {
  fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true })
  return screen.findByRole('combobox', { name: 'Command palette' })
}

describe('matching commands', () => {
  const commands: PaletteCommand[] = [
    { id: 'a', kind: 'screen', title: 'Police Stations', url: '/a' },
    { id: 'b', kind: 'screen', title: 'Districts', url: '/b' },
    { id: 'c', kind: 'new', title: 'New District', url: '/c' },
  ]
  it('keeps the entries holding every word typed, ignoring case and accents', () => {
    expect(matchCommands(commands, 'dıstrict').map((c) => c.id)).toEqual(['b', 'c'])
    expect(matchCommands(commands, 'new dis').map((c) => c.id)).toEqual(['c'])
    expect(matchCommands(commands, '')).toHaveLength(3)
    expect(matchCommands(commands, 'zzz')).toEqual([])
  })
})

describe('the command palette', () => {
  it('opens on Ctrl+K, goes to a screen of the menu, creates what the user may create and finds records across entities', async () => {
    const asked: string[] = []
    server.use(
      http.get(api('/api/search/'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('q') ?? '')
        return HttpResponse.json({ results: [{ entity: 'city', total: 5, rows: [{ id: 42, label: 'Dhaka' }, { id: 43, label: 'Dhamrai' }] }] })
      }),
    )
    signedInAs(adminUser)
    const app = await renderApp('/example')
    await screen.findByRole('heading', { name: 'Example page' })
    const user = userEvent.setup()
    const input = await openPalette()
    await user.type(input, 'dha')
    const listbox = screen.getByRole('listbox')
    expect(await within(listbox).findByRole('option', { name: /Dhaka/ })).toBeInTheDocument()
    expect(within(listbox).getByRole('option', { name: /3 more in Districts/ })).toBeInTheDocument()
    expect(asked.at(-1)).toBe('dha')
    await user.click(within(listbox).getByRole('option', { name: /Dhaka/ }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe(`${registry.city.ui.formPath}/42/Dhaka`))
    expect(screen.queryByRole('combobox', { name: 'Command palette' })).not.toBeInTheDocument()

    const again = await openPalette()
    await user.type(again, 'new district')
    await user.keyboard('{Enter}')
    await waitFor(() => expect(app.router.state.location.pathname).toBe(`${registry.city.ui.formPath}/new`))
  })

  it('offers "New …" only for what the user may create, and says so when nothing matches', async () => {
    server.use(http.get(api('/api/search/'), () => HttpResponse.json({ results: [] })))
    signedInAs(clerkUser)
    await renderApp('/example')
    await screen.findByRole('heading', { name: 'Example page' })
    const user = userEvent.setup()
    const input = await openPalette()
    await user.type(input, 'new police')
    expect(await screen.findByText('No results..')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'Command palette' })).not.toBeInTheDocument())
  })
})

describe('the shortcuts sheet', () => {
  it('opens on ? outside a field, lists the keys, and leaves ? alone while typing', async () => {
    signedInAs(adminUser)
    await renderApp('/example')
    await screen.findByRole('heading', { name: 'Example page' })
    fireEvent.keyDown(document.body, { key: '?' })
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })
    expect(within(sheet).getByText('Open the command palette')).toBeInTheDocument()
    fireEvent.click(within(sheet).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument())
    const field = document.createElement('input')
    document.body.append(field)
    fireEvent.keyDown(field, { key: '?' })
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument()
    field.remove()
  })
})
