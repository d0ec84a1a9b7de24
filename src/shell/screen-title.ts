import { useEffect } from 'react'
import { getSiteTitle, SITE_TITLE_EVENT } from '../app/site-settings'

// Apart from the shell's title keeper (useDocumentTitle.ts): the sign-in screen uses it and must not load the shell.

/** "Police Stations · Back-office": the page's name, then the site's. */
export function documentTitleOf(page: string | null | undefined, site: string | null): string {
  const name = page?.replace(/\s+/g, ' ').trim()
  if (!name) return site ?? document.title
  return site ? `${name} · ${site}` : name
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
