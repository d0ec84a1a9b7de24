import { useRouterState } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { Logo } from '../Logo'
import { isVisibleTo, type NavigationItem } from '../navigation'
import { NAVBAR_FOLDED_WIDTH, NAVBAR_PANEL_STYLE_WIDTH, NAVBAR_PANEL_WIDTH } from '../settings/settings'
import { NavigationList, useLabel } from './NavigationList'
import { NavbarToggle } from './NavbarToggle'

/** Style-3: a column of the top-level sections; choosing one opens its panel beside it. */
export function PanelNavbar({ items, role, isDense, isEnd, theme }: { items: readonly NavigationItem[]; role: string | null; isDense: boolean; isEnd: boolean; theme: string }) {
  const { t } = useTranslation()
  const label = useLabel()
  const [openId, setOpenId] = useState<string | null>(null)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  useEffect(() => setOpenId(null), [pathname])
  const sections = items.filter((item) => isVisibleTo(item, role) && item.type !== 'divider')
  const open = sections.find((s) => s.id === openId)
  const width = isDense ? NAVBAR_FOLDED_WIDTH : NAVBAR_PANEL_STYLE_WIDTH
  return (
    <div className="relative flex h-full" data-theme={theme} onKeyDown={(e) => e.key === 'Escape' && setOpenId(null)}>
      <div className="flex h-full flex-col bg-th-bg text-th-fg" style={{ width: `${width}px` }} data-testid={isDense ? 'navbar-style-3-dense' : 'navbar-style-3'}>
        <div className="flex h-16 shrink-0 items-center justify-center border-b border-th-border">
          <Logo className="size-8" />
        </div>
        <nav aria-label={t('nav.navigation')} className="flex-1 overflow-y-auto py-3">
          <ul className="flex flex-col items-center gap-1 px-1.5">
            {sections.map((section) => (
              <li key={section.id} className="w-full">
                <button
                  type="button"
                  aria-expanded={openId === section.id}
                  title={label(section)}
                  onClick={() => setOpenId(openId === section.id ? null : section.id)}
                  className={`flex w-full flex-col items-center gap-1 rounded-md px-1 py-2 text-xs font-medium hover:bg-th-hover ${openId === section.id ? 'bg-th-accent-soft text-th-accent-text' : 'text-th-fg/80'}`}
                >
                  <Icon name={section.icon ?? 'folder'} className="size-6" />
                  <span className={isDense ? 'sr-only' : 'line-clamp-2 text-center'}>{label(section)}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex justify-center border-t border-th-border py-2">
          <NavbarToggle />
        </div>
      </div>
      {open && (
        <div className={`absolute inset-y-0 z-30 flex flex-col ${isEnd ? 'end-full border-e' : 'start-full border-s'} border-th-border bg-th-bg text-th-fg shadow-xl`} style={{ width: `${NAVBAR_PANEL_WIDTH}px` }} data-testid="navbar-panel">
          <p className="flex h-16 shrink-0 items-center border-b border-th-border px-4 text-sm font-semibold">{label(open)}</p>
          <div className="flex-1 overflow-y-auto px-2 py-4">
            <NavigationList items={open.children?.length ? open.children : [open]} role={role} />
          </div>
        </div>
      )}
    </div>
  )
}
