import { useEffect, useId, useRef, useState, type ReactNode } from 'react'

/**
 * A small accessible menu button (WAI-ARIA menu pattern): arrow keys move between items,
 * Escape and a click outside close it and focus returns to the button. Hand-written
 * because the toolbar is on every screen and a positioning library would weigh more
 * than the whole shell.
 */
export const menuItemClass =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-start text-sm text-th-fg outline-none hover:bg-th-hover focus:bg-th-hover'

/** The toolbar's icon buttons. */
export const toolbarButtonClass = 'flex items-center gap-1.5 rounded-md p-2 text-th-fg/80 hover:bg-th-hover hover:text-th-fg data-open:bg-th-hover'

export function DropdownMenu({
  label,
  buttonClassName,
  button,
  children,
  header,
  menuClassName = '',
  isNamedByContent = false,
}: {
  label: string
  /** The button's name comes from its content (which must then say what it is); else `label`. */
  isNamedByContent?: boolean
  menuClassName?: string
  buttonClassName: string
  button: ReactNode
  header?: ReactNode
  children: (close: () => void) => ReactNode
}) {
  const [isOpen, setIsOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const menuId = useId()

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])
  const close = (shouldFocusButton = true) => {
    setIsOpen(false)
    if (shouldFocusButton) buttonRef.current?.focus()
  }

  useEffect(() => {
    if (!isOpen) return
    items()[0]?.focus()
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setIsOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [isOpen])

  const onKeyDown = (event: React.KeyboardEvent) => {
    const list = items()
    const index = list.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') {
      event.preventDefault()
      close()
    } else if (event.key === 'ArrowDown') {
      event.preventDefault()
      list[(index + 1) % list.length]?.focus()
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      list[(index - 1 + list.length) % list.length]?.focus()
    } else if (event.key === 'Home') {
      event.preventDefault()
      list[0]?.focus()
    } else if (event.key === 'End') {
      event.preventDefault()
      list[list.length - 1]?.focus()
    } else if (event.key === 'Tab') {
      close(false)
    }
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName}
        aria-label={isNamedByContent ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        data-open={isOpen || undefined}
        onClick={() => setIsOpen((v) => !v)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !isOpen) {
            e.preventDefault()
            setIsOpen(true)
          }
        }}
      >
        {button}
      </button>
      {isOpen && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onKeyDown}
          className={`absolute end-0 top-full z-40 mt-1.5 min-w-48 rounded-lg border border-th-border bg-th-paper p-1 text-th-fg shadow-lg ${menuClassName}`}
        >
          {header}
          {children(() => close())}
        </div>
      )}
    </div>
  )
}
