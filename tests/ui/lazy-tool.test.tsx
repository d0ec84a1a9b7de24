import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { lazyTool } from '../../src/engine/ui/lazy-tool'

/**
 * A list's menus load when a person reaches for them (src/engine/ui/lazy-tool.tsx): the list
 * draws their buttons alone; the pointer over one, focus or a click loads the menu's code, which
 * takes the button's place — a click made before is the menu's, the focus stays on the button.
 */
type Props = { label: string }

/** A menu whose code "loads" when the test says. */
function deferredTool() {
  let resolve!: () => void
  const ready = new Promise<void>((r) => (resolve = r))
  const load = vi.fn(async () => {
    await ready
    return function Menu({ label }: Props) {
      const [isOpen, setIsOpen] = useState(false)
      return (
        <>
          <button type="button" onClick={() => setIsOpen((o) => !o)}>
            {label}
          </button>
          {isOpen && <div role="menu">{label} menu</div>}
        </>
      )
    }
  })
  const Face = ({ label }: Props) => <button type="button">{label}</button>
  return { Tool: lazyTool(load, Face), load, arrive: () => act(async () => resolve()) }
}

describe('lazyTool', () => {
  it('draws the button alone and loads nothing until a person reaches for it', async () => {
    const { Tool, load } = deferredTool()
    render(<Tool label="Columns" />)
    expect(screen.getByRole('button', { name: 'Columns' })).toBeTruthy()
    expect(load).not.toHaveBeenCalled()
    await userEvent.hover(screen.getByRole('button', { name: 'Columns' }))
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('opens the menu for a click made while its code was loading, once, and keeps the focus on its button', async () => {
    const { Tool, load, arrive } = deferredTool()
    render(<Tool label="Export" />)
    await userEvent.click(screen.getByRole('button', { name: 'Export' }))
    expect(screen.queryByRole('menu')).toBeNull()
    await arrive()
    await waitFor(() => expect(screen.getByRole('menu').textContent).toBe('Export menu'))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Export' }))
    // Its next click is the menu's own: closed again, nothing loaded twice.
    await userEvent.click(screen.getByRole('button', { name: 'Export' }))
    expect(screen.queryByRole('menu')).toBeNull()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('keeps the button for a press begun before the code came, so the click that ends it opens the menu', async () => {
    const { Tool, arrive } = deferredTool()
    render(<Tool label="Columns" />)
    const face = screen.getByRole('button', { name: 'Columns' })
    fireEvent.pointerOver(face)
    fireEvent.pointerDown(face)
    await arrive()
    // The press ends on the button it began on: a browser drops a click whose button was swapped meanwhile.
    expect(face.isConnected).toBe(true)
    fireEvent.pointerUp(face)
    fireEvent.click(face)
    await waitFor(() => expect(screen.getByRole('menu').textContent).toBe('Columns menu'))
  })

  it('gives way after a press released elsewhere, without opening anything', async () => {
    const { Tool, arrive } = deferredTool()
    render(<Tool label="Views" />)
    const face = screen.getByRole('button', { name: 'Views' })
    fireEvent.pointerOver(face)
    fireEvent.pointerDown(face)
    await arrive()
    fireEvent.pointerUp(document.body)
    await waitFor(() => expect(face.isConnected).toBe(false))
    expect(screen.queryByRole('menu')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Views' }))
    expect(screen.getByRole('menu').textContent).toBe('Views menu')
  })

  it('comes ready where another list loaded it before', async () => {
    const { Tool, arrive } = deferredTool()
    const first = render(<Tool label="Views" />)
    await userEvent.hover(screen.getByRole('button', { name: 'Views' }))
    await arrive()
    first.unmount()
    render(<Tool label="Views" />)
    await userEvent.click(screen.getByRole('button', { name: 'Views' }))
    expect(screen.getByRole('menu').textContent).toBe('Views menu')
  })
})
