import { useEffect } from 'react'
import { getSiteTitle, SITE_TITLE_EVENT } from '../app/site-settings'
import { MAIN_CONTENT_ID } from './layouts/parts'

/** "Police Stations · Back-office": the page's name, then the site's. */
export function documentTitleOf(page: string | null | undefined, site: string | null): string {
  const name = page?.replace(/\s+/g, ' ').trim()
  if (!name) return site ?? document.title
  return site ? `${name} · ${site}` : name
}

/**
 * Keeps the document title to the page shown: its main heading (the name the sidebar and the
 * page itself use), then the site's title. Read from the page rather than declared per
 * route, so that every screen — generic, bespoke, one still to come — is named alike.
 */
export function useDocumentTitle(): void {
  useEffect(() => {
    const update = () => {
      const heading = document.querySelector(`#${MAIN_CONTENT_ID} h1`)
      const title = documentTitleOf(heading?.textContent, getSiteTitle())
      if (document.title !== title) document.title = title
    }
    const observer = new MutationObserver(update)
    observer.observe(document.body, { subtree: true, childList: true, characterData: true })
    globalThis.addEventListener(SITE_TITLE_EVENT, update)
    update()
    return () => {
      observer.disconnect()
      globalThis.removeEventListener(SITE_TITLE_EVENT, update)
      const site = getSiteTitle()
      if (site) document.title = site
    }
  }, [])
}

/**
 * The document title of a screen without the shell (sign-in, a forgotten password): named for
 * what it is, then the site's title — never the site's title alone, as if it were any page.
 */
export function useScreenTitle(name: string): void {
  useEffect(() => {
    const update = () => {
      const title = documentTitleOf(name, getSiteTitle())
      if (document.title !== title) document.title = title
    }
    globalThis.addEventListener(SITE_TITLE_EVENT, update)
    update()
    return () => globalThis.removeEventListener(SITE_TITLE_EVENT, update)
  }, [name])
}
