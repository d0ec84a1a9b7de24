import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { entities, registry, reports } from '../../../../schema'
import { loadAppPage } from '../../../../server/http/app-page'
import { encodingFor } from '../../../../server/http/static'

/**
 * index.html as each address gets it (issue 20): what the address needs named in the page,
 * so that its inline script starts the route's chunks, its text and its first GETs with the
 * HTML — first rows after two round trips instead of seven.
 */
const dist = mkdtempSync(join(tmpdir(), 'app-page-'))
const inline = `\n      (function () { window.started = true })()\n    `
writeFileSync(join(dist, 'index.html'), `<!doctype html><html><head><!--app-page--><script>${inline}</script><script type="module" src="/assets/index.js"></script></head><body></body></html>`)
mkdirSync(join(dist, '.vite'))
const entry = (file: string, imports: string[] = []) => ({ file, imports })
writeFileSync(
  join(dist, '.vite', 'manifest.json'),
  JSON.stringify({
    'index.html': entry('assets/index.js', ['_framework.js']),
    _framework: entry('assets/framework.js'),
    '_framework.js': entry('assets/framework.js'),
    '_shell.js': entry('assets/shell.js', ['_framework.js', '_kit.js']),
    '_kit.js': entry('assets/kit.js'),
    'src/engine/list/ListScreen.tsx': entry('assets/ListScreen.js', ['_shell.js', '_kit.js']),
    'src/engine/form/FormScreen.tsx': entry('assets/FormScreen.js', ['_shell.js']),
    'src/auth/LoginScreen.tsx': entry('assets/LoginScreen.js', ['_framework.js']),
    'schema/index.ts': entry('assets/schema.js', ['_kit.js']),
    'src/auth/token-sign-in.ts': entry('assets/token-sign-in.js'),
    'src/app/signed-in-routes.tsx': entry('assets/signed-in-routes.js', ['_shell.js']),
    'src/i18n/locales/ar/shell.json': entry('assets/shell-ar.js'),
    'src/i18n/locales/ar/registry.json': entry('assets/registry-ar.js'),
    'src/i18n/locales/ar/core.json': entry('assets/core-ar.js'),
    'src/i18n/locales/en/shell.json': entry('assets/shell-en.js'),
  }),
)
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const page = loadAppPage(dist, entities, reports)!
const thanas = registry.thana.ui.listPath

describe('the page of an address', () => {
  it('starts a list with the rows its address shows: page, order, search and filters read as the list reads them', () => {
    expect(page.planFor(thanas).get).toEqual(['/api/auth/access-token', '/menu_item/api/v1/menu_item/nested_menu_item_by_user_role/', '/thana/api/v1/thana/all/?page=1&size=30'])
    expect(page.planFor(`${thanas}?page=2&ordering=-name&q=dha&size=50`).get[2]).toBe('/thana/api/v1/thana/all/?q=dha&page=2&size=50&ordering=-name')
    // A filter goes to `search/`; what the list would ignore (an unknown order, a bad size) is ignored here too.
    expect(page.planFor(`${thanas}?city=5&ordering=nope&size=7`).get[2]).toBe('/thana/api/v1/thana/search/?city=5&page=1&size=30')
  })

  it('preloads the route’s chunks with everything they import, once each, and its text by language', () => {
    const plan = page.planFor(thanas)
    expect(plan.signedIn).toBe(true)
    expect(plan.modules).toEqual(expect.arrayContaining(['/assets/ListScreen.js', '/assets/shell.js', '/assets/kit.js', '/assets/framework.js', '/assets/schema.js', '/assets/token-sign-in.js', '/assets/signed-in-routes.js']))
    expect(new Set(plan.modules).size).toBe(plan.modules.length)
    expect(plan.modules).not.toContain('/assets/FormScreen.js')
    expect(plan.i18n.ar).toEqual(['/assets/core-ar.js', '/assets/shell-ar.js', '/assets/registry-ar.js'])
    expect(plan.always).toEqual(['/general_setting/api/v1/general_setting/all/'])
  })

  it('starts a form with its record; a new one with nothing to read', () => {
    const form = registry.thana.ui.formPath
    expect(page.planFor(`${form}/12/Barura`).get[2]).toBe('/thana/api/v1/thana/12')
    expect(page.planFor(`${form}/12/Barura`).modules).toContain('/assets/FormScreen.js')
    expect(page.planFor(`${form}/new`).get).toHaveLength(2)
    // A view's own form address (a department's ticket threads) starts the same record.
    expect(page.planFor('/apps/support-managements/ticket-details/7').get[2]).toBe('/ticket/api/v1/ticket/7')
  })

  it('gives the login page its screen and nothing signed-in; an unknown address nothing but the site’s settings', () => {
    expect(page.planFor('/login?redirect=%2Fapps')).toMatchObject({ signedIn: false, modules: ['/assets/LoginScreen.js', '/assets/framework.js'], get: [] })
    expect(page.planFor('/no/such/page')).toEqual({ signedIn: false, modules: [], i18n: {}, get: [], always: ['/general_setting/api/v1/general_setting/all/'] })
  })

  it('writes the plan into the page where nothing in it can close its script, and allows the inline script by its hash', () => {
    const html = page.htmlFor(`${thanas}?q=</script><script>alert(1)</script>`)
    const data = /<script type="application\/json" id="app-page">(.*?)<\/script>/.exec(html)![1]!
    expect(data).not.toContain('<')
    expect(JSON.parse(data).get[2]).toContain('q=%3C%2Fscript%3E')
    expect(page.scriptHashes).toEqual([`'sha256-${createHash('sha256').update(inline).digest('base64')}'`])
  })
})

describe('the page’s coding', () => {
  it('is brotli, else gzip, else none, as the request accepts; a coding refused with q=0 is not used', () => {
    expect(encodingFor('gzip, deflate, br')).toBe('br')
    expect(encodingFor('br;q=0, gzip;q=0.8')).toBe('gzip')
    expect(encodingFor('BR;q=0.0, GZIP;q=0')).toBe('identity')
    expect(encodingFor(undefined)).toBe('identity')
  })
})
