import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyEntity } from '../entity-api'
import { Icon } from '../ui/icons'
import { Spinner } from '../ui/PageSpinner'

/** The search box of a list header: the generic list's and any bespoke list's. */
export function ListSearchBox({ label, value, onChange, isBusy = false }: { label: string; value: string; onChange: (text: string) => void; isBusy?: boolean }) {
  const id = useId()
  return (
    // A whole line on a phone (the buttons beside it go to the next); beside them from `sm` up.
    <div className="relative min-w-0 basis-full sm:w-72 sm:flex-none sm:basis-auto">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Icon name="search" className="pointer-events-none absolute inset-y-0 start-3 my-auto size-4 text-slate-400" />
      <input
        id={id}
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={label}
        className="block w-full rounded-lg border border-slate-300 bg-white py-2 ps-9 pe-3 text-sm shadow-xs outline-none placeholder:text-slate-400 focus:border-indigo-500 focus:ring-3 focus:ring-indigo-500/20 dark:border-slate-700 dark:bg-slate-900"
      />
      {isBusy && <Spinner className="absolute inset-y-0 end-3 my-auto size-4 text-slate-400" />}
    </div>
  )
}

/** The "New" button of a list header: opens the entity's form for a new record. */
export function NewRecordLink({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  return (
    <Link
      to={`${entity.ui.formPath}/new`}
      className="inline-flex items-center gap-1.5 rounded-lg bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      <Icon name="plus" className="size-4" />
      {t('list.new')}
    </Link>
  )
}
