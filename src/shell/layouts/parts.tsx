import { Link, Outlet } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { toolbarButtonClass } from '../DropdownMenu'
import { Logo } from '../Logo'
import { flattenNavigation, labelOf, type NavigationItem } from '../navigation'
import { NavbarToggle } from '../navbar/NavbarToggle'
import { QuickPanelToggle } from '../panels/Panels'
import { togglePanel } from '../panels/panel-state'
import type { Settings } from '../settings/settings'
import { FontSizeMenu } from '../toolbar/FontSizeMenu'
import { FullscreenToggle } from '../toolbar/FullscreenToggle'
import { InboxButton } from '../toolbar/InboxButton'
import { LanguageMenu } from '../toolbar/LanguageMenu'
import { ModeToggle } from '../toolbar/ModeToggle'
import { MoreMenu } from '../toolbar/MoreMenu'
import { ShortcutsMenu } from '../toolbar/ShortcutsMenu'
import { usePinnedShortcuts } from '../toolbar/shortcuts'
import { ToolbarSearch } from '../toolbar/ToolbarSearch'
import { UserMenu } from '../UserMenu'

/** The pieces the three layouts share: toolbar, content, footer and the side panels. */
export const MAIN_CONTENT_ID = 'main-content'

export function SkipLink() {
  const { t } = useTranslation()
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="sr-only z-50 rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:start-4 focus:top-4">
      {t('nav.skip_to_content')}
    </a>
  )
}

export function Brand() {
  const { t } = useTranslation()
  return (
    <Link to="/" className="flex shrink-0 items-center gap-2.5 rounded-md pe-2" aria-label={t('app.name')}>
      <Logo className="size-8" />
      <span className="hidden text-sm font-semibold sm:block">{t('app.name')}</span>
    </Link>
  )
}

/** Width-limited inner box (spec §9 container widths); `null` spans the whole width. */
export function Container({ width, className = '', children }: { width: number | null; className?: string; children: React.ReactNode }) {
  return (
    <div className={`mx-auto w-full ${className}`} style={width ? { maxWidth: `${width}px` } : undefined}>
      {children}
    </div>
  )
}

export function Toolbar({
  settings,
  items,
  isNavbarToggleShown,
  isBrandShown = false,
  containerWidth = null,
}: {
  settings: Settings
  items: readonly NavigationItem[]
  isNavbarToggleShown: boolean
  isBrandShown?: boolean
  containerWidth?: number | null
}) {
  const { toolbar } = settings.layout.config
  if (!toolbar.display) return null
  return (
    <header
      data-theme={settings.theme.toolbar}
      data-testid="toolbar"
      className={`${toolbar.style === 'fixed' ? 'sticky top-0' : 'relative'} z-20 shrink-0 border-b border-th-border bg-th-bg text-th-fg shadow-xs`}
    >
      {/* Tighter on the narrowest phones (320 px), where every button must still fit. */}
      <Container width={containerWidth} className="relative flex h-16 items-center gap-0 px-1 min-[360px]:gap-1 min-[360px]:px-2 sm:px-4">
        {isNavbarToggleShown && <NavbarToggle />}
        {isBrandShown && <Brand />}
        <ShortcutsMenu items={items} />
        <div className="flex-1" />
        <ToolbarSearch />
        {/* On a phone these fold into the More menu: the toolbar would be wider than its screen. */}
        <div className="hidden sm:contents">
          <LanguageMenu />
          <FontSizeMenu />
          <FullscreenToggle />
          <ModeToggle />
        </div>
        <div className="contents sm:hidden">
          <MoreMenu />
        </div>
        <InboxButton className={toolbarButtonClass} />
        <QuickPanelToggle className={toolbarButtonClass} />
        <div className="mx-1 h-6 w-px bg-th-border max-[359px]:hidden" aria-hidden="true" />
        <UserMenu />
      </Container>
    </header>
  )
}

export function Content({ width }: { width: number }) {
  return (
    // Its own stacking context (`isolate`): a page's sticky headers and columns stay under the
    // shell's toolbar and the menus that open from it, whatever their z-index.
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className="isolate flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
      <Container width={width}>
        <Outlet />
      </Container>
    </main>
  )
}

export function Footer({ settings, containerWidth = null }: { settings: Settings; containerWidth?: number | null }) {
  const { t } = useTranslation()
  const { footer } = settings.layout.config
  if (!footer.display) return null
  return (
    <footer
      data-theme={settings.theme.footer}
      data-testid="footer"
      className={`${footer.style === 'fixed' ? 'sticky bottom-0' : ''} z-10 shrink-0 border-t border-th-border bg-th-bg text-xs text-th-muted`}
    >
      <Container width={containerWidth} className="flex h-12 items-center px-4 sm:px-6 lg:px-8">
        {t('app.copyright', { year: new Date().getFullYear() })}
      </Container>
    </footer>
  )
}

/** The narrow side panels (spec §3 left and right side panels): pinned pages, and the panels' buttons. */
export function SidePanel({ side, settings, items }: { side: 'left' | 'right'; settings: Settings; items: readonly NavigationItem[] }) {
  const { t } = useTranslation()
  const shortcuts = usePinnedShortcuts()
  const isShown = side === 'left' ? settings.layout.config.leftSidePanel.display : settings.layout.config.rightSidePanel.display
  if (!isShown) return null
  const byId = new Map(flattenNavigation(items).map((i) => [i.id, i]))
  const pinned = shortcuts.flatMap((id) => byId.get(id) ?? [])
  return (
    <aside
      data-testid={`${side}-side-panel`}
      aria-label={t(side === 'left' ? 'settings.left_side_panel' : 'settings.right_side_panel')}
      className="sticky top-0 z-20 hidden h-dvh w-14 shrink-0 flex-col items-center gap-1 border-th-border bg-th-bg py-3 text-th-fg sm:flex"
      style={{ borderInlineStartWidth: side === 'right' ? 1 : 0, borderInlineEndWidth: side === 'left' ? 1 : 0 }}
    >
      {side === 'left'
        ? pinned.map((item) => (
            <Link key={item.id} to={item.url} className={toolbarButtonClass} title={labelOf(t, item)} aria-label={labelOf(t, item)}>
              <Icon name={item.icon ?? 'document'} className="size-5" />
            </Link>
          ))
        : (
            <>
              <QuickPanelToggle className={toolbarButtonClass} />
              <button type="button" className={toolbarButtonClass} onClick={() => togglePanel('settings')} aria-label={t('settings.title')}>
                <Icon name="adjustments" className="size-5" />
              </button>
              <button type="button" className={toolbarButtonClass} onClick={() => togglePanel('schemes')} aria-label={t('schemes.title')}>
                <Icon name="swatch" className="size-5" />
              </button>
            </>
          )}
    </aside>
  )
}
