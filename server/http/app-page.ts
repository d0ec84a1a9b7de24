import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Entity, Fields, Report } from '../../schema/kit'
import { asView } from '../../schema/kit'
import { listParamsOf, listRequestOf, listViewOf, recordPathOf } from '../../schema/kit/list-view'
import { requestUrlOf } from '../../schema/kit/request-url'
import { paths, startPaths } from '../../src/app/paths'

/**
 * index.html as each address gets it (issue 20: first rows after two round trips). The
 * page names what the address will need, and its inline script (index.html) starts it
 * all with the HTML, in parallel, instead of one hop after another:
 *
 * - `modules`: the route's chunks (from the build's manifest: the screen, the registry,
 *   the session check, and everything they import), preloaded;
 * - `i18n`: the text chunks of the route, by language (the script takes the stored one);
 * - `get`: the GETs the screen makes first — the session check, the menu, the list of the
 *   address with its page, order, search and filters read as the list reads them (or the
 *   record of a form) — started with the stored token and taken by the app's first
 *   identical call (src/engine/early-answers.ts); `always`: asked with or without a token.
 *
 * A signed-in route's part is used only when a token is stored: a guest is sent to /login.
 */
type AnyEntity = Entity<string, Fields>
type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>
export type PagePlan = { signedIn: boolean; modules: string[]; i18n: Record<string, string[]>; get: string[]; always: string[] }

export type AppPage = {
  /** The CSP hashes of index.html's inline scripts (`'sha256-…'`). */
  scriptHashes: string[]
  /** What an address needs, as the page carries it. */
  planFor: (url: string) => PagePlan
  /** index.html for an address. */
  htmlFor: (url: string) => string
}

const languages = ['en', 'tr', 'ar'] as const
const PLACEHOLDER = '<!--app-page-->'

/** The files a manifest entry loads: its own and its static imports', recursively. */
function filesOf(manifest: Manifest, keys: readonly string[]): string[] {
  const seen = new Set<string>()
  const files: string[] = []
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const entry = manifest[key]
    if (!entry) return
    files.push(`/${entry.file}`)
    for (const next of entry.imports ?? []) visit(next)
  }
  for (const key of keys) visit(key)
  return files
}

/** The router's reading of a search: each value JSON when it parses as such, else the text (TanStack Router's default). */
function routerSearchOf(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of params) {
    try {
      out[key] = JSON.parse(value)
    } catch {
      out[key] = value
    }
  }
  return out
}

const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)

export function loadAppPage(distDir: string, entities: readonly AnyEntity[], reports: readonly Report[]): AppPage | undefined {
  const htmlPath = join(distDir, 'index.html')
  const manifestPath = join(distDir, '.vite', 'manifest.json')
  if (!existsSync(htmlPath)) return undefined
  const html = readFileSync(htmlPath, 'utf8')
  const manifest: Manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest) : {}
  const scriptHashes = inlineScripts(html).map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`)

  const screens = entities.filter((e) => !e.isLine)
  const lists = new Map<string, AnyEntity>()
  for (const entity of screens) {
    lists.set(entity.ui.listPath, entity)
    for (const view of Object.values(entity.views)) lists.set(view.ui.listPath, asView(entity, view))
  }
  // Each entity's form, and a view's own form address (a department's ticket threads) where it names one.
  const forms = screens.flatMap((entity) => [
    { entity, prefix: `${entity.ui.formPath}/` },
    ...Object.values(entity.views).flatMap((view) => (view.ui.formPath ? [{ entity, prefix: `${view.ui.formPath}/` }] : [])),
  ])
  const reportPaths = new Set(reports.map((r) => r.ui.path))

  const text = (namespaces: readonly string[]) =>
    Object.fromEntries(languages.map((language) => [language, filesOf(manifest, namespaces.map((ns) => `src/i18n/locales/${language}/${ns}.json`))]))
  const signedInText = text(['core', 'shell', 'registry'])
  const signedInBase = ['src/auth/token-sign-in.ts', 'schema/index.ts', 'src/app/signed-in-routes.tsx']

  const planFor = (url: string): PagePlan => {
    const { pathname, searchParams } = new URL(url, 'http://page')
    const always: string[] = [startPaths.siteSettings]
    if (pathname === paths.login) return { signedIn: false, modules: filesOf(manifest, ['src/auth/LoginScreen.tsx']), i18n: text(['core']), get: [], always }
    const signedIn = (screen: string[], get: string[] = []): PagePlan => ({
      signedIn: true,
      modules: filesOf(manifest, [...signedInBase, ...screen]),
      i18n: signedInText,
      get: [startPaths.accessToken, startPaths.userMenu, ...get],
      always,
    })
    const list = lists.get(pathname)
    if (list) {
      const { path, searchParams: query } = listRequestOf(list, listParamsOf(listViewOf(list, routerSearchOf(searchParams))))
      return signedIn(['src/engine/list/ListScreen.tsx'], [requestUrlOf(path, query)])
    }
    if (reportPaths.has(pathname)) return signedIn(['src/engine/report/ReportScreen.tsx'])
    if (pathname === paths.dashboard) return signedIn(['src/modules/dashboards/ProjectDashboard.tsx'])
    const form = forms.find((f) => pathname.startsWith(f.prefix))
    if (form) {
      const id = pathname.slice(form.prefix.length).split('/')[0]!
      const record = /^\d{1,15}$/.test(id) ? [requestUrlOf(recordPathOf(form.entity, id))] : []
      return signedIn(['src/engine/form/FormScreen.tsx'], record)
    }
    return { signedIn: false, modules: [], i18n: {}, get: [], always }
  }

  return {
    scriptHashes,
    planFor,
    htmlFor: (url) => {
      // `<` written as \u003c: nothing in the data can close the script element.
      const data = JSON.stringify(planFor(url)).replace(/</g, '\\u003c')
      return html.replace(PLACEHOLDER, `<script type="application/json" id="app-page">${data}</script>`)
    },
  }
}
