import { PENDING_MS } from '../../../src/app/router'

/** The React Query clients of the apps a test rendered (render-app.tsx), for the setup to stop after it. */
type Disposable = { clear: () => void }
const clients = new Set<Disposable>()
let hasRendered = false

export const trackRenderedApp = (client: Disposable): void => {
  clients.add(client)
  hasRendered = true
}

/**
 * Stops what the apps rendered so far still have in flight: their queries are cleared, and the
 * notifications React Query had already scheduled (a timer each) run now, while the page still
 * exists — run after the test file, they once reached React with no window left.
 */
export async function disposeRenderedApps(): Promise<void> {
  for (const client of clients) client.clear()
  clients.clear()
  await new Promise((resolve) => setTimeout(resolve, 0))
}

/**
 * Before a test file's page goes: a router still loading a route when its test ended offers
 * its pending state once its delay (PENDING_MS) has passed — a timer of its own, which once
 * ran after the page was gone ("window is not defined"). Waited out once per file that drew an app.
 */
export async function settleRenderedApps(): Promise<void> {
  if (!hasRendered) return
  await new Promise((resolve) => setTimeout(resolve, PENDING_MS + 100))
}
