import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { apiRequest } from '../../engine/api'
import { useEntities, useEntity } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { entityKeys } from '../../engine/queries'
import { Banner } from '../../engine/ui/Banner'
import { Spinner } from '../../engine/ui/PageSpinner'
import { borderClass, inputClass, type WidgetProps } from '../../engine/widgets/types'
import { groupPermissions, humanize, toggleGroup, type PermissionGroup, type PermissionRow } from './permission-groups'

const checkboxClass = 'size-4 shrink-0 rounded border-slate-300 accent-indigo-600 dark:border-slate-600'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function usePermissions(entity: AnyEntity | undefined) {
  return useQuery({
    queryKey: [...entityKeys.all(entity?.name ?? 'permission'), 'unpaged'],
    queryFn: async ({ signal }): Promise<PermissionRow[]> => {
      const body = await apiRequest(`${entity!.api.base}/without_pagination/all/`, { signal })
      const rows = isRecord(body) ? body[entity!.listKey] : undefined
      return Array.isArray(rows) ? rows.filter((r): r is PermissionRow => isRecord(r) && typeof r.id === 'number' && typeof r.name === 'string') : []
    },
    enabled: entity !== undefined,
    staleTime: 60_000,
  })
}

/**
 * The role form's permissions (a `refs` field): every permission, grouped by entity, with
 * a "select all" per entity and a filter. The value is the ticked permission ids.
 */
export function PermissionPicker({ id, value, onChange, onBlur, isInvalid, describedBy }: WidgetProps) {
  const { t } = useTranslation()
  const entities = useEntities()
  const permissions = usePermissions(useEntity('permission'))
  const [filter, setFilter] = useState('')
  const selected = useMemo(() => (Array.isArray(value) ? [...value] : []), [value])
  const groups = useMemo(() => groupPermissions(permissions.data ?? [], entities), [permissions.data, entities])
  const groupLabel = (g: PermissionGroup) => (g.entity ? t(`${g.entity.labelKey}.other`) : humanize(g.key))
  const actionLabel = (action: string) => t(`identity.actions.${action}`, { defaultValue: humanize(action) })
  const needle = filter.trim().toLowerCase()
  const shown = needle === '' ? groups : groups.filter((g) => groupLabel(g).toLowerCase().includes(needle) || g.items.some((i) => i.name.toLowerCase().includes(needle)))
  const total = permissions.data?.length ?? 0

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onBlur={onBlur}
          placeholder={t('identity.filter_permissions')}
          aria-invalid={isInvalid || undefined}
          aria-describedby={describedBy}
          className={`${inputClass} ${borderClass(isInvalid)} max-w-xs`}
        />
        <span className="text-sm text-slate-500 tabular-nums dark:text-slate-400" aria-live="polite">
          {t('identity.permissions_selected', { count: selected.length, total })}
        </span>
      </div>
      {permissions.isPending && <Spinner className="size-5 text-slate-400" />}
      {permissions.isError && <Banner kind="error">{errorText(t, permissions.error)}</Banner>}
      <div className="grid gap-3 sm:grid-cols-2 2xl:grid-cols-3">
        {shown.map((group) => {
          const label = groupLabel(group)
          const count = group.items.filter((i) => selected.includes(i.id)).length
          const isAll = count === group.items.length
          return (
            <fieldset key={group.key} className="rounded-lg border border-slate-200 bg-slate-50/60 p-3 dark:border-slate-800 dark:bg-slate-950/40" data-testid={`permission-group-${group.key}`}>
              <legend className="sr-only">{label}</legend>
              <label className="flex cursor-pointer items-center gap-2 border-b border-slate-200 pb-2 text-sm font-semibold text-slate-800 dark:border-slate-800 dark:text-slate-100">
                <input
                  type="checkbox"
                  className={checkboxClass}
                  checked={isAll}
                  ref={(el) => {
                    if (el) el.indeterminate = count > 0 && !isAll
                  }}
                  onChange={() => onChange(toggleGroup(selected, group))}
                  aria-label={t('identity.select_all_of', { group: label })}
                />
                <span className="truncate">{label}</span>
                <span className="ms-auto text-xs font-normal text-slate-500 tabular-nums dark:text-slate-400">
                  {count}/{group.items.length}
                </span>
              </label>
              <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1.5">
                {group.items.map((item) => (
                  <label key={item.id} className="inline-flex cursor-pointer items-center gap-1.5 text-sm text-slate-700 dark:text-slate-300" title={item.name}>
                    <input
                      type="checkbox"
                      className={checkboxClass}
                      checked={selected.includes(item.id)}
                      onChange={(e) => onChange(e.target.checked ? [...selected, item.id].sort((a, b) => a - b) : selected.filter((x) => x !== item.id))}
                    />
                    {actionLabel(item.action)}
                  </label>
                ))}
              </div>
            </fieldset>
          )
        })}
      </div>
    </div>
  )
}
