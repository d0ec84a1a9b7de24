import { useLocation } from '@tanstack/react-router'
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { f } from '../../../schema/kit'
import { useAccess } from '../../auth/useAccess'
import { useEntity } from '../../engine/entities-context'
import { useCanPick } from '../../engine/pickable'
import type { AnyEntity, Row } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { FieldRow } from '../../engine/form/FieldRow'
import { useEntityRecord } from '../../engine/queries'
import { Banner } from '../../engine/ui/Banner'
import { Icon } from '../../engine/ui/icons'
import { PageSpinner, Spinner } from '../../engine/ui/PageSpinner'
import { Avatar } from '../../shell/Avatar'
import { PageHeader } from '../../shell/pages/PageHeader'
import { useRoleLabel } from '../../shell/UserMenu'
import { currentPasswordField, profileEntityOf, usePasswordChange, usePhotoUpload, useProfileDetails } from './useProfile'

const confirmField = f.password({ required: true })

const primaryButton =
  'inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60'

/** `anchor`: the section's address on the page (`/pages/profile#password`), brought into view when the page opens at it. */
function Card({ title, subtitle, anchor, children }: { title: string; subtitle?: string; anchor?: string; children: ReactNode }) {
  const id = useId()
  const hash = useLocation({ select: (location) => location.hash })
  const isTarget = anchor !== undefined && hash === anchor
  const ref = useRef<HTMLElement>(null)
  // The router scrolls to a hash as it navigates, before this page has loaded its record.
  useEffect(() => {
    if (isTarget) ref.current?.scrollIntoView({ block: 'start' })
  }, [isTarget])
  return (
    <section ref={ref} id={anchor} aria-labelledby={id} className="scroll-mt-20 rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900">
      <div className="border-b border-slate-200 px-6 py-4 dark:border-slate-800">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {subtitle && <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{subtitle}</p>}
      </div>
      {children}
    </section>
  )
}

function SaveBar({ isSaving, label }: { isSaving: boolean; label: string }) {
  const { t } = useTranslation()
  return (
    <div className="flex justify-end rounded-b-xl border-t border-slate-200 bg-slate-50 px-6 py-4 dark:border-slate-800 dark:bg-slate-900/60">
      <button type="submit" disabled={isSaving} className={primaryButton}>
        {isSaving && <Spinner className="size-4" />}
        {isSaving ? t('form.saving') : label}
      </button>
    </div>
  )
}

/** `/pages/profile` (spec §2, My Profile): photo, own details and password. */
export function ProfilePage() {
  const access = useAccess()
  const user = useEntity('user')
  const userId = access.user?.id ?? null
  if (!user || userId === null) return <PageSpinner />
  return <ProfileLoader user={user} userId={userId} />
}

/** The user's own row (`user/{id}`, which a user may read about themselves): references as ids. */
function ProfileLoader({ user, userId }: { user: AnyEntity; userId: number }) {
  const { t } = useTranslation()
  const record = useEntityRecord(user, userId)
  if (record.isPending) return <PageSpinner />
  if (record.isError) return <Banner kind="error">{errorText(t, record.error)}</Banner>
  return <Profile user={user} row={record.data} />
}

function Profile({ user, row }: { user: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const roleLabel = useRoleLabel()
  const access = useAccess()
  const canPick = useCanPick()
  // A reference the user cannot list cannot be picked (a USER-role account lists nothing).
  const entity = useMemo(() => profileEntityOf(user, (name) => user.fields[name] === undefined || canPick(user.fields[name]!)), [user, canPick])
  const details = useProfileDetails({ entity, row })
  const password = usePasswordChange({ entity: user, userId: row.id })
  const photo = usePhotoUpload({ entity: user, userId: row.id })
  const photoId = useId()
  const name = access.user?.displayName ?? ''
  const fields = (names: readonly string[]) =>
    names
      .filter((n) => entity.fieldNames.includes(n))
      .map((n) => <FieldRow key={n} name={n} field={entity.fields[n]!} labelKey={entity.fieldLabelKey(n)} control={details.form.control} />)

  return (
    <div className="space-y-6">
      <PageHeader title={t('profile.title')} subtitle={t('profile.subtitle')} />

      <section className="flex flex-wrap items-center gap-5 rounded-xl border border-slate-200 bg-white p-6 shadow-xs dark:border-slate-800 dark:bg-slate-900" aria-label={t('profile.photo')}>
        <Avatar src={access.user?.photoURL} name={name} className="size-20 text-2xl" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold">{name}</p>
          <p className="truncate text-sm text-slate-500 dark:text-slate-400">{access.user?.email}</p>
          <p className="mt-1 inline-flex rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium capitalize text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300" data-testid="profile-role">
            {roleLabel(access.user?.role ?? null)}
          </p>
        </div>
        <div className="space-y-1.5">
          <label
            htmlFor={photoId}
            className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-within:ring-3 focus-within:ring-indigo-500/20 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            {photo.isPending ? <Spinner className="size-4" /> : <Icon name="camera" className="size-4" />}
            {t('profile.change_photo')}
            <input
              id={photoId}
              type="file"
              accept={(user.fields.image?.accept ?? ['image/*']).join(',')}
              className="sr-only"
              disabled={photo.isPending}
              onChange={(e) => {
                const file = e.target.files?.[0]
                e.target.value = ''
                if (file) photo.mutate(file)
              }}
            />
          </label>
          <p className="text-xs text-slate-500 dark:text-slate-400">{t('profile.photo_hint')}</p>
        </div>
        {photo.isError && (
          <div className="w-full">
            <Banner kind="error" onDismiss={() => photo.reset()} dismissLabel={t('common.dismiss')}>
              {errorText(t, photo.error)}
            </Banner>
          </div>
        )}
      </section>

      <Card title={t('profile.details')} subtitle={t('profile.details_text')}>
        <form onSubmit={(e) => void details.submit(e)} noValidate aria-label={t('profile.details')}>
          <div className="space-y-5 p-6">
            {details.serverError && <Banner kind="error">{details.serverError}</Banner>}
            <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
              {fields(['first_name', 'last_name', 'username', 'email', 'gender', 'date_of_birth', 'primary_phone', 'secondary_phone', 'nid'])}
            </div>
            <div className="grid gap-x-6 gap-y-5 border-t border-slate-100 pt-5 sm:grid-cols-2 dark:border-slate-800">
              {fields(['street_address_one', 'street_address_two', 'country', 'city', 'thana', 'postal_code'])}
            </div>
          </div>
          <SaveBar isSaving={details.isSaving} label={t('profile.save_details')} />
        </form>
      </Card>

      <Card title={t('profile.password')} subtitle={t('profile.password_text')} anchor="password">
        <form onSubmit={(e) => void password.submit(e)} noValidate aria-label={t('profile.password')}>
          <div className="space-y-5 p-6">
            {password.serverError && <Banner kind="error">{password.serverError}</Banner>}
            <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
              <FieldRow name="current_password" field={currentPasswordField} labelKey="field.current_password" control={password.form.control} />
            </div>
            <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
              <FieldRow name="password" field={user.fields.password!} labelKey="profile.new_password" control={password.form.control} />
              <FieldRow name="confirm_password" field={confirmField} labelKey="field.confirm_password" control={password.form.control} />
            </div>
          </div>
          <SaveBar isSaving={password.isSaving} label={t('profile.change_password')} />
        </form>
      </Card>
    </div>
  )
}
