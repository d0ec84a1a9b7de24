import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../app/paths'
import { session } from '../auth/session'
import { useCurrentUser } from '../auth/useCurrentUser'
import { Icon, type IconName } from '../engine/ui/icons'
import { Avatar } from './Avatar'
import { useUnreadCount } from './inbox/useUnreadCount'
import { UnreadBadge } from './toolbar/InboxButton'
import { DropdownMenu, menuItemClass } from './DropdownMenu'

/** A role name as people read it: the built-in ones translated, others `SALES_CLERK` → "sales clerk" (capitalised by CSS). */
export function useRoleLabel() {
  const { t } = useTranslation()
  return (role: string | null) => (role ? t(`roles.${role.toUpperCase()}`, { defaultValue: role.toLowerCase().replace(/_/g, ' ') }) : t('toolbar.guest'))
}

function MenuLink({ to, icon, label, close, children }: { to: string; icon: IconName; label: string; close: () => void; children?: React.ReactNode }) {
  return (
    <Link to={to} role="menuitem" className={menuItemClass} onClick={close}>
      <Icon name={icon} className="size-4" />
      {label}
      {children}
    </Link>
  )
}

/**
 * The user menu (spec §2): the user's name and role (Guest when none) with My Profile,
 * Inbox and Logout; a guest — nobody signed in, or a user without a role — gets Login and
 * Register instead.
 */
export function UserMenu() {
  const { t } = useTranslation()
  const roleLabel = useRoleLabel()
  const user = useCurrentUser()
  const name = user?.displayName ?? ''
  const isGuest = !user || user.role === null
  const unread = useUnreadCount()
  return (
    <DropdownMenu
      label={t('toolbar.user_menu')}
      isNamedByContent
      buttonClassName="flex items-center gap-3 rounded-md py-1.5 ps-1.5 pe-2 text-start hover:bg-th-hover data-open:bg-th-hover"
      button={
        <>
          <span className="sr-only">{t('toolbar.user_menu')}</span>
          <Avatar src={user?.photoURL} name={name} />
          <span className="hidden min-w-0 sm:block">
            <span className="block max-w-40 truncate text-sm font-medium text-th-fg">{name || t('toolbar.guest')}</span>
            {user && (
              <span className="block truncate text-xs capitalize text-th-muted" data-testid="user-role">
                {roleLabel(user.role)}
              </span>
            )}
          </span>
          <Icon name="chevronDown" className="hidden size-4 text-th-muted sm:block" />
        </>
      }
      header={user?.email ? <div className="truncate border-b border-th-border px-3 pt-1.5 pb-2 text-xs text-th-muted">{user.email}</div> : undefined}
    >
      {(close) =>
        isGuest ? (
          <>
            <MenuLink to={paths.login} icon="login" label={t('toolbar.login')} close={close} />
            <MenuLink to={paths.register} icon="userPlus" label={t('toolbar.register')} close={close} />
          </>
        ) : (
          <>
            <MenuLink to={paths.profile} icon="userCircle" label={t('toolbar.my_profile')} close={close} />
            <MenuLink to={paths.inbox} icon="inbox" label={t('toolbar.inbox')} close={close}>
              <UnreadBadge count={unread} className="ms-auto" />
            </MenuLink>
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
          </>
        )
      }
    </DropdownMenu>
  )
}
