import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { changeLanguage, initI18n } from '../../src/i18n'
import { clearFeedbackHistory } from '../../src/engine/ui/feedback-history'
import { clearNotices } from '../../src/engine/ui/notifications'
import { setFoldedOpen, setMobileOpen } from '../../src/shell/navbar/navbar-state'
import { setOpenPanel } from '../../src/shell/panels/panel-state'
import { reloadSettings } from '../../src/shell/settings/store'
import { disposeRenderedApps, settleRenderedApps } from './support/rendered-apps'
import { server } from './support/server'

// Lazy routes and debounced checks can take over a second on a busy two-core machine;
// waiting longer changes no outcome, only how long a failure takes to report.
configure({ asyncUtilTimeout: 5000 })

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
  await disposeRenderedApps()
  await changeLanguage('en')
  clearNotices()
  clearFeedbackHistory()
  server.resetHandlers()
  localStorage.clear()
  sessionStorage.clear()
  // The shell's stores live as long as the page: each test starts from the defaults.
  reloadSettings()
  setOpenPanel(null)
  setMobileOpen(false)
  setFoldedOpen(false)
})

afterAll(async () => {
  await settleRenderedApps()
  server.close()
})
