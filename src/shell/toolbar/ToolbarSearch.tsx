import { useNavigate } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PASSENGER_SEARCH_KEY, paths } from '../../app/paths'
import { Icon } from '../../engine/ui/icons'
import { toolbarButtonClass } from '../DropdownMenu'

/**
 * The toolbar search (spec §2, §5): a button that opens a search field; Escape, a click
 * elsewhere or the close button close it and clear the text; Enter with text goes to
 * `/apps/passenger/search/{text}` and keeps the text in session storage.
 */
export function ToolbarSearch() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [isOpen, setIsOpen] = useState(false)
  const [text, setText] = useState('')
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)

  const close = (shouldFocusButton = true) => {
    setIsOpen(false)
    setText('')
    if (shouldFocusButton) requestAnimationFrame(() => buttonRef.current?.focus())
  }

  useEffect(() => {
    if (!isOpen) return
    const onPointerDown = (e: PointerEvent) => {
      if (e.target instanceof Node && !rootRef.current?.contains(e.target)) close(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [isOpen])

  if (!isOpen) {
    return (
      <button ref={buttonRef} type="button" className={toolbarButtonClass} onClick={() => setIsOpen(true)} aria-label={t('toolbar.search')}>
        <Icon name="search" className="size-5" />
      </button>
    )
  }
  return (
    <div ref={rootRef} className="absolute inset-0 z-30 flex items-center gap-2 bg-th-bg px-4 sm:px-6" role="search">
      <Icon name="search" className="size-5 shrink-0 text-th-muted" />
      <input
        type="text"
        autoFocus
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault()
            close()
          } else if (e.key === 'Enter' && text.trim() !== '') {
            e.preventDefault()
            const value = text.trim()
            try {
              sessionStorage.setItem(PASSENGER_SEARCH_KEY, value)
            } catch {
              // Storage unavailable: the address still carries the text.
            }
            close(false)
            void navigate({ to: `${paths.passengerSearch}/$searchText`, params: { searchText: value } })
          }
        }}
        placeholder={t('toolbar.search_placeholder')}
        aria-label={t('toolbar.search')}
        className="h-full min-w-0 flex-1 bg-transparent text-base text-th-fg outline-none placeholder:text-th-muted"
      />
      <button type="button" onClick={() => close()} className={toolbarButtonClass} aria-label={t('toolbar.close_search')}>
        <Icon name="close" className="size-5" />
      </button>
    </div>
  )
}
