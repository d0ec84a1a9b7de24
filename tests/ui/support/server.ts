import { setupServer } from 'msw/node'
import { defaultHandlers } from './fixtures'

/** One msw server for the ui suite: the session's defaults (fixtures.ts); each test adds the handlers it needs. */
export const server = setupServer(...defaultHandlers)
