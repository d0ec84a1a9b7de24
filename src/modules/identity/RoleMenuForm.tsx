import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../../auth/useAccess'
import { apiRequest, isApiError } from '../../engine/api'
import { useEntity } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { entityKeys } from '../../engine/queries'
import { Banner } from '../../engine/ui/Banner'
import { Icon } from '../../engine/ui/icons'
import { showAlert } from '../../engine/ui/notifications'
import { PageSpinner } from '../../engine/ui/PageSpinner'
import { RefSelect } from '../../engine/widgets/RefSelect'
import { labelOf as navigationLabel, type MenuItemNode } from '../../shell/navigation'
import { navigationKey } from '../../shell/useNavigation'
import { useMenuTree, useRoleMenu } from './menu-api'
import { allLeafIds, assignedIds, tickedOf, tickState, toggleNode } from './menu-tree'
import { FormActions } from '../../engine/form/FormActions'

const checkboxClass = 'size-4 shrink-0 rounded border-slate-300 accent-indigo-600 dark:border-slate-600'
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function TreeNode({ node, ticked, onToggle }: { node: MenuItemNode; ticked: ReadonlySet<number>; onToggle: (node: MenuItemNode) => void }) {
  const { t } = useTranslation()
  const state = tickState(node, ticked)
  const label = navigationLabel(t, { translate: node.translate, title: node.title || node.translate })
  return (
    <li>
      <label className="flex min-w-0 cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 hover:bg-slate-50 dark:hover:bg-slate-800/60">
        <input
          type="checkbox"
          className={checkboxClass}
          checked={state === 'checked'}
          ref={(el) => {
            if (el) el.indeterminate = state === 'mixed'
          }}
          onChange={() => onToggle(node)}
        />
        <span className={`shrink-0 text-sm ${node.children.length > 0 ? 'font-semibold text-slate-900 dark:text-slate-100' : 'text-slate-700 dark:text-slate-300'}`}>{label}</span>
        {node.url && (
          <span className="hidden min-w-0 truncate text-xs text-slate-400 md:block dark:text-slate-500" dir="ltr">
            {node.url}
          </span>
        )}
      </label>
      {node.children.length > 0 && (
        <ul className="ms-4 border-s border-slate-200 ps-3 dark:border-slate-800">
          {node.children.map((child) => (
            <TreeNode key={child.id} node={child} ticked={ticked} onToggle={onToggle} />
          ))}
        </ul>
      )}
    </li>
  )
}

/**
 * The role-menu form (api-contract §3.4, §7): pick a role, tick items in the menu tree —
 * prefilled from the role's menu (`nested_menu_item_by_role_id/{role}`) — and save, which
 * posts `create/` `{role, menu_items}` and replaces the role's rows. At
 * `roleMenus/{role id}/{role name}` (a row of the list is a role) and `roleMenus/new`.
 */
