import { Link, useRouterState } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { isVisibleTo, labelOf, type NavigationItem } from '../navigation'

/**
 * The vertical navigation of the side navbar, from the item data: group headings,
 * collapses that open and close, items (routes of the app), links (plain addresses) and
 * dividers, with badges. `isDense` shows icons only (the folded navbar); labels stay as
 * accessible names.
 */
const rowClass =
  'group flex w-full items-center gap-3 rounded-md px-3 py-2 text-start text-sm font-medium text-th-fg/80 transition hover:bg-th-hover hover:text-th-fg focus-visible:outline-2 focus-visible:outline-th-accent'
const activeClass = 'bg-th-accent-soft text-th-accent-text hover:text-th-accent-text'

export function useLabel() {
  const { t } = useTranslation()
  return (item: NavigationItem) => labelOf(t, item)
}

export function Badge({ badge }: { badge: NonNullable<NavigationItem['badge']> }) {
  return (
    <span className="ms-auto min-w-5 rounded-full px-1.5 py-0.5 text-center text-xs font-semibold" style={{ background: badge.bg ?? 'var(--th-accent)', color: badge.fg ?? 'var(--th-accent-fg)' }}>
      {badge.title}
    </span>
  )
}

function hasActiveChild(item: NavigationItem, pathname: string): boolean {
  return (item.children ?? []).some((child) => (child.url && child.type === 'item' && pathname.startsWith(child.url)) || hasActiveChild(child, pathname))
}

function ItemRow({ item, isDense, depth }: { item: NavigationItem; isDense: boolean; depth: number }) {
  const label = useLabel()(item)
  const content = (
    <>
      {item.icon ? <Icon name={item.icon} className="size-5 shrink-0 opacity-80 group-hover:opacity-100" /> : <span className="size-5 shrink-0" />}
      <span className={isDense ? 'sr-only' : 'truncate'}>{label}</span>
      {item.badge && !isDense && <Badge badge={item.badge} />}
    </>
  )
  const indent = isDense ? undefined : { paddingInlineStart: `${1.2 + depth * 1.6}rem` }
  if (item.type === 'link') {
    return (
      <a href={item.url} target={item.target} rel={item.target === '_blank' ? 'noopener noreferrer' : undefined} className={rowClass} style={indent} title={isDense ? label : undefined}>
        {content}
      </a>
    )
  }
  return (
    <Link
      to={item.url}
      target={item.target}
      className={rowClass}
      style={indent}
      title={isDense ? label : undefined}
      activeProps={{ className: activeClass, 'aria-current': 'page' }}
      activeOptions={{ exact: item.exact ?? false }}
    >
      {content}
    </Link>
  )
}

function Collapse({ item, role, isDense, depth }: { item: NavigationItem; role: string | null; isDense: boolean; depth: number }) {
  const label = useLabel()(item)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const [isOpen, setIsOpen] = useState(() => hasActiveChild(item, pathname))
  const isExpanded = isOpen || isDense
  return (
    <li>
      {!isDense && (
        <button type="button" className={rowClass} style={{ paddingInlineStart: `${1.2 + depth * 1.6}rem` }} aria-expanded={isOpen} onClick={() => setIsOpen((v) => !v)}>
          {item.icon ? <Icon name={item.icon} className="size-5 shrink-0 opacity-80 group-hover:opacity-100" /> : <span className="size-5 shrink-0" />}
          <span className="truncate">{label}</span>
          {item.badge && <Badge badge={item.badge} />}
          <Icon name="chevronDown" className={`ms-auto size-4 shrink-0 transition ${isOpen ? 'rotate-180' : ''}`} />
        </button>
      )}
      {isExpanded && (
        <ul className="mt-0.5 space-y-0.5" aria-label={label}>
          {item.children?.map((child) => <Entry key={child.id} item={child} role={role} isDense={isDense} depth={depth + 1} />)}
        </ul>
      )}
    </li>
  )
}

function Entry({ item, role, isDense, depth }: { item: NavigationItem; role: string | null; isDense: boolean; depth: number }) {
  const label = useLabel()(item)
  if (!isVisibleTo(item, role)) return null
  if (item.type === 'divider') return <li aria-hidden="true" className="my-3 border-t border-th-border" />
  if (item.type === 'collapse') return <Collapse item={item} role={role} isDense={isDense} depth={depth} />
  if (item.type === 'group') {
    return (
      <li className="mt-5 first:mt-0">
        <p className={isDense ? 'sr-only' : 'px-3 pb-2 text-xs font-semibold uppercase tracking-wider text-th-muted'}>{label}</p>
        <ul className="space-y-0.5" aria-label={label}>
          {item.children?.map((child) => <Entry key={child.id} item={child} role={role} isDense={isDense} depth={depth} />)}
        </ul>
      </li>
    )
  }
  return (
    <li>
      <ItemRow item={item} isDense={isDense} depth={depth} />
    </li>
  )
}

export function NavigationList({ items, role, isDense = false }: { items: readonly NavigationItem[]; role: string | null; isDense?: boolean }) {
  return (
    <ul className="space-y-0.5">
      {items.map((item) => (
        <Entry key={item.id} item={item} role={role} isDense={isDense} depth={0} />
      ))}
    </ul>
  )
}
