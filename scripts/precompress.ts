import { readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** What the server sends precompressed (server/http/static.ts, `preCompressed`); source maps are left out, only devtools read them. */
const precompressible = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|wasm)$/

function filesToCompress(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    // Vite's own folder (the manifest, the build stamp) is not served.
    if (entry.isDirectory()) return entry.name === '.vite' ? [] : filesToCompress(path)
    return precompressible.test(entry.name) ? [path] : []
  })
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file under `dir`, at high
 * levels (they are made once per build and sent many times); a copy that would not be
 * smaller is not written. Returns the files that got copies.
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const files = filesToCompress(dir)
  const written = await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file)
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            // 10, not 11: within 2 % of the smallest at less than half the build time.
            [constants.BROTLI_PARAM_QUALITY]: 10,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
      ])
      const copies = [
        { path: `${file}.br`, data: br },
        { path: `${file}.gz`, data: gz },
      ].filter((copy) => copy.data.length < content.length)
      await Promise.all(copies.map((copy) => writeFile(copy.path, copy.data)))
      return copies.length > 0 ? file : undefined
    }),
  )
  return written.filter((f): f is string => f !== undefined)
}

/** Precompresses the build's output once Vite has written it. */
export function precompressAssets(): Plugin {
  let outDir = ''
  return {
    name: 'backoffice:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    async closeBundle(error?: Error) {
      if (!error) await precompressDir(outDir)
    },
  }
}
