/** The React Query clients of the apps a test rendered (render-app.tsx), for the setup to stop after it. */
type Disposable = { clear: () => void }
const clients = new Set<Disposable>()

export const trackRenderedApp = (client: Disposable): void => void clients.add(client)

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
