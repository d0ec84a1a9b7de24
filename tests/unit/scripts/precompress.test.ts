import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { build } from 'vite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isBuildCurrent, recordBuildInputs } from '../../../scripts/build-inputs'
import { precompressAssets, precompressDir } from '../../../scripts/precompress'

/** The build leaves `.br` and `.gz` copies for the server's `preCompressed` (server/http/static.ts). */
describe('precompressed copies of the build', () => {
  let dir = ''
  const text = (word: string) => `${word} `.repeat(400)
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('writes a brotli and a gzip copy of every script, style sheet, page, SVG and JSON file, each decompressing to the original', async () => {
    const files = { 'index.html': text('<p>page</p>'), 'assets/app-abc123.js': text('const a = 1;'), 'assets/app-abc123.css': text('a{color:red}'), 'icon.svg': text('<rect/>'), 'site.webmanifest': text('{}'), 'assets/data-1.json': text('[1]') }
    for (const [path, content] of Object.entries(files)) write(path, content)
    const compressed = await precompressDir(dir)
    expect(compressed.map((f) => f.slice(dir.length + 1)).sort()).toEqual(Object.keys(files).sort())
    for (const [path, content] of Object.entries(files)) {
      expect(brotliDecompressSync(readFileSync(join(dir, `${path}.br`))).toString(), path).toBe(content)
      expect(gunzipSync(readFileSync(join(dir, `${path}.gz`))).toString(), path).toBe(content)
    }
  })

  it('leaves source maps, images, Vite’s own folder and files that would not shrink as they are', async () => {
    write('assets/app-abc123.js.map', text('{"mappings":""}'))
    write('assets/photo-abc123.png', Buffer.alloc(4096, 7))
    write('.vite/manifest.json', text('{}'))
    write('assets/tiny-abc123.js', 'a')
    expect(await precompressDir(dir)).toEqual([])
    for (const path of ['assets/app-abc123.js.map', 'assets/photo-abc123.png', '.vite/manifest.json', 'assets/tiny-abc123.js']) {
      expect(existsSync(join(dir, `${path}.br`)), path).toBe(false)
      expect(existsSync(join(dir, `${path}.gz`)), path).toBe(false)
    }
  })

  it('runs at the end of a vite build, which then records its inputs so that the next start does not build again', async () => {
    write('index.html', '<!doctype html><div id="root"></div><script type="module" src="/src/main.js"></script>')
    write('src/main.js', `document.getElementById('root').textContent = ${JSON.stringify(text('hello'))}\n`)
    await build({ root: dir, configFile: false, logLevel: 'silent', plugins: [precompressAssets(), recordBuildInputs()], build: { outDir: 'dist' } })
    const outDir = join(dir, 'dist')
    expect(existsSync(join(outDir, 'index.html.br'))).toBe(true)
    const assets = readFileSync(join(outDir, 'index.html'), 'utf8').match(/\/assets\/[^"]+\.js/g) ?? []
    expect(assets).toHaveLength(1)
    expect(brotliDecompressSync(readFileSync(join(outDir, `${assets[0]}.br`))).toString()).toBe(readFileSync(join(outDir, assets[0]!), 'utf8'))
    expect(isBuildCurrent({ root: dir, outDir })).toBe(true)
    write('src/main.js', 'document.title = "changed"\n')
    expect(isBuildCurrent({ root: dir, outDir })).toBe(false)
  })
})
