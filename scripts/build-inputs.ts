import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import type { Plugin } from 'vite'

/**
 * What the browser build is made from, relative to the project root: a change to any of
 * these (or to a VITE_ variable) makes dist/ stale. The build helpers in scripts/ shape its
 * output too.
 */
export const buildInputs = [
  'index.html',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
  'src',
  'schema',
  'public',
  'scripts',
] as const

/** Where a build records the hash of the inputs it was made from (inside Vite's own folder, which is not served). */
export const stampPath = (outDir: string) => join(outDir, '.vite', 'build-inputs.json')

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => filesUnder(join(path, entry.name)))
}

/**
 * A hash of every input's path and content (never its time: a checkout or a copy that
 * touches files without changing them leaves the build current).
 */
export function hashBuildInputs(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256')
  for (const input of buildInputs) {
    for (const file of filesUnder(join(root, input))) {
      hash.update(relative(root, file).split(sep).join('/')).update('\0').update(readFileSync(file)).update('\0')
    }
  }
  for (const name of Object.keys(env).filter((k) => k.startsWith('VITE_')).sort()) hash.update(`${name}=${env[name]}\0`)
  return hash.digest('hex')
}

type BuildStamp = { inputs: string }

function readStamp(outDir: string): BuildStamp | undefined {
  try {
    const stamp: unknown = JSON.parse(readFileSync(stampPath(outDir), 'utf8'))
    return stamp && typeof stamp === 'object' && 'inputs' in stamp && typeof stamp.inputs === 'string' ? { inputs: stamp.inputs } : undefined
  } catch {
    return undefined
  }
}

export function writeBuildStamp(outDir: string, inputs: string): void {
  mkdirSync(join(outDir, '.vite'), { recursive: true })
  writeFileSync(stampPath(outDir), `${JSON.stringify({ inputs } satisfies BuildStamp)}\n`)
}

type BuildPlace = { root: string; outDir: string; env?: NodeJS.ProcessEnv }

/** What dist/ holds: no build yet (a fresh clone), a build of other inputs, or one of exactly the current inputs. */
export function buildState({ root, outDir, env }: BuildPlace): 'missing' | 'stale' | 'current' {
  if (!existsSync(join(outDir, 'index.html'))) return 'missing'
  const stamp = readStamp(outDir)
  return stamp !== undefined && stamp.inputs === hashBuildInputs(root, env) ? 'current' : 'stale'
}

/** dist/ holds a build of exactly the current inputs. */
export const isBuildCurrent = (place: BuildPlace): boolean => buildState(place) === 'current'

/**
 * Records the inputs as they were when the build started, once it has written everything:
 * every `vite build` (npm start's, the e2e suite's, the bench's) leaves a stamp, and a
 * failed one leaves none.
 */
export function recordBuildInputs(): Plugin {
  let root = ''
  let outDir = ''
  let inputs = ''
  return {
    name: 'backoffice:record-build-inputs',
    apply: 'build',
    configResolved(config) {
      root = config.root
      outDir = resolve(config.root, config.build.outDir)
    },
    buildStart() {
      inputs = hashBuildInputs(root)
    },
    // After the other plugins' closing steps (the precompressed copies): the stamp says the build is complete.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler(error?: Error) {
        if (!error) writeBuildStamp(outDir, inputs)
      },
    },
  }
}
