import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../../auth/useAccess'
import { deleteRecord, type AnyEntity } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { entityKeys } from '../../engine/queries'
import { Banner } from '../../engine/ui/Banner'
import { Icon } from '../../engine/ui/icons'
import { LazyConfirmDialog } from '../../engine/ui/LazyConfirmDialog'
import { showAlert } from '../../engine/ui/notifications'
import { Spinner } from '../../engine/ui/PageSpinner'
import { labelOf, type MenuItemNode } from '../../shell/navigation'
import { navigationKey } from '../../shell/useNavigation'
import { useMenuTree } from './menu-api'
import { filterTree } from './menu-tree'
import { ListSearchBox, NewRecordLink } from '../../engine/list/ListToolbar'
import { TableFrame } from '../../engine/list/TableFrame'

type Line = { node: MenuItemNode; depth: number }

function linesOf(nodes: readonly MenuItemNode[], depth = 0): Line[] {
  return nodes.flatMap((node) => [{ node, depth }, ...linesOf(node.children, depth + 1)])
}

/**
 * The navigation's menu items (api-contract §3.4) as the nested menu they make
 * (`nested_menu_item_without_pagination/all/`): each item under its parent, with a
 * filter. A row opens the generic form; deleting an item deletes its children too.
 */
export function MenuItemList({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const access = useAccess()
  const tree = useMenuTree(entity)
  const [filter, setFilter] = useState('')
  const [pending, setPending] = useState<MenuItemNode | null>(null)
  const [asked, setAsked] = useState<MenuItemNode | null>(null)
  if (pending && pending !== asked) setAsked(pending)
  const canCreate = access.can(entity.permissions.CREATE)
  const canDelete = access.can(entity.permissions.DELETE)
  const canOpen = access.can(entity.permissions.DETAILS)
  const plural = t(`${entity.labelKey}.other`)
  const label = (node: MenuItemNode) => labelOf(t, { translate: node.translate, title: node.title || node.translate })
  const needle = filter.trim().toLowerCase()
  const shown = needle === '' ? (tree.data ?? []) : filterTree(tree.data ?? [], (n) => label(n).toLowerCase().includes(needle) || (n.url ?? '').toLowerCase().includes(needle))
  const lines = linesOf(shown)
  const hrefOf = (node: MenuItemNode) => `${entity.ui.formPath}/${node.id}/${encodeURIComponent(node.title || node.translate)}`

  const remove = useMutation({
    mutationFn: (node: MenuItemNode) => deleteRecord(entity, node.id).then((answer) => answer.detail),
    onSuccess: async (detail) => {
      showAlert({ kind: 'success', ...(detail ? { text: detail } : { key: 'list.deleted' }) })
      setPending(null)
      await Promise.all([queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) }), queryClient.invalidateQueries({ queryKey: navigationKey })])
    },
    onError: () => setPending(null),
  })

  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{plural}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('identity.menu_items_subtitle')}</p>
        </div>
        <div className="flex w-full flex-wrap items-center gap-3 sm:w-auto">
          <ListSearchBox label={t('list.search', { entity: plural })} value={filter} onChange={setFilter} />
          {canCreate && <NewRecordLink entity={entity} />}
        </div>
      </header>
      {tree.isError && <Banner kind="error">{errorText(t, tree.error)}</Banner>}
      {remove.isError && (
        <Banner kind="error" onDismiss={() => remove.reset()} dismissLabel={t('common.dismiss')}>
          {errorText(t, remove.error)}
        </Banner>
      )}
      <TableFrame
        isBusy={tree.isFetching}
        below={
          <>
            {tree.isPending && (
              <div className="flex justify-center py-10 text-slate-400">
                <Spinner className="size-6" />
              </div>
            )}
            {tree.data && lines.length === 0 && (
              <p className="px-6 py-16 text-center font-medium">{needle ? t('list.empty_search', { text: filter.trim() }) : t('list.empty', { entity: plural })}</p>
            )}

          </>
        }
        head={
          <>
            <tr>
              <th scope="col" className="px-4 py-3 text-start">
                {t('field.title')}
              </th>
              <th scope="col" className="px-4 py-3 text-start">
                {t('field.type')}
              </th>
              <th scope="col" className="px-4 py-3 text-start">
                {t('field.url')}
              </th>
              <th scope="col" className="px-4 py-3 text-start">
                {t('field.translate')}
              </th>
              {canDelete && (
                <th scope="col" className="w-16 px-4 py-3">
                  <span className="sr-only">{t('list.actions')}</span>
                </th>
              )}
            </tr>

          </>
        }
      >
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {lines.map(({ node, depth }) => (
            <tr
              key={node.id}
              onClick={() => canOpen && void navigate({ to: hrefOf(node) })}
              className={`${canOpen ? 'cursor-pointer' : ''} hover:bg-slate-50 dark:hover:bg-slate-800/60`}
              data-depth={depth}
            >
              <td className="px-4 py-2.5">
                <span className="flex items-center gap-2" style={{ paddingInlineStart: `${depth * 1.75}rem` }}>
                  {depth > 0 && <span className="h-px w-3 bg-slate-300 dark:bg-slate-700" aria-hidden="true" />}
                  {canOpen ? (
                    <Link
                      to={hrefOf(node)}
                      onClick={(e) => e.stopPropagation()}
                      className={`hover:text-indigo-600 hover:underline dark:hover:text-indigo-400 ${node.children.length > 0 ? 'font-semibold text-slate-900 dark:text-slate-100' : 'text-slate-700 dark:text-slate-300'}`}
                    >
                      {label(node)}
                    </Link>
                  ) : (
                    <span>{label(node)}</span>
                  )}
                </span>
              </td>
              <td className="px-4 py-2.5">
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-300">{t(`option.${node.type}`, { defaultValue: node.type })}</span>
              </td>
              <td className="px-4 py-2.5 text-slate-500 dark:text-slate-400" dir="ltr">
                {node.url ?? '—'}
              </td>
              <td className="px-4 py-2.5 font-mono text-xs text-slate-500 dark:text-slate-400" dir="ltr">
                {node.translate}
              </td>
              {canDelete && (
                <td className="px-4 py-2.5 text-end">
                  <button
                    type="button"
                    onClick={(e) => {
                      e.stopPropagation()
                      remove.reset()
                      setPending(node)
                    }}
                    className="rounded-md p-1.5 text-slate-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-red-500 dark:hover:bg-red-950 dark:hover:text-red-400"
                    aria-label={t('list.delete_row', { label: label(node) })}
                  >
                    <Icon name="trash" className="size-4.5" />
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>

      </TableFrame>
      <LazyConfirmDialog
        isOpen={pending !== null}
        title={t('list.confirm_delete_title', { entity: t(`${entity.labelKey}.one`) })}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        onConfirm={() => pending && remove.mutate(pending)}
        onCancel={() => setPending(null)}
        isBusy={remove.isPending}
      >
        {asked && asked.children.length > 0
          ? t('identity.confirm_delete_menu_item_with_children', { label: label(asked), count: asked.children.length })
          : t('list.confirm_delete_text', { label: asked ? label(asked) : '' })}
      </LazyConfirmDialog>
    </div>
  )
}
