import { Link } from '@tanstack/react-router'
import { useRef } from 'react'
import { Icon } from '../../engine/ui/icons'
import { isVisibleTo, type NavigationItem } from '../navigation'
import { Badge, useLabel } from './NavigationList'
import { useHoverIntent } from './useHoverIntent'

/**
 * The horizontal navbar of layouts 2 and 3: top-level entries in a row; a group or a
 * collapse opens its submenu on hover (150 ms debounce, spec §9), on click, or with the
 * arrow keys; nested collapses fly out beside their menu.
 */
const topClass =
  'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-th-fg/85 hover:bg-th-hover hover:text-th-fg focus-visible:outline-2 focus-visible:outline-th-accent'
const menuItemClass =
  'flex w-full items-center gap-3 rounded-md px-3 py-2 text-start text-sm text-th-fg/85 hover:bg-th-hover hover:text-th-fg focus-visible:outline-2 focus-visible:outline-th-accent'
const activeClass = 'bg-th-accent-soft text-th-accent-text'

function LeafLink({ item, className }: { item: NavigationItem; className: string }) {
  const label = useLabel()(item)
  const content = (
    <>
      {item.icon && <Icon name={item.icon} className="size-5 shrink-0 opacity-80" />}
      <span className="truncate">{label}</span>
      {item.badge && <Badge badge={item.badge} />}
    </>
  )
  if (item.type === 'link') {
    return (
      <a href={item.url} target={item.target} rel={item.target === '_blank' ? 'noopener noreferrer' : undefined} className={className}>
        {content}
      </a>
    )
  }
  return (
    <Link to={item.url} className={className} activeProps={{ className: activeClass, 'aria-current': 'page' }} activeOptions={{ exact: item.exact ?? false }}>
      {content}
    </Link>
  )
}

function Submenu({ item, role, isNested }: { item: NavigationItem; role: string | null; isNested: boolean }) {
  const label = useLabel()(item)
  const { isOpen, setIsOpen, hoverProps } = useHoverIntent()
  const buttonRef = useRef<HTMLButtonElement>(null)
  const children = (item.children ?? []).filter((child) => isVisibleTo(child, role))
  return (
    <div
      className="relative"
      {...hoverProps}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && isOpen) {
          e.stopPropagation()
          setIsOpen(false)
          buttonRef.current?.focus()
        }
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setIsOpen(false)
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={isNested ? menuItemClass : topClass}
        aria-expanded={isOpen}
        aria-haspopup="true"
        onClick={() => setIsOpen(!isOpen)}
        onKeyDown={(e) => {
          if ((e.key === 'ArrowDown' && !isNested) || (e.key === 'ArrowRight' && isNested)) {
            e.preventDefault()
            setIsOpen(true)
          }
        }}
      >
        {item.icon && <Icon name={item.icon} className="size-5 shrink-0 opacity-80" />}
        <span className="truncate">{label}</span>
        <Icon name={isNested ? 'chevronEnd' : 'chevronDown'} className="ms-auto size-4 shrink-0 opacity-70 flip-rtl" />
      </button>
      {isOpen && (
        <ul
          className={`absolute z-40 min-w-56 rounded-lg border border-th-border bg-th-paper p-1 shadow-lg ${isNested ? 'start-full top-0 ms-1' : 'start-0 top-full mt-1'}`}
          aria-label={label}
        >
          {children.map((child) => (
            <li key={child.id}>
              {child.type === 'divider' ? (
                <div role="separator" className="my-1 border-t border-th-border" />
              ) : child.children?.length ? (
                <Submenu item={child} role={role} isNested />
              ) : (
                <LeafLink item={child} className={menuItemClass} />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

export function HorizontalNavigation({ items, role, label }: { items: readonly NavigationItem[]; role: string | null; label: string }) {
  const visible = items.filter((item) => isVisibleTo(item, role) && item.type !== 'divider')
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap items-center gap-1">
        {visible.map((item) => (
          <li key={item.id}>{item.children?.length ? <Submenu item={item} role={role} isNested={false} /> : <LeafLink item={item} className={topClass} />}</li>
        ))}
      </ul>
    </nav>
  )
}
