import { useTranslation } from 'react-i18next'
import { session } from '../auth/session'
import { useCurrentUser } from '../auth/useCurrentUser'
import { Icon } from '../engine/ui/icons'
import { DropdownMenu, menuItemClass } from './DropdownMenu'

function initialsOf(name: string): string {
  const parts = name.replace(/@.*/, '').split(/[\s._-]+/).filter(Boolean)
  return (parts.length > 1 ? `${parts[0]![0]}${parts[1]![0]}` : name.slice(0, 2)).toUpperCase()
}

/** The user menu (spec §2): name, role (Guest when none) and Logout. */
export function UserMenu() {
  const { t } = useTranslation()
  const user = useCurrentUser()
  const name = user?.displayName ?? ''
  const role = user?.role ?? t('toolbar.guest')
  return (
    <DropdownMenu
      label={t('toolbar.user_menu')}
      isNamedByContent
      buttonClassName="flex items-center gap-3 rounded-md py-1.5 ps-1.5 pe-2 text-start hover:bg-th-hover data-open:bg-th-hover"
      button={
        <>
          <span className="sr-only">{t('toolbar.user_menu')}</span>
          {user?.photoURL ? (
            <img src={user.photoURL} alt="" className="size-8 rounded-full object-cover" />
          ) : (
            <span className="flex size-8 items-center justify-center rounded-full bg-th-accent text-xs font-semibold text-th-accent-fg" aria-hidden="true">
              {name ? initialsOf(name) : <Icon name="users" className="size-4" />}
            </span>
          )}
          <span className="hidden min-w-0 sm:block">
            <span className="block max-w-40 truncate text-sm font-medium text-th-fg">{name || '…'}</span>
            <span className="block truncate text-xs capitalize text-th-muted">{role}</span>
          </span>
          <Icon name="chevronDown" className="hidden size-4 text-th-muted sm:block" />
        </>
      }
      header={user?.email ? <div className="truncate border-b border-th-border px-3 pt-1.5 pb-2 text-xs text-th-muted">{user.email}</div> : undefined}
    >
      {(close) => (
        <button
          type="button"
          role="menuitem"
          className={menuItemClass}
          onClick={() => {
            close()
            session.logout()
          }}
        >
          <Icon name="logout" className="flip-rtl size-4" />
          {t('toolbar.logout')}
        </button>
      )}
    </DropdownMenu>
  )
}
