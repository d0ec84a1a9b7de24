import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { changeLanguage, initI18n } from '../../src/i18n'
import { clearNotices } from '../../src/engine/ui/notifications'
import { server } from './support/server'

// TanStack Router restores scroll positions; jsdom has no layout.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo

// Headless UI positions its popups with floating-ui, which observes element sizes.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub
// Headless UI's transitions ask for running animations; jsdom runs none.
Element.prototype.getAnimations ??= () => []

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  await initI18n('en')
})

afterEach(async () => {
  cleanup()
  await changeLanguage('en')
  clearNotices()
  server.resetHandlers()
  localStorage.clear()
  sessionStorage.clear()
})

afterAll(() => server.close())
