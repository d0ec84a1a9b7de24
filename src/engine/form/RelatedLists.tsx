import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RelatedSpec } from '../../../schema/kit'
import { useFormat } from '../../i18n/useFormat'
import { useAccess } from '../access-context'
import { useEntity } from '../entities-context'
import { fetchList, labelOf, type AnyEntity, type Row } from '../entity-api'
import { cellValueOf, FieldCell, isNumericCell } from '../list/FieldCell'
import { entityKeys } from '../queries'
import { Icon } from '../ui/icons'
import { QueryPanel } from '../ui/QueryPanel'
import { relatedNewSearch } from './prefill'

/**
 * The registry's `related` lists under a stored record's form (an employee's qualifications,
 * a ledger's postings, a product's stock movements): the rows of the other entity that refer
 * to the record, newest first, a page at a time (Previous and Next, with the total), in its
 * own cells — each row opens its form — with a link to its list filtered by the record, and
 * "New …" that opens the other entity's form with the reference filled in, coming back here
 * after the save (prefill.ts). Asked again with the record. Shown only to those who may list
 * that entity; the server judges which rows they see.
 */
export function RelatedLists({ entity, row }: { entity: AnyEntity; row: Row }) {
  return (
    <>
      {entity.related.map((spec) => (
        <RelatedList key={`${spec.entity}.${spec.via}`} entity={entity} spec={spec} row={row} />
      ))}
    </>
  )
}

const DEFAULT_SIZE = 10

const linkClass = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'
const navButton =
  'rounded-md border border-slate-300 p-1.5 text-slate-600 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800'

/** Cells that make a poor link (a picture, a tick): the row's link goes on the first other one. */
const isLinkable = (kind: string) => kind !== 'image' && kind !== 'file' && kind !== 'boolean'

function RelatedList({ entity, spec, row }: { entity: AnyEntity; spec: RelatedSpec; row: Row }) {
  const { t } = useTranslation()
  const format = useFormat()
  const other = useEntity(spec.entity)
  const access = useAccess()
  const isAllowed = other !== undefined && access.can(other.permissions.LIST)
  const size = spec.size ?? DEFAULT_SIZE
  const [page, setPage] = useState(1)
  const filters = { [spec.via]: String(row.id) }
  const rows = useQuery({
    // Under the record's own entity: asked again whenever the record is (a save, an action — a confirmation that wrote its payment).
    queryKey: [...entityKeys.all(entity.name), 'related', spec.entity, spec.via, row.id, size, page],
    queryFn: ({ signal }) => fetchList(other!, { page, size, ordering: '-id', filters }, signal),
    enabled: isAllowed,
    placeholderData: keepPreviousData,
    // Asked again each time the form opens: a row added on its own form (its "New …") shows on the way back.
    staleTime: 0,
  })
  const totalPages = rows.data ? Math.max(1, rows.data.totalPages) : 1
  // Rows gone since (deleted elsewhere): back to the last page there is.
  useEffect(() => {
    if (rows.data && !rows.isPlaceholderData && page > totalPages) setPage(totalPages)
  }, [rows.data, rows.isPlaceholderData, page, totalPages])
  if (!other || !isAllowed) return null
  const columns = (spec.columns ?? other.listColumns.filter((n) => n !== spec.via).slice(0, 6)).filter((n) => other.fields[n])
  const linkColumn = columns.find((n) => isLinkable(other.fields[n]!.kind)) ?? columns[0]
  const headingId = `related-${spec.entity}-${spec.via}`
  const canOpen = access.canDo(other, 'DETAILS')
  const via = other.fields[spec.via]
  // A new row names the record by the reference this list is of: where the form lets one set it.
  const canCreate = access.canDo(other, 'CREATE') && other.routes.create !== false && !other.isLine && via !== undefined && !via.isReadOnly
  const total = rows.data?.totalElements ?? 0
  const newLabel = t('form.new_title', { entity: t(`${other.labelKey}.one`) })
  const from = rows.data ? (page - 1) * size + 1 : 0
  const to = rows.data ? Math.min(from + rows.data.rows.length - 1, total) : 0
  return (
    <QueryPanel
      id={headingId}
      title={t(`${other.labelKey}.other`)}
      query={rows}
      aside={
        <div className="flex flex-wrap items-center gap-4">
          {rows.data && total > 0 && (
            <Link to={other.ui.listPath} search={{ [spec.via]: row.id }} className={linkClass}>
              {t('form.related_all', { count: total })}
            </Link>
          )}
          {canCreate && (
            <Link
              to={`${other.ui.formPath}/new`}
              search={relatedNewSearch(spec.via, row.id, entity.name)}
              className="inline-flex items-center gap-1 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
            >
              <Icon name="plus" className="size-4" />
              {newLabel}
            </Link>
          )}
        </div>
      }
    >
      {(answer) =>
        answer.totalElements === 0 ? (
          <p className="px-6 py-4 text-sm text-slate-500 dark:text-slate-400">{t('form.related_none')}</p>
        ) : (
          <>
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead className="bg-slate-50 text-xs font-medium text-slate-500 uppercase dark:bg-slate-800/60 dark:text-slate-400">
                  <tr>
                    {columns.map((name) => (
                      <th key={name} scope="col" className={`px-4 py-2 ${isNumericCell(other.fields[name]!) ? 'text-end' : 'text-start'}`}>
                        {t(other.fieldLabelKey(name))}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className={`divide-y divide-slate-100 dark:divide-slate-800 ${rows.isPlaceholderData ? 'opacity-60' : ''}`}>
                  {answer.rows.map((related) => (
                    <tr key={related.id} className={canOpen ? 'hover:bg-slate-50 dark:hover:bg-slate-800/40' : undefined}>
                      {columns.map((name) => {
                        const field = other.fields[name]!
                        const value = cellValueOf(field, related, name)
                        const isEmpty = value === null || value === undefined || value === ''
                        return (
                          <td key={name} className={`px-4 py-2 ${isNumericCell(field) ? 'text-end tabular-nums' : ''}`}>
                            {/* Each row opens its own form, for those who may read it: by its first telling cell, or its name when that is empty. */}
                            {name === linkColumn && canOpen ? (
                              <Link to={`${other.ui.formPath}/${related.id}`} className="rounded font-medium text-indigo-700 decoration-indigo-400 underline-offset-2 hover:underline dark:text-indigo-300">
                                {isEmpty ? labelOf(other, related) : <FieldCell field={field} value={value} />}
                              </Link>
                            ) : (
                              <FieldCell field={field} value={value} />
                            )}
                          </td>
                        )
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {answer.totalElements > size && (
              <div className="flex flex-wrap items-center justify-end gap-4 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
                <span className="tabular-nums">{t('list.range', { from: format.integer(from), to: format.integer(to), total: format.integer(total) })}</span>
                <div className="flex gap-1.5">
                  <button type="button" className={navButton} onClick={() => setPage(page - 1)} disabled={page <= 1 || rows.isPlaceholderData} aria-label={t('list.previous')}>
                    <Icon name="chevronStart" className="flip-rtl size-4" />
                  </button>
                  <button type="button" className={navButton} onClick={() => setPage(page + 1)} disabled={page >= totalPages || rows.isPlaceholderData} aria-label={t('list.next')}>
                    <Icon name="chevronEnd" className="flip-rtl size-4" />
                  </button>
                </div>
              </div>
            )}
          </>
        )
      }
    </QueryPanel>
  )
}
