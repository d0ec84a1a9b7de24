import { useEffect } from 'react'
import { getSiteTitle, SITE_TITLE_EVENT } from '../app/site-settings'
import { MAIN_CONTENT_ID } from './layouts/parts'
import { documentTitleOf } from './screen-title'

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
