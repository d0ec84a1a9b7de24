import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { toggleNavbar } from './navbar-state'

/** The navbar's toggle (spec §4): a drawer on a phone, folded or dense by its style otherwise. */
export function NavbarToggle({ className = '' }: { className?: string }) {
  const { t } = useTranslation()
  return (
    <button type="button" onClick={() => toggleNavbar()} className={`rounded-md p-2 hover:bg-th-hover ${className}`} aria-label={t('toolbar.toggle_navigation')} data-testid="navbar-toggle">
      <Icon name="menu" className="size-5" />
    </button>
  )
}
