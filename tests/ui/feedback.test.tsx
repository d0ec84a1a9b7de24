import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FeedbackView } from '../../src/engine/ui/Notifications'
import { ALERT_MS, MAX_NOTICES, notify, showAlert, showSnackbar, SNACKBAR_MS, useFeedback } from '../../src/engine/ui/notifications'

/** The one feedback API (spec §4, §9): alert 3 s, snackbar 6 s, at most five notifications. */
describe('feedback', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('hides the alert after 3 seconds and clears its value; success is the default type', () => {
    expect(ALERT_MS).toBe(3000)
    render(<FeedbackView />)
    act(() => void showAlert({ key: 'app.copyright', params: { year: 2026 } }))
    const alert = screen.getByTestId('alert')
    expect(alert).toHaveTextContent('© 2026 Back-office. All rights reserved.')
    expect(alert).toHaveAttribute('data-kind', 'success')
    act(() => vi.advanceTimersByTime(2999))
    expect(screen.getByTestId('alert')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByTestId('alert')).not.toBeInTheDocument()
  })

  it.each(['success', 'warning', 'error', 'info'] as const)('shows a %s alert in its own colour', (kind) => {
    render(<FeedbackView />)
    act(() => void showAlert({ kind, text: `a ${kind}` }))
    expect(screen.getByTestId('alert')).toHaveAttribute('data-kind', kind)
    expect(screen.getByTestId('alert')).toHaveAttribute('role', kind === 'error' ? 'alert' : 'status')
  })

  it('shows the snackbar at the top centre and hides it after 6 seconds; a new one replaces it', () => {
    expect(SNACKBAR_MS).toBe(6000)
    render(<FeedbackView />)
    act(() => void showSnackbar({ text: 'first' }))
    act(() => vi.advanceTimersByTime(4000))
    act(() => void showSnackbar({ text: 'second' }))
    expect(screen.getByTestId('snackbar')).toHaveTextContent('second')
    expect(screen.getByTestId('snackbar').parentElement).toHaveClass('top-4', 'justify-center')
    act(() => vi.advanceTimersByTime(5999))
    expect(screen.getByTestId('snackbar')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByTestId('snackbar')).not.toBeInTheDocument()
  })

  it('keeps at most five notifications at the bottom end, dropping the oldest', () => {
    expect(MAX_NOTICES).toBe(5)
    render(<FeedbackView />)
    act(() => {
      for (let i = 1; i <= 7; i++) notify({ kind: 'info', text: `notice ${i}` })
    })
    const stack = screen.getByTestId('notifications')
    expect(stack).toHaveClass('bottom-4', 'end-4')
    expect(stack.children).toHaveLength(5)
    expect(stack).toHaveTextContent('notice 3')
    expect(stack).not.toHaveTextContent('notice 2')
    expect(stack).toHaveTextContent('notice 7')
  })

  it('is one store: a component sees alert, snackbar and notifications together', () => {
    let seen: ReturnType<typeof useFeedback> | undefined
    function Probe() {
      seen = useFeedback()
      return null
    }
    render(<Probe />)
    act(() => {
      showAlert({ text: 'a' })
      showSnackbar({ text: 's' })
      notify({ kind: 'error', text: 'n' })
    })
    expect(seen).toMatchObject({ alert: { text: 'a', kind: 'success' }, snackbar: { text: 's' }, notices: [{ text: 'n', kind: 'error' }] })
  })
})
