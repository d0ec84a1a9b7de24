import type { NavigationItem } from '../navigation'
import { NavbarDrawer, SideNavbar } from '../navbar/SideNavbar'
import { useIsMobile } from '../navbar/navbar-state'
import type { Settings } from '../settings/settings'
import { Content, Footer, SidePanel, SkipLink, Toolbar } from './parts'

/**
 * Layout 1 (spec §2): the side navbar at the start or end, the toolbar and footer beside
 * it (or above and below everything), content up to 1570 px wide.
 */
export function Layout1({ settings, items, role }: { settings: Settings; items: readonly NavigationItem[]; role: string | null }) {
  const { config } = settings.layout
  const isMobile = useIsMobile()
  const isNavbarEnd = config.navbar.position === 'end'
  const toolbar = <Toolbar settings={settings} items={items} isNavbarToggleShown={isMobile} />
  const footer = <Footer settings={settings} />
  return (
    <div className="flex min-h-dvh flex-col" data-layout="layout1">
      <SkipLink />
      {config.toolbar.position === 'above' && toolbar}
      <div className={`flex flex-1 ${isNavbarEnd ? 'flex-row-reverse' : ''}`}>
        {!isNavbarEnd && <SidePanel side="left" settings={settings} items={items} />}
        <SideNavbar items={items} role={role} settings={settings} />
        <div className="flex min-w-0 flex-1 flex-col">
          {config.toolbar.position === 'below' && toolbar}
          <Content width={config.containerWidth} />
          {config.footer.position === 'below' && footer}
        </div>
        {!isNavbarEnd && <SidePanel side="right" settings={settings} items={items} />}
      </div>
      {config.footer.position === 'above' && footer}
      <NavbarDrawer items={items} role={role} settings={settings} />
    </div>
  )
}
