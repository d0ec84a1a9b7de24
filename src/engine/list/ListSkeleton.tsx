import { useTranslation } from 'react-i18next'
import type { AnyEntity } from '../entity-api'
import { TableFrame } from './TableFrame'

/**
 * What a list shows while it loads: its header and the outline of its table, so the page
 * keeps its shape (no lone spinner, no jump when the rows come). Small, with no data code:
 * the router shows it while the list screen's own code loads.
 */
export function SkeletonRows({ columns, rows = 6 }: { columns: number; rows?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, i) => (
        <tr key={`skeleton-${i}`} aria-hidden="true" data-skeleton="">
          {Array.from({ length: columns }, (_, j) => (
            <td key={j} className="px-4 py-3.5">
              <div className="h-4 animate-pulse rounded bg-slate-100 dark:bg-slate-800" style={{ width: `${40 + ((i * 7 + j * 13) % 50)}%`, minWidth: '2rem' }} />
            </td>
          ))}
        </tr>
      ))}
    </>
  )
}

export function ListSkeleton({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  return (
    <div className="space-y-4" aria-busy="true">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t(entity.listTitleKey)}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400" role="status">
            {t('common.loading')}
          </p>
        </div>
        <div className="h-9 w-full animate-pulse rounded-lg bg-slate-100 sm:w-72 dark:bg-slate-800" aria-hidden="true" />
      </header>
      <TableFrame
        isBusy
        head={
          <tr>
            <th scope="col" className="w-16 px-4 py-3 text-start">
              {t('list.serial')}
            </th>
            {entity.listColumns.map((name) => (
              <th key={name} scope="col" className="px-4 py-3 text-start whitespace-nowrap">
                {t(entity.fieldLabelKey(name))}
              </th>
            ))}
          </tr>
        }
      >
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          <SkeletonRows columns={entity.listColumns.length + 1} rows={8} />
        </tbody>
      </TableFrame>
    </div>
  )
}
