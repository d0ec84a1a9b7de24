import { setupServer } from 'msw/node'

/** One msw server for the ui suite; each test installs the handlers it needs. */
export const server = setupServer()
