import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import type { RelatedSpec } from '../../../schema/kit'
import { useAccess } from '../access-context'
import { useEntity } from '../entities-context'
import { fetchList, type AnyEntity, type Row } from '../entity-api'
import { cellValueOf, FieldCell, isNumericCell } from '../list/FieldCell'
import { entityKeys } from '../queries'
import { QueryPanel } from '../ui/QueryPanel'

/**
 * The registry's `related` lists under a stored record's form (a product's stock movements,
 * a purchase's payments): the newest rows of the other entity that refer to the record, in
 * its own cells (the first opening the row), and a link to its list filtered by the record
 * for the rest, asked again with the record. Shown only to
 * those who may list that entity; the server judges which rows they see.
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

function RelatedList({ entity, spec, row }: { entity: AnyEntity; spec: RelatedSpec; row: Row }) {
  const { t } = useTranslation()
  const other = useEntity(spec.entity)
  const access = useAccess()
  const isAllowed = other !== undefined && access.can(other.permissions.LIST)
  const size = spec.size ?? DEFAULT_SIZE
  const filters = { [spec.via]: String(row.id) }
  const rows = useQuery({
    // Under the record's own entity: asked again whenever the record is (a save, an action — a confirmation that wrote its payment).
    queryKey: [...entityKeys.all(entity.name), 'related', spec.entity, spec.via, row.id, size],
    queryFn: ({ signal }) => fetchList(other!, { page: 1, size, ordering: '-id', filters }, signal),
    enabled: isAllowed,
  })
  if (!other || !isAllowed) return null
  const columns = (spec.columns ?? other.listColumns.filter((n) => n !== spec.via).slice(0, 6)).filter((n) => other.fields[n])
  const headingId = `related-${spec.entity}-${spec.via}`
  const canOpen = access.can(other.permissions.DETAILS)
  const total = rows.data?.totalElements ?? 0
  return (
    <QueryPanel
      id={headingId}
      title={t(`${other.labelKey}.other`)}
      query={rows}
      aside={
        rows.data && total > 0 ? (
          <Link to={other.ui.listPath} search={{ [spec.via]: row.id }} className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
            {t('form.related_all', { count: total })}
          </Link>
        ) : undefined
      }
    >
      {(page) =>
        page.totalElements === 0 ? (
          <p className="px-6 py-4 text-sm text-slate-500 dark:text-slate-400">{t('form.related_none')}</p>
        ) : (
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
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {page.rows.map((related) => (
                  <tr key={related.id}>
                    {columns.map((name, i) => {
                      const cell = <FieldCell field={other.fields[name]!} value={cellValueOf(other.fields[name]!, related, name)} />
                      return (
                        <td key={name} className={`px-4 py-2 ${isNumericCell(other.fields[name]!) ? 'text-end tabular-nums' : ''}`}>
                          {/* The first cell opens the row's own form, for those who may read it. */}
                          {i === 0 && canOpen ? (
                            <Link to={`${other.ui.formPath}/${related.id}`} className="rounded decoration-indigo-400 underline-offset-2 hover:underline">
                              {cell}
                            </Link>
                          ) : (
                            cell
                          )}
                        </td>
                      )
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryPanel>
  )
}
