import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { apiRequest } from '../../engine/api'
import type { AnyEntity } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { entityKeys } from '../../engine/queries'
import { Banner } from '../../engine/ui/Banner'
import { Spinner } from '../../engine/ui/PageSpinner'
import { ListSearchBox } from '../../engine/list/ListToolbar'
import { buildGroupTree, filterGroupTree, type GroupNode, type GroupRow, type PrimaryRow } from './group-tree'

async function rowsOf<T>(entity: AnyEntity, signal: AbortSignal): Promise<T[]> {
  const body = (await apiRequest(`${entity.api.base}/without_pagination/all/`, { signal })) as Record<string, unknown>
  const rows = body[entity.listKey]
  if (!Array.isArray(rows)) throw new Error(`Unexpected answer for ${entity.listKey}`)
  return rows as T[]
}

function TreeItem({ node, group, depth }: { node: GroupNode; group: AnyEntity; depth: number }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(true)
  const hasChildren = node.children.length > 0
  return (
    <li role="treeitem" aria-expanded={hasChildren ? open : undefined} aria-level={depth + 1} aria-label={node.name} data-kind={node.kind}>
      <span className="flex items-center gap-1.5 py-1" style={{ paddingInlineStart: `${depth * 1.5}rem` }}>
        {hasChildren ? (
          <button
            type="button"
            onClick={() => setOpen(!open)}
            className="size-6 rounded text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800"
            aria-label={t(open ? 'accounting.collapse' : 'accounting.expand', { name: node.name })}
          >
            <span aria-hidden="true" className="inline-block rtl:-scale-x-100">{open ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="size-6" aria-hidden="true" />
        )}
        {node.kind === 'group' ? (
          <Link to={`${group.ui.formPath}/${node.id}/${encodeURIComponent(node.name)}`} className="hover:text-indigo-600 hover:underline dark:hover:text-indigo-400">
            {node.name}
          </Link>
        ) : (
          <span className="font-semibold">{node.name}</span>
        )}
      </span>
      {hasChildren && open && (
        <ul role="group">
          {node.children.map((c) => (
            <TreeItem key={c.id} node={c} group={group} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  )
}

/** The groups as the tree they make under the primary groups, with a filter by name; a group opens its form. */
export function GroupTree({ group, primaryGroup }: { group: AnyEntity; primaryGroup: AnyEntity }) {
  const { t } = useTranslation()
  const [filter, setFilter] = useState('')
  const tree = useQuery({
    queryKey: [...entityKeys.all(group.name), 'tree'],
    queryFn: async ({ signal }) => buildGroupTree(await rowsOf<PrimaryRow>(primaryGroup, signal), await rowsOf<GroupRow>(group, signal)),
  })
  const shown = filterGroupTree(tree.data ?? [], filter)
  return (
    <div className="space-y-3">
      <ListSearchBox label={t('list.search', { entity: t(`${group.labelKey}.other`) })} value={filter} onChange={setFilter} />
      {tree.isError && <Banner kind="error">{errorText(t, tree.error)}</Banner>}
      {tree.isPending && (
        <div className="flex justify-center py-10 text-slate-400">
          <Spinner className="size-6" />
        </div>
      )}
      {tree.data && (
        <div className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
          {shown.length === 0 ? (
            <p className="px-3 py-10 text-center font-medium">{t('list.empty_search', { text: filter.trim() })}</p>
          ) : (
            <ul role="tree" aria-label={t('accounting.chart')}>
              {shown.map((n) => (
                <TreeItem key={`p${n.id}`} node={n} group={group} depth={0} />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  )
}
