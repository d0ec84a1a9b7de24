import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildState, hashBuildInputs, isBuildCurrent, stampPath, writeBuildStamp } from '../../../scripts/build-inputs'

/** `npm start` builds the browser app only when dist/ is not a build of the current inputs (scripts/build-if-stale.ts). */
describe('whether dist/ is a build of the current inputs', () => {
  let root = ''
  let outDir = ''
  const env = {}
  const write = (path: string, content: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  const isCurrent = (environment: NodeJS.ProcessEnv = env) => isBuildCurrent({ root, outDir, env: environment })
  /** What a finished `vite build` leaves (recordBuildInputs): the app and the stamp of its inputs. */
  const build = (environment: NodeJS.ProcessEnv = env) => {
    write('dist/index.html', '<!doctype html>')
    writeBuildStamp(outDir, hashBuildInputs(root, environment))
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-inputs-'))
    outDir = join(root, 'dist')
    write('index.html', '<div id="root"></div>')
    write('vite.config.ts', 'export default {}')
    write('package-lock.json', '{}')
    write('src/app/main.tsx', 'render()')
    write('schema/index.ts', 'export const entities = []')
    write('README.md', '# Back-office')
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('is missing on a fresh clone: there is no dist/ (a first build, not a change)', () => {
    expect(isCurrent()).toBe(false)
    expect(buildState({ root, outDir, env })).toBe('missing')
    build()
    expect(buildState({ root, outDir, env })).toBe('current')
    write('src/app/main.tsx', 'render(changed)')
    expect(buildState({ root, outDir, env })).toBe('stale')
  })

  it('is current right after a build, and stays so when files are touched without being changed', () => {
    build()
    expect(isCurrent()).toBe(true)
    const later = new Date(Date.UTC(2030, 0, 1))
    for (const file of ['index.html', 'src/app/main.tsx', 'schema/index.ts']) utimesSync(join(root, file), later, later)
    expect(isCurrent()).toBe(true)
  })

  it.each([
    ['a source file changes', () => write('src/app/main.tsx', 'render(<App />)')],
    ['a source file is added', () => write('src/shell/Shell.tsx', 'export {}')],
    ['a source file is renamed', () => renameSync(join(root, 'src/app/main.tsx'), join(root, 'src/app/start.tsx'))],
    ['the registry changes', () => write('schema/index.ts', 'export const entities = [city]')],
    ['index.html changes', () => write('index.html', '<div id="app"></div>')],
    ['a public file appears', () => write('public/favicon.svg', '<svg/>')],
    ['the Vite configuration changes', () => write('vite.config.ts', 'export default { base: "/" }')],
    ['the dependencies change', () => write('package-lock.json', '{"packages":{}}')],
    ['the built index.html is gone', () => rmSync(join(outDir, 'index.html'))],
    ['the stamp is gone', () => rmSync(stampPath(outDir))],
    ['the stamp is not one', () => writeFileSync(stampPath(outDir), 'not json')],
  ])('is stale when %s', (_, change) => {
    build()
    change()
    expect(isCurrent()).toBe(false)
  })

  it('is stale when a VITE_ variable the build reads changes, not when another variable does', () => {
    build({ VITE_API_BASE: '/api' })
    expect(isCurrent({ VITE_API_BASE: '/api', PORT: '4000' })).toBe(true)
    expect(isCurrent({ VITE_API_BASE: '/v2' })).toBe(false)
  })

  it('stays current when a file that is not an input of the browser build changes', () => {
    build()
    write('README.md', '# Back-office, revised')
    write('tests/unit/new.test.ts', 'it()')
    expect(isCurrent()).toBe(true)
  })
})
