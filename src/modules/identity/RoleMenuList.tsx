import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../../auth/useAccess'
import type { AnyEntity, Row } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { Pagination } from '../../engine/list/Pagination'
import { useListController } from '../../engine/list/useListController'
import { Banner } from '../../engine/ui/Banner'
import { Icon } from '../../engine/ui/icons'
import { LazyConfirmDialog } from '../../engine/ui/LazyConfirmDialog'
import { useFormat } from '../../i18n/useFormat'
import { useRoleLabel } from '../../shell/UserMenu'
import { NewRecordLink } from '../../engine/list/ListToolbar'
import { TableFrame } from '../../engine/list/TableFrame'

const countOf = (row: Row) => (Array.isArray(row.menu_items) ? row.menu_items.length : 0)

/**
 * The role menus (api-contract §3.4): `all/` answers one row per role — its id is the
 * role's, with the role's name and menu item ids — so a row opens the role's menu form and
 * its delete removes all the role's rows (`delete/{role_id}`). There is no search route.
 */
export function RoleMenuList({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const format = useFormat()
  const roleLabel = useRoleLabel()
  const access = useAccess()
  const controller = useListController(entity)
  const { query, pendingDelete } = controller
  const [asked, setAsked] = useState(pendingDelete)
  if (pendingDelete && pendingDelete !== asked) setAsked(pendingDelete)
  const canCreate = access.can(entity.permissions.CREATE)
  const canDelete = access.can(entity.permissions.DELETE)
  const plural = t(`${entity.labelKey}.other`)
  const roleName = (row: Row) => (typeof row.role === 'string' ? row.role : `#${row.id}`)

  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{plural}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('identity.role_menus_subtitle')}</p>
        </div>
        {canCreate && <NewRecordLink entity={entity} />}
      </header>
      {query.isError && <Banner kind="error">{errorText(t, query.error)}</Banner>}
      {controller.deleteError && (
        <Banner kind="error" onDismiss={controller.dismissDeleteError} dismissLabel={t('common.dismiss')}>
          {errorText(t, controller.deleteError)}
        </Banner>
      )}
      <TableFrame
        isBusy={query.isFetching}
        below={
          <>
            {!query.isPending && !query.isError && controller.rows.length === 0 && (
              <p className="px-6 py-16 text-center font-medium">{t('list.empty', { entity: plural })}</p>
            )}
            <Pagination controller={controller} />

          </>
        }
        head={
          <>
            <tr>
              <th scope="col" className="w-16 px-4 py-3 text-start">
                {t('list.serial')}
              </th>
              <th scope="col" className="px-4 py-3 text-start">
                {t('field.role')}
              </th>
              <th scope="col" className="px-4 py-3 text-end">
                {t('field.menu_items')}
              </th>
              <th scope="col" className="w-16 px-4 py-3">
                <span className="sr-only">{t('list.actions')}</span>
              </th>
            </tr>

          </>
        }
      >
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {controller.rows.map((row, index) => (
            <tr key={row.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/60">
              <td className="px-4 py-3 tabular-nums text-slate-500 dark:text-slate-400">{controller.serialOf(index)}</td>
              <td className="px-4 py-3 font-medium capitalize">
                <Link to={`${entity.ui.formPath}/${row.id}/${encodeURIComponent(roleName(row))}`} className="text-slate-900 hover:text-indigo-600 hover:underline dark:text-slate-100 dark:hover:text-indigo-400">
                  {roleLabel(roleName(row))}
                </Link>
              </td>
              <td className="px-4 py-3 text-end tabular-nums text-slate-600 dark:text-slate-300">{format.integer(countOf(row))}</td>
              <td className="px-4 py-3 text-end">
                {canDelete && (
                  <button
                    type="button"
                    onClick={() => controller.askDelete({ ...row, role: roleName(row) })}
                    className="rounded-md p-1.5 text-slate-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-red-500 dark:hover:bg-red-950 dark:hover:text-red-400"
                    aria-label={t('list.delete_row', { label: roleName(row) })}
                  >
                    <Icon name="trash" className="size-4.5" />
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>

      </TableFrame>
      <LazyConfirmDialog
        isOpen={pendingDelete !== null}
        title={t('list.confirm_delete_title', { entity: t(`${entity.labelKey}.one`) })}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        onConfirm={controller.confirmDelete}
        onCancel={controller.cancelDelete}
        isBusy={controller.isDeleting}
      >
        {t('list.confirm_delete_text', { label: asked?.kind === 'one' ? asked.label : '' })}
      </LazyConfirmDialog>
    </div>
  )
}
