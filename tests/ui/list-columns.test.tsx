import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { columnChoicesOf, defaultLayout, defaultWidthOf, normalizeLayout } from '../../src/engine/list/column-layout'
import { cityHandlers, storeSession } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The column chooser of the generic list (issue 25): the entity's list columns and its other
 * list-worthy fields, shown or hidden, put in order (dragged, or moved a step with a button),
 * widths set on the headers (a drag, or the arrow keys), the density — kept per user per list,
 * so a reload shows the same columns.
 */
const listPath = registry.city.ui.listPath
// The selection's and the actions' columns aside.
const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent).slice(1, -1)
const stored = () => JSON.parse(localStorage.getItem('list_layout:1:city') ?? 'null') as { columns: { order: string[]; hidden: string[]; widths: Record<string, number> }; density: string } | null

async function openChooser(user: Awaited<ReturnType<typeof renderApp>>['user']) {
  await user.click(screen.getByRole('button', { name: 'Columns' }))
  return screen.findByRole('dialog', { name: 'Columns and density' })
}

beforeEach(() => {
  storeSession()
  server.use(...cityHandlers)
})

describe('the columns of a list', () => {
  it('offers the list’s columns and its other list-worthy fields, and reads a stored layout forgivingly', () => {
    const city = registry.city
    expect(columnChoicesOf(city)).toEqual(['name', 'bn_name', 'country', 'url', 'lat', 'lon'])
    expect(defaultLayout(city)).toEqual({ order: ['name', 'bn_name', 'country', 'url', 'lat', 'lon'], hidden: ['lat', 'lon'], widths: {} })
    // Write-only secrets and many-valued or long fields are never offered.
    expect(columnChoicesOf(registry.user)).not.toContain('password')
    expect(columnChoicesOf(registry.ticket)).not.toContain('message')
    // A field the entity lost is dropped, one it has is put back by its neighbour, widths kept in bounds.
    expect(normalizeLayout(city, { order: ['url', 'gone', 'name'], hidden: ['name', 'gone'], widths: { url: 5, gone: 100, name: 99999 } })).toEqual({
      order: ['url', 'name', 'bn_name', 'country', 'lat', 'lon'],
      hidden: ['name', 'lat', 'lon'],
      widths: { url: 48, name: 1200 },
    })
    expect(normalizeLayout(city, 'junk')).toEqual(defaultLayout(city))
  })

  it('shows and hides columns, and keeps the choice for the next visit', async () => {
    const { user, unmount } = await renderApp(listPath)
    await screen.findByText('Dhaka')
    expect(headers()).toEqual(['#', 'Name', 'Bangla Name', 'Country', 'Website'])
    const dialog = await openChooser(user)
    expect(within(dialog).getAllByRole('checkbox').map((c) => [c.closest('li')!.textContent, (c as HTMLInputElement).checked])).toEqual([
      ['Name', true],
      ['Bangla Name', true],
      ['Country', true],
      ['Website', true],
      ['Latitude', false],
      ['Longitude', false],
    ])
    await user.click(within(dialog).getByRole('checkbox', { name: 'Bangla Name' }))
    await user.click(within(dialog).getByRole('checkbox', { name: 'Latitude' }))
    await waitFor(() => expect(headers()).toEqual(['#', 'Name', 'Country', 'Website', 'Latitude']))
    expect(stored()?.columns.hidden).toEqual(['bn_name', 'lon'])
    unmount()

    await renderApp(listPath)
    await screen.findByText('Dhaka')
    expect(headers()).toEqual(['#', 'Name', 'Country', 'Website', 'Latitude'])
  })

  it('puts columns in order with the buttons beside each (dragging is never the only way), and resets to the registry’s', async () => {
    const { user } = await renderApp(listPath)
    await screen.findByText('Dhaka')
    const dialog = await openChooser(user)
    expect(within(dialog).getByRole('button', { name: 'Drag Website' })).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Move Name earlier' })).toBeDisabled()
    await user.click(within(dialog).getByRole('button', { name: 'Move Website earlier' }))
    await user.click(within(dialog).getByRole('button', { name: 'Move Website earlier' }))
    await waitFor(() => expect(headers()).toEqual(['#', 'Name', 'Website', 'Bangla Name', 'Country']))
    await user.click(within(dialog).getByRole('button', { name: 'Move Name later' }))
    await waitFor(() => expect(headers()).toEqual(['#', 'Website', 'Name', 'Bangla Name', 'Country']))
    // The row's link goes with the label column wherever it is.
    expect(screen.getByRole('link', { name: 'Dhaka' })).toBeInTheDocument()
    expect(stored()?.columns.order.slice(0, 4)).toEqual(['url', 'name', 'bn_name', 'country'])

    await user.click(within(dialog).getByRole('button', { name: 'Reset' }))
    await waitFor(() => expect(headers()).toEqual(['#', 'Name', 'Bangla Name', 'Country', 'Website']))
  })

  it('keeps the last column shown', async () => {
    const { user } = await renderApp(listPath)
    await screen.findByText('Dhaka')
    const dialog = await openChooser(user)
    for (const name of ['Bangla Name', 'Country', 'Website']) await user.click(within(dialog).getByRole('checkbox', { name }))
    await waitFor(() => expect(headers()).toEqual(['#', 'Name']))
    expect(within(dialog).getByRole('checkbox', { name: 'Name' })).toBeDisabled()
  })

  it('sets a column’s width from its header’s edge with the arrow keys (and back with Home), kept like the rest', async () => {
    await renderApp(listPath)
    await screen.findByText('Dhaka')
    // Named by its heading alone; the handle is an unnamed edge for the pointer until the keyboard comes in.
    const header = screen.getByRole('columnheader', { name: 'Country' })
    expect(screen.queryByRole('separator')).toBeNull()
    fireEvent.keyDown(document.body, { key: 'Tab' })
    act(() => within(header).getByRole('button', { name: 'Country' }).focus())
    const handle = screen.getByRole('separator', { name: 'Width of Country' })
    expect(header).toContainElement(handle)
    const start = defaultWidthOf(registry.city.fields.country, 'Country')
    expect(handle).toHaveAttribute('aria-valuenow', String(start))
    fireEvent.keyDown(handle, { key: 'ArrowRight' })
    await waitFor(() => expect(header.style.width).toBe(`${start + 16}px`))
    expect(handle).toHaveAttribute('aria-valuenow', String(start + 16))
    fireEvent.keyDown(handle, { key: 'ArrowLeft', shiftKey: true })
    await waitFor(() => expect(header.style.width).toBe(`${start + 16 - 64}px`))
    expect(stored()?.columns.widths).toEqual({ country: start + 16 - 64 })
    // The cells keep to it.
    const cell = within(screen.getByText('Dhaka').closest('tr')!).getByText('Bangladesh').closest('td')!
    expect((cell.firstElementChild as HTMLElement).style.maxWidth).toBe(`${start + 16 - 64}px`)
    fireEvent.keyDown(handle, { key: 'Home' })
    await waitFor(() => expect(header.style.width).toBe(''))
    expect(stored()?.columns.widths).toEqual({})
  })

  it('sets a width by dragging the edge, in the page’s direction', async () => {
    await renderApp(listPath)
    await screen.findByText('Dhaka')
    const header = screen.getByRole('columnheader', { name: 'Name' })
    const handle = header.querySelector<HTMLElement>('[aria-hidden="true"].cursor-col-resize')!
    const start = defaultWidthOf(registry.city.fields.name, 'Name')
    fireEvent.pointerDown(handle, { button: 0, clientX: 300, pointerId: 1 })
    fireEvent.pointerMove(handle, { clientX: 340, pointerId: 1 })
    fireEvent.pointerUp(handle, { clientX: 340, pointerId: 1 })
    await waitFor(() => expect(header.style.width).toBe(`${start + 40}px`))
  })

  it('makes rows compact or comfortable, kept like the columns', async () => {
    const { user, unmount } = await renderApp(listPath)
    await screen.findByText('Dhaka')
    const cellOf = () => screen.getAllByText('Bangladesh')[0]!.closest('td')!
    expect(cellOf()).toHaveClass('py-3')
    const dialog = await openChooser(user)
    expect(within(dialog).getByRole('radio', { name: 'Comfortable' })).toBeChecked()
    await user.click(within(dialog).getByRole('radio', { name: 'Compact' }))
    await waitFor(() => expect(cellOf()).toHaveClass('py-1.5'))
    expect(stored()?.density).toBe('compact')
    unmount()
    await renderApp(listPath)
    await screen.findByText('Dhaka')
    expect(screen.getAllByText('Bangladesh')[0]!.closest('td')).toHaveClass('py-1.5')
  })
})
