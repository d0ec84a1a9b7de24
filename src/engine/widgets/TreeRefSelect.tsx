import { Combobox, ComboboxOption, ComboboxOptions } from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { apiRequest } from '../api'
import { labelOf, type AnyEntity, type Row } from '../entity-api'
import { entityKeys } from '../queries'
import { useEntity } from '../entities-context'
import { filterTree, selfParentField, treeRows } from '../tree'
import { ChoiceInput, RefSelect } from './RefSelect'
import { Icon } from '../ui/icons'
import { Spinner } from '../ui/PageSpinner'
import type { WidgetProps } from './types'

/**
 * A reference of an entity to itself (a category's parent, a group's head group, a menu
 * item's parent): the generic form picks it in the tree of its rows (FormScreen).
 */
export function SelfTreeSelect(props: WidgetProps) {
  const target = useEntity(props.field.ref?.target ?? '')
  const parentField = target && selfParentField(target)
  if (!target || !parentField || target.routes.without_pagination === false) return <RefSelect {...props} />
  return <TreeRefSelect {...props} target={target} parentField={parentField} />
}

/**
 * A reference to an entity whose rows form a tree (a category's parent, a group's head):
 * every row in its place, indented under its parent, the chosen one shown with its path;
 * typing keeps the matching rows and their ancestors. The rows come whole from
 * `without_pagination/all/` (trees of this kind are a few hundred rows at most).
 */
const optionsClass =
  'z-50 max-h-80 w-max min-w-(--input-width) max-w-[min(28rem,calc(100vw-1rem))] overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg outline-none [--anchor-gap:4px] empty:invisible dark:border-slate-700 dark:bg-slate-900'
const optionClass =
  'flex cursor-pointer items-center gap-2 rounded-md py-2 pe-3 text-slate-700 select-none data-focus:bg-indigo-50 data-focus:text-indigo-900 data-selected:font-medium dark:text-slate-200 dark:data-focus:bg-indigo-950 dark:data-focus:text-indigo-100'

async function fetchAll(target: AnyEntity, signal?: AbortSignal): Promise<Row[]> {
  const body = (await apiRequest(`${target.api.base}/without_pagination/all/`, { signal })) as Record<string, unknown> | null
  const rows = body?.[target.listKey]
  return Array.isArray(rows) ? (rows as Row[]) : []
}

/** Every row of a tree-shaped entity, flat, each with its parent (the tree pickers' source). */
export function useTreeRows(target: AnyEntity) {
  return useQuery({ queryKey: [...entityKeys.all(target.name), 'tree'], queryFn: ({ signal }) => fetchAll(target, signal), staleTime: 60_000 })
}

export function TreeRefSelect({ id, name, field, value, onChange, onBlur, isInvalid, describedBy, target, parentField }: WidgetProps & { target: AnyEntity; parentField: string }) {
  const { t } = useTranslation()
  const [query, setQuery] = useState('')
  const all = useTreeRows(target)
  const tree = useMemo(() => treeRows(all.data ?? [], parentField, (row) => labelOf(target, row)), [all.data, parentField, target])
  const shown = useMemo(() => filterTree(tree, query), [tree, query])
  const selected = typeof value === 'number' ? value : null
  const chosen = tree.find((n) => n.row.id === selected)
  const chosenText = chosen ? [...chosen.path, chosen.label].join(' › ') : ''

  return (
    <Combobox
      value={selected}
      onChange={(next: number | null) => onChange(next)}
      onClose={() => {
        setQuery('')
        onBlur()
      }}
      name={name}
    >
      <ChoiceInput
        id={id}
        text={chosenText}
        onType={setQuery}
        placeholder={selected !== null && all.isPending ? t('common.loading') : t('form.type_to_search')}
        onClear={selected !== null && !field.isRequired ? () => onChange(null) : undefined}
        isInvalid={isInvalid}
        describedBy={describedBy}
        isRequired={field.isRequired}
      />
      <ComboboxOptions anchor="bottom start" className={optionsClass} modal={false}>
        {shown.length === 0 && (
          <div className="flex items-center gap-2 px-3 py-2 text-slate-500 dark:text-slate-400">
            {all.isFetching ? <Spinner className="size-4" /> : null}
            {all.isFetching ? t('common.loading') : t('form.no_results')}
          </div>
        )}
        {shown.map((node) => (
          <ComboboxOption key={node.row.id} value={node.row.id} className={optionClass} style={{ paddingInlineStart: `${0.75 + node.depth * 1.25}rem` }}>
            <Icon name="check" className="invisible size-4 shrink-0 text-indigo-600 in-data-selected:visible dark:text-indigo-400" />
            <span className="truncate">{node.label}</span>
            {node.path.length > 0 && <span className="sr-only">, {node.path.join(' › ')}</span>}
          </ComboboxOption>
        ))}
      </ComboboxOptions>
    </Combobox>
  )
}
