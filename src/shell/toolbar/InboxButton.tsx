import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { Icon } from '../../engine/ui/icons'
import { useFormat } from '../../i18n/useFormat'
import { useUnreadCount } from '../inbox/useUnreadCount'

/** The most the badge spells out; more shows as "99+". */
const BADGE_MAX = 99

/** The count of unread notifications as a badge shows it (nothing when none). */
export function UnreadBadge({ count, className = '' }: { count: number | undefined; className?: string }) {
  const format = useFormat()
  if (!count) return null
  return (
    <span
      aria-hidden="true"
      data-testid="unread-badge"
      className={`min-w-4 rounded-full bg-red-600 px-1 text-center text-[10px] leading-4 font-semibold text-white tabular-nums dark:bg-red-500 ${className}`}
    >
      {count > BADGE_MAX ? `${format.integer(BADGE_MAX)}+` : format.integer(count)}
    </span>
  )
}

/** The toolbar's way to the Inbox (issue 23), with the caller's unread notifications counted on it. */
export function InboxButton({ className }: { className: string }) {
  const { t } = useTranslation()
  const count = useUnreadCount()
  const label = count ? t('inbox.button_unread', { count }) : t('inbox.button')
  return (
    <Link to={paths.inbox} className={`relative ${className}`} aria-label={label} title={label} data-testid="inbox-button">
      <Icon name="inbox" className="size-5" />
      <UnreadBadge count={count} className="absolute end-0.5 top-0.5" />
    </Link>
  )
}
