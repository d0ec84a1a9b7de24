import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { changeLanguage, i18n, initI18n } from '../../src/i18n'
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

// The files of a worker share one page and one i18next (isolate: false): what a file leaves is
// put back when it ends — the catalogues as it found them (files add their throwaway entities'
// labels; in place, i18next reads those very objects), the page's body and address.
let catalogues: Record<string, Record<string, Record<string, unknown>>> = {}
let asFound: typeof catalogues = {}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  await initI18n('en')
  catalogues = i18n.store.data as typeof catalogues
  asFound = structuredClone(catalogues)
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
  // The next file's page starts empty, as a page of its own would (a file may write the body itself).
  document.body.replaceChildren()
  window.history.replaceState(null, '', '/')
  for (const [language, namespaces] of Object.entries(asFound)) {
    for (const [namespace, found] of Object.entries(namespaces)) {
      const bundle = catalogues[language]![namespace] as Record<string, unknown>
      for (const key of Object.keys(bundle)) if (!(key in (found as object))) delete bundle[key]
      Object.assign(bundle, structuredClone(found))
    }
  }
})
