import { createMemoryHistory } from '@tanstack/react-router'
import { act, render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { entities as registryEntities } from '../../../schema'
import { App } from '../../../src/app/App'
import { createQueryClient } from '../../../src/app/query-client'
import { createAppRouter } from '../../../src/app/router'
import { buildSignedInRoutes } from '../../../src/app/signed-in-routes'
import { session } from '../../../src/auth/session'
import { checkSession } from '../../../src/auth/start-up'
import type { AnyEntity } from '../../../src/engine/entity-api'
import { trackRenderedApp } from './rendered-apps'

/**
 * The whole app at a URL, in jsdom: the real router, session, api client and screens,
 * with the network answered by msw.
 */
export async function renderApp(path: string, options: { entities?: readonly AnyEntity[] | null; loadEntities?: () => Promise<readonly AnyEntity[]> } = {}) {
  const history = createMemoryHistory({ initialEntries: [path] })
  const queryClient = createQueryClient()
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0 } })
  trackRenderedApp(queryClient)
  const entities = options.entities === undefined ? registryEntities : options.entities
  const router = createAppRouter({ entities, loadEntities: options.loadEntities, signedInRoutes: buildSignedInRoutes, history, queryClient })
  session.restart()
  const user = userEvent.setup()
  const view = render(<App router={router} />)
  await act(() => checkSession())
  return { ...view, router, history, queryClient, user }
}
