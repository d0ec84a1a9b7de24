import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { errorText } from '../errors'
import { Banner } from './Banner'
import { Spinner } from './PageSpinner'

/**
 * A panel under a record's form that shows what one query answers (a voucher's postings, a
 * record's related rows, an offer's pictures): its heading (and `aside`, at its end), a
 * spinner while asked, the error as the app says errors, then `children` with the answer.
 * Not printed: the printed document is the record alone.
 */
export function QueryPanel<T>({ id, title, aside, query, children }: { id: string; title: ReactNode; aside?: ReactNode; query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation()
  return (
    <section className="rounded-xl border border-slate-200 bg-white shadow-xs print:hidden dark:border-slate-800 dark:bg-slate-900" aria-labelledby={id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-6 py-4 dark:border-slate-800">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {query.isPending && (
        <div className="flex justify-center p-6">
          <Spinner className="size-5" />
        </div>
      )}
      {query.isError && (
        <div className="p-6">
          <Banner kind="error">{errorText(t, query.error)}</Banner>
        </div>
      )}
      {query.isSuccess && children(query.data)}
    </section>
  )
}
