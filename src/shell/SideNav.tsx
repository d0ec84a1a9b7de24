import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Icon } from '../engine/ui/icons'
import { Logo } from './Logo'
import { isVisibleTo, type NavigationItem } from './navigation'

const itemClass =
  'group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-300 transition hover:bg-white/5 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400'
const activeClass = 'bg-white/10 text-white'

function NavLink({ item }: { item: NavigationItem }) {
  const { t } = useTranslation()
  if (!item.url) return null
  const label = item.translate ? t(item.translate) : item.title
  return (
    <Link
      to={item.url}
      className={itemClass}
      activeProps={{ className: activeClass, 'aria-current': 'page' }}
      activeOptions={{ exact: item.exact ?? false }}
    >
      {item.icon && <Icon name={item.icon} className="size-5 shrink-0 text-slate-400 group-hover:text-slate-200" />}
      <span className="truncate">{label}</span>
      {item.badge && (
        <span className="ms-auto rounded-full px-2 py-0.5 text-xs" style={{ background: item.badge.bg, color: item.badge.fg }}>
          {item.badge.title}
        </span>
      )}
    </Link>
  )
}

function NavEntry({ item, role }: { item: NavigationItem; role: string | null }) {
  const { t } = useTranslation()
  if (!isVisibleTo(item, role)) return null
  if (item.type === 'divider') return <li role="separator" className="my-3 border-t border-white/10" />
  if (item.type === 'group' || item.type === 'collapse') {
    return (
      <li className="mt-6 first:mt-0">
        <p className="px-3 pb-2 text-xs font-semibold uppercase tracking-wider text-slate-500">{item.translate ? t(item.translate) : item.title}</p>
        <ul className="space-y-0.5">
          {item.children?.map((child) => <NavEntry key={child.id} item={child} role={role} />)}
        </ul>
      </li>
    )
  }
  return (
    <li>
      <NavLink item={item} />
    </li>
  )
}

/** The side navigation (layout 1, dark grey navbar). 280 px wide (spec §9). */
export function SideNav({ items, role }: { items: readonly NavigationItem[]; role: string | null }) {
  const { t } = useTranslation()
  return (
    <div className="flex h-full w-70 flex-col bg-slate-900 dark:bg-slate-900/60">
      <div className="flex h-16 shrink-0 items-center gap-3 border-b border-white/5 px-6">
        <Logo className="size-8" />
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-white">{t('app.name')}</p>
          <p className="truncate text-xs text-slate-400">{t('app.tagline')}</p>
        </div>
      </div>
      <nav aria-label={t('nav.navigation')} className="flex-1 overflow-y-auto px-3 py-5">
        <ul className="space-y-0.5">
          {items.map((item) => (
            <NavEntry key={item.id} item={item} role={role} />
          ))}
        </ul>
      </nav>
    </div>
  )
}
