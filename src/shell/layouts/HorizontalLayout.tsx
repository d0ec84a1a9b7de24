import { useTranslation } from 'react-i18next'
import type { NavigationItem } from '../navigation'
import { HorizontalNavigation } from '../navbar/HorizontalNavigation'
import { NavbarDrawer } from '../navbar/SideNavbar'
import { useIsMobile } from '../navbar/navbar-state'
import type { Settings } from '../settings/settings'
import { Brand, Container, Content, Footer, SidePanel, SkipLink, Toolbar } from './parts'

/**
 * Layouts 2 and 3 (spec §2): a horizontal navbar, content up to 1120 px wide (spec §9).
 * Layout 2 puts the navbar, with the brand, over the toolbar; layout 3 puts the toolbar,
 * with the brand, over the navbar. Below the large breakpoint the navbar is a drawer the
 * toolbar opens.
 */
function HorizontalNavbar({ settings, items, role, isBrandShown }: { settings: Settings; items: readonly NavigationItem[]; role: string | null; isBrandShown: boolean }) {
  const { t } = useTranslation()
  const isMobile = useIsMobile()
  if (!settings.layout.config.navbar.display || isMobile) return null
  return (
    <div data-theme={settings.theme.navbar} data-testid="navbar-horizontal" className="relative z-30 shrink-0 bg-th-bg text-th-fg shadow-sm">
      <Container width={settings.layout.config.containerWidth} className="flex min-h-14 items-center gap-4 px-4 py-1.5">
        {isBrandShown && <Brand />}
        <HorizontalNavigation items={items} role={role} label={t('nav.navigation')} />
      </Container>
    </div>
  )
}

export function HorizontalLayout({ variant, settings, items, role }: { variant: 'layout2' | 'layout3'; settings: Settings; items: readonly NavigationItem[]; role: string | null }) {
  const isMobile = useIsMobile()
  const width = settings.layout.config.containerWidth
  const navbar = <HorizontalNavbar settings={settings} items={items} role={role} isBrandShown={variant === 'layout2'} />
  const toolbar = <Toolbar settings={settings} items={items} isNavbarToggleShown={isMobile} isBrandShown={variant === 'layout3' || isMobile} containerWidth={width} />
  return (
    <div className="flex min-h-dvh" data-layout={variant}>
      <SkipLink />
      <SidePanel side="left" settings={settings} items={items} />
      <div className="flex min-w-0 flex-1 flex-col">
        {variant === 'layout2' ? (
          <>
            {navbar}
            {toolbar}
          </>
        ) : (
          <>
            {toolbar}
            {navbar}
          </>
        )}
        <Content width={width} />
        <Footer settings={settings} containerWidth={width} />
      </div>
      <SidePanel side="right" settings={settings} items={items} />
      <NavbarDrawer items={items} role={role} settings={settings} />
    </div>
  )
}
