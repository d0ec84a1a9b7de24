import { useQuery } from '@tanstack/react-query'
import { useParams } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { apiRequest } from '../../engine/api'
import { errorText } from '../../engine/errors'
import { Banner } from '../../engine/ui/Banner'
import { PageSpinner } from '../../engine/ui/PageSpinner'
import { PageHeader } from './PageHeader'

/**
 * `/apps/passenger/search/{searchText}` (spec §2, §5): where the toolbar search goes. The
 * people search proper comes with the customer and member modules; until then it
 * searches the users and employees that exist (`user/search/?username=`).
 */
export const PEOPLE_SEARCH_PATH = '/user/api/v1/user/search/'

export type Person = { id: number; name: string; email: string; role: string | null }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The people of a search answer: its `users` (or `employees`) list. */
export function peopleOf(body: unknown): Person[] {
  if (!isRecord(body)) return []
  const rows = Array.isArray(body.users) ? body.users : Array.isArray(body.employees) ? body.employees : []
  return rows.flatMap((row): Person[] => {
    if (!isRecord(row) || typeof row.id !== 'number') return []
    const first = typeof row.first_name === 'string' ? row.first_name : ''
    const last = typeof row.last_name === 'string' ? row.last_name : ''
    const username = typeof row.username === 'string' ? row.username : ''
    const name = `${first} ${last}`.trim() || username || `#${row.id}`
    const role = isRecord(row.role) && typeof row.role.name === 'string' ? row.role.name : typeof row.role === 'string' ? row.role : null
    return [{ id: row.id, name, email: typeof row.email === 'string' ? row.email : '', role }]
  })
}

export function PassengerSearchPage() {
  const { t } = useTranslation()
  const { searchText } = useParams({ strict: false }) as { searchText?: string }
  const text = (searchText ?? '').trim()
  const query = useQuery({
    queryKey: ['people-search', text],
    queryFn: async ({ signal }) => peopleOf(await apiRequest(PEOPLE_SEARCH_PATH, { searchParams: { username: text }, signal })),
    enabled: text !== '',
    retry: false,
  })
  return (
    <div>
      <PageHeader title={t('people_search.title')} subtitle={t('people_search.subtitle', { text })} />
      {query.isPending ? (
        <PageSpinner />
      ) : query.isError ? (
        <Banner kind="error">
          <p className="font-medium">{t('people_search.failed')}</p>
          <p className="mt-1">{errorText(t, query.error)}</p>
        </Banner>
      ) : query.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400" role="status">
          {t('people_search.no_results', { text })}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label={t('people_search.results')}>
          {query.data.map((person) => (
            <li key={person.id} className="flex items-center gap-4 px-4 py-3">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200" aria-hidden="true">
                {person.name.slice(0, 1).toUpperCase()}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{person.name}</p>
                <p className="truncate text-sm text-slate-600 dark:text-slate-400" dir="ltr">{person.email}</p>
              </div>
              {person.role && <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs capitalize text-slate-700 dark:bg-slate-800 dark:text-slate-300">{person.role}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
