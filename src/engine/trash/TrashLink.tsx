import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../access-context'
import type { AnyEntity } from '../entity-api'
import { Icon } from '../ui/icons'
import { hasTrash, trashPathOf } from './trash-api'

/**
 * The list header's way to an entity's Trash, for those who may delete its records (who
 * alone may restore them): nothing for an entity without a Trash.
 */
export function TrashLink({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const access = useAccess()
  if (!hasTrash(entity) || !access.canDo(entity, 'DELETE') || entity.routes.delete === false) return null
  return (
    <Link
      to={trashPathOf(entity)}
      aria-label={t('trash.link_label', { entity: t(`${entity.labelKey}.other`) })}
      className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      <Icon name="trash" className="size-4" />
      <span className="max-sm:sr-only">{t('trash.link')}</span>
    </Link>
  )
}
