import { useRouterState } from '@tanstack/react-router'
import { lazy, Suspense, useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { Logo } from '../Logo'
import type { NavigationItem } from '../navigation'
import { NAVBAR_FOLDED_WIDTH, NAVBAR_WIDTH, type Settings } from '../settings/settings'
import { NavigationList } from './NavigationList'
import { setFoldedOpen, setMobileOpen, useIsMobile, useNavbarState } from './navbar-state'
import { NavbarToggle } from './NavbarToggle'

/**
 * The side navbar of layout 1 in its states (spec §4, §9): style-1 open at 280 px;
 * style-2 folded to 64 px, opening to 280 px over the page while hovered; style-3 a
 * 120 px column of sections with a 280 px panel, style-3-dense the same at 64 px; below
 * the large breakpoint a drawer. It takes the navbar theme.
 */
// Style-3 loads when chosen.
const PanelNavbar = lazy(() => import('./PanelNavbar').then((m) => ({ default: m.PanelNavbar })))

type NavbarProps = { items: readonly NavigationItem[]; role: string | null; settings: Settings }

function Brand({ isCompact }: { isCompact: boolean }) {
  const { t } = useTranslation()
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Logo className="size-8 shrink-0" />
      {!isCompact && (
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold">{t('app.name')}</p>
          <p className="truncate text-xs text-th-muted">{t('app.tagline')}</p>
        </div>
      )}
    </div>
  )
}

function NavbarFrame({ children, width, header, testId }: { children: ReactNode; width: number; header: ReactNode; testId: string }) {
  const { t } = useTranslation()
  return (
    <div className="flex h-full flex-col bg-th-bg text-th-fg" style={{ width: `${width}px` }} data-testid={testId}>
      <div className="flex h-16 shrink-0 items-center justify-between gap-2 border-b border-th-border px-3">{header}</div>
      <nav aria-label={t('nav.navigation')} className="flex-1 overflow-y-auto overflow-x-hidden px-2 py-4">
        {children}
      </nav>
    </div>
  )
}

/** Below the large breakpoint: a drawer over the page, from the navbar's side. */
export function NavbarDrawer({ items, role, settings }: NavbarProps) {
  const { t } = useTranslation()
  const { isMobileOpen } = useNavbarState()
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  useEffect(() => setMobileOpen(false), [pathname])
  useEffect(() => {
    if (!isMobileOpen) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMobileOpen(false)
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [isMobileOpen])
  if (!isMobileOpen) return null
  const isEnd = settings.layout.config.navbar.position === 'end'
  return (
    <div className="fixed inset-0 z-40" role="dialog" aria-modal="true" aria-label={t('nav.navigation')} data-testid="navbar-drawer">
      <div className="absolute inset-0 bg-slate-900/60" onClick={() => setMobileOpen(false)} aria-hidden="true" />
      <div className={`absolute inset-y-0 flex ${isEnd ? 'end-0 flex-row-reverse' : 'start-0'}`} data-theme={settings.theme.navbar}>
        <NavbarFrame
          width={NAVBAR_WIDTH}
          testId="navbar-mobile"
          header={
            <>
              <Brand isCompact={false} />
              <button type="button" onClick={() => setMobileOpen(false)} className="rounded-md p-2 hover:bg-th-hover" aria-label={t('toolbar.close_navigation')} autoFocus>
                <Icon name="close" className="size-5" />
              </button>
            </>
          }
        >
          <NavigationList items={items} role={role} />
        </NavbarFrame>
      </div>
    </div>
  )
}

/** The desktop side navbar in the configured style; nothing on mobile (the drawer is used). */
export function SideNavbar({ items, role, settings }: NavbarProps) {
  const isMobile = useIsMobile()
  const { isFoldedOpen } = useNavbarState()
  const { navbar } = settings.layout.config
  if (!navbar.display || isMobile) return null
  const theme = settings.theme.navbar

  if (navbar.style === 'style-3' || navbar.style === 'style-3-dense') {
    return (
      <aside className="sticky top-0 z-30 h-dvh shrink-0">
        <Suspense fallback={null}>
          <PanelNavbar items={items} role={role} isDense={navbar.style === 'style-3-dense'} isEnd={navbar.position === 'end'} theme={theme} />
        </Suspense>
      </aside>
    )
  }

  const isFolded = navbar.style === 'style-2' && navbar.folded
  const isCompact = isFolded && !isFoldedOpen
  const frame = (
    <NavbarFrame
      width={isCompact ? NAVBAR_FOLDED_WIDTH : NAVBAR_WIDTH}
      testId={isFolded ? (isCompact ? 'navbar-folded' : 'navbar-folded-open') : `navbar-${navbar.style}`}
      header={
        <>
          <Brand isCompact={isCompact} />
          {!isCompact && <NavbarToggle />}
        </>
      }
    >
      <NavigationList items={items} role={role} isDense={isCompact} />
    </NavbarFrame>
  )
  if (!isFolded) {
    return (
      <aside className="sticky top-0 z-30 h-dvh shrink-0" data-theme={theme}>
        {frame}
      </aside>
    )
  }
  // Folded: the space stays 64 px; hovering opens the navbar over the page for a while.
  return (
    <aside className="sticky top-0 z-30 h-dvh shrink-0" style={{ width: `${NAVBAR_FOLDED_WIDTH}px` }} data-theme={theme}>
      <div
        className={`absolute inset-y-0 h-full ${navbar.position === 'end' ? 'end-0' : 'start-0'} ${isFoldedOpen ? 'shadow-2xl' : ''}`}
        onMouseEnter={() => setFoldedOpen(true)}
        onMouseLeave={() => setFoldedOpen(false)}
        onFocus={() => setFoldedOpen(true)}
        onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setFoldedOpen(false)}
      >
        {frame}
      </div>
    </aside>
  )
}
