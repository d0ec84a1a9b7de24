import { useQuery } from '@tanstack/react-query'
import { Link, useParams } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { apiRequest } from '../../engine/api'
import { useEntity } from '../../engine/entities-context'
import { errorText } from '../../engine/errors'
import { Banner } from '../../engine/ui/Banner'
import { PageSpinner } from '../../engine/ui/PageSpinner'
import { PageHeader } from './PageHeader'

/**
 * `/apps/passenger/search/{searchText}` (spec §2, §5; issue 11): where the toolbar search goes.
 * The server's people search (`/api/people/search/?q=`) looks through every kind of person
 * the caller may list — employees, customers, vendors, members, then the user accounts — by
 * name, username, e-mail or any part of a phone number; each kind is a group here, each
 * person a link to their form, each group a link to its list filtered by the same text.
 */
export const PEOPLE_SEARCH_PATH = '/api/people/search/'

export type Person = { id: number; name: string; email: string; phone: string }
export type PeopleGroup = { entity: string; total: number; people: Person[] }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown) => (typeof v === 'string' ? v : '')

/** The groups of a people search answer, each person with a name to show. */
export function groupsOf(body: unknown): PeopleGroup[] {
  if (!isRecord(body) || !Array.isArray(body.groups)) return []
  return body.groups.flatMap((group): PeopleGroup[] => {
    if (!isRecord(group) || typeof group.entity !== 'string' || !Array.isArray(group.people)) return []
    const people = group.people.flatMap((row): Person[] => {
      if (!isRecord(row) || typeof row.id !== 'number') return []
      const name = `${text(row.first_name)} ${text(row.last_name)}`.trim() || text(row.username) || `#${row.id}`
      return [{ id: row.id, name, email: text(row.email), phone: text(row.primary_phone) || text(row.secondary_phone) }]
    })
    return [{ entity: group.entity, total: typeof group.total === 'number' ? group.total : people.length, people }]
  })
}

function Group({ group, searchText }: { group: PeopleGroup; searchText: string }) {
  const { t } = useTranslation()
  const entity = useEntity(group.entity)
  if (!entity) return null
  const title = t(entity.listTitleKey)
  const headingId = `people-${group.entity}`
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {title} <span className="text-sm font-normal text-slate-500 tabular-nums dark:text-slate-400">({group.total})</span>
        </h2>
        {group.total > group.people.length && (
          <Link to={entity.ui.listPath} search={{ q: searchText }} className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
            {t('people_search.see_all', { count: group.total, list: title })}
          </Link>
        )}
      </div>
      <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label={title}>
        {group.people.map((person) => (
          <li key={person.id}>
            <Link to={`${entity.ui.formPath}/${person.id}`} className="flex items-center gap-4 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200" aria-hidden="true">
                {person.name.slice(0, 1).toUpperCase()}
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{person.name}</span>
                <span className="block truncate text-sm text-slate-600 dark:text-slate-400">
                  <bdi dir="ltr">{person.email}</bdi>
                  {person.phone && (
                    <>
                      {' · '}
                      <bdi dir="ltr">{person.phone}</bdi>
                    </>
                  )}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function PassengerSearchPage() {
  const { t } = useTranslation()
  const { searchText } = useParams({ strict: false }) as { searchText?: string }
  const searched = (searchText ?? '').trim()
  const query = useQuery({
    queryKey: ['people-search', searched],
    queryFn: async ({ signal }) => groupsOf(await apiRequest(PEOPLE_SEARCH_PATH, { searchParams: { q: searched }, signal })),
    enabled: searched !== '',
    retry: false,
  })
  return (
    <div className="space-y-6">
      <PageHeader title={t('people_search.title')} subtitle={t('people_search.subtitle', { text: searched })} />
      {query.isPending ? (
        <PageSpinner />
      ) : query.isError ? (
        <Banner kind="error">
          <p className="font-medium">{t('people_search.failed')}</p>
          <p className="mt-1">{errorText(t, query.error)}</p>
        </Banner>
      ) : query.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400" role="status">
          {t('people_search.no_results', { text: searched })}
        </p>
      ) : (
        <div className="space-y-8" aria-label={t('people_search.results')} role="group">
          {query.data.map((group) => (
            <Group key={group.entity} group={group} searchText={searched} />
          ))}
        </div>
      )}
    </div>
  )
}
