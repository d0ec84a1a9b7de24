import { resolve } from 'node:path'
import { isBuildCurrent } from './build-inputs'

/**
 * `npm start`'s first step: builds the browser app only when dist/ is missing or was built
 * from other inputs than the current ones (a restart with nothing changed starts at once).
 * The build records its inputs itself (recordBuildInputs in vite.config.ts).
 */
const root = process.cwd()
if (!isBuildCurrent({ root, outDir: resolve(root, 'dist') })) {
  console.log('Building the browser app: its sources changed since the last build.')
  // Loaded only when needed: importing Vite costs a second of every restart.
  const { build } = await import('vite')
  await build({ root, logLevel: 'warn' })
}