export function RoleMenuForm({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const access = useAccess()
  const params: { id?: string } = useParams({ strict: false })
  const roleFieldId = useId()
  const initialRole = /^\d{1,15}$/.test(params.id ?? '') ? Number(params.id) : null
  const [roleId, setRoleId] = useState<number | null>(initialRole)
  const [roleError, setRoleError] = useState<string | null>(null)
  const menuItem = useEntity('menu_item')
  const tree = useMenuTree(menuItem)
  const roleMenu = useRoleMenu(menuItem, entity, roleId)
  const [ticked, setTicked] = useState<ReadonlySet<number>>(() => new Set())
  const [prefilledFor, setPrefilledFor] = useState<number | null>(null)
  if (roleId !== null && prefilledFor !== roleId && tree.data && roleMenu.data) {
    setTicked(tickedOf(tree.data, roleMenu.data))
    setPrefilledFor(roleId)
  }
  const canSave = access.can(entity.permissions.CREATE)
  const roleField = entity.fields.role!
  const title = t(initialRole === null ? 'form.new_title' : 'form.edit_title', { entity: t(`${entity.labelKey}.one`) })

  const save = useMutation({
    mutationFn: (body: { role: number; menu_items: number[] }) => apiRequest(`${entity.api.base}/create/`, { method: 'post', json: body }),
    onSuccess: async (answer) => {
      const detail = isRecord(answer) && typeof answer.detail === 'string' ? answer.detail : undefined
      showAlert({ kind: 'success', ...(detail ? { text: detail } : { key: 'form.saved', params: { entity: t(`${entity.labelKey}.one`) } }) })
      await Promise.all([queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) }), queryClient.invalidateQueries({ queryKey: navigationKey })])
      await navigate({ to: entity.ui.listPath })
    },
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (roleId === null) {
      setRoleError(t('validation.required', { label: t(entity.fieldLabelKey('role')) }))
      return
    }
    if (!tree.data) return
    save.mutate({ role: roleId, menu_items: assignedIds(tree.data, ticked) })
  }

  const leaves = tree.data ? allLeafIds(tree.data) : []
  const isPrefilling = roleId !== null && prefilledFor !== roleId
  const fieldErrors = isApiError(save.error) ? save.error.fieldErrors : undefined

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <Link to={entity.ui.listPath} className="inline-flex items-center gap-1 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200">
          <Icon name="chevronStart" className="flip-rtl size-4" />
          {t('form.back', { entity: t(`${entity.labelKey}.other`) })}
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      </div>
      <form onSubmit={submit} noValidate aria-label={title} className="rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900">
        <fieldset disabled={!canSave} className="space-y-6 p-6">
          {save.isError && <Banner kind="error">{fieldErrors ? Object.values(fieldErrors).flat().join(' ') : errorText(t, save.error)}</Banner>}
          <div className="max-w-md">
            <label htmlFor={roleFieldId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
              {t(entity.fieldLabelKey('role'))}
              <span className="ms-0.5 text-red-600 dark:text-red-400" aria-hidden="true">
                *
              </span>
            </label>
            <RefSelect
              id={roleFieldId}
              name="role"
              field={roleField}
              label={t(entity.fieldLabelKey('role'))}
              value={roleId}
              onChange={(next) => {
                setRoleId(typeof next === 'number' ? next : null)
                setRoleError(null)
              }}
              onBlur={() => undefined}
              isInvalid={roleError !== null}
              describedBy={roleError ? `${roleFieldId}-error` : undefined}
            />
            {roleError && (
              <p id={`${roleFieldId}-error`} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
                {roleError}
              </p>
            )}
          </div>
          <section aria-labelledby={`${roleFieldId}-tree`}>
            <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
              <h2 id={`${roleFieldId}-tree`} className="text-sm font-semibold text-slate-800 dark:text-slate-200">
                {t('field.menu_items')}
              </h2>
              <div className="flex items-center gap-3 text-sm">
                <span className="text-slate-500 tabular-nums dark:text-slate-400" aria-live="polite">
                  {t('identity.menu_items_ticked', { count: leaves.filter((id) => ticked.has(id)).length, total: leaves.length })}
                </span>
                <button type="button" className="font-medium text-indigo-600 hover:underline disabled:opacity-50 dark:text-indigo-400" onClick={() => setTicked(new Set(leaves))}>
                  {t('identity.tick_all')}
                </button>
                <button type="button" className="font-medium text-indigo-600 hover:underline disabled:opacity-50 dark:text-indigo-400" onClick={() => setTicked(new Set())}>
                  {t('identity.tick_none')}
                </button>
              </div>
            </div>
            {tree.isError && <Banner kind="error">{errorText(t, tree.error)}</Banner>}
            {roleMenu.isError && <Banner kind="error">{errorText(t, roleMenu.error)}</Banner>}
            {tree.data && !isPrefilling ? (
              <ul className="columns-1 gap-8 rounded-lg border border-slate-200 p-3 lg:columns-2 dark:border-slate-800 [&>li]:break-inside-avoid" aria-label={t('field.menu_items')} data-testid="menu-tree">
                {tree.data.map((node) => (
                  <TreeNode key={node.id} node={node} ticked={ticked} onToggle={(n) => setTicked((current) => toggleNode(current, n))} />
                ))}
              </ul>
            ) : (
              !tree.isError && !roleMenu.isError && <PageSpinner />
            )}
          </section>
        </fieldset>
        <FormActions listPath={entity.ui.listPath} canSave={canSave} isSaving={save.isPending} isDisabled={isPrefilling} />
      </form>
    </div>
  )
}
