import { resolve } from 'node:path'
import { buildState } from './build-inputs'

/**
 * `npm start`'s first step: builds the browser app only when dist/ is missing or was built
 * from other inputs than the current ones (a restart with nothing changed starts at once).
 * The build records its inputs itself (recordBuildInputs in vite.config.ts).
 */
const root = process.cwd()
const state = buildState({ root, outDir: resolve(root, 'dist') })
if (state !== 'current') {
  // Said as it is: a fresh clone has never been built, nothing "changed".
  console.log(state === 'missing' ? 'Building the browser app for its first start (a minute or so).' : 'Building the browser app: its sources changed since the last build.')
  // Loaded only when needed: importing Vite costs a second of every restart.
  const { build } = await import('vite')
  await build({ root, logLevel: 'warn' })
}
