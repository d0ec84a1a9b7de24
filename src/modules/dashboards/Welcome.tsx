import { Link } from '@tanstack/react-router'
import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { useAccess } from '../../auth/useAccess'
import { useEntity } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { useEntityRecord } from '../../engine/queries'
import { Icon, type IconName } from '../../engine/ui/icons'
import { Avatar } from '../../shell/Avatar'
import { LanguageSelect } from '../../shell/LanguageSelect'
import { modeOf } from '../../shell/settings/settings'
import { setMode, useSettings } from '../../shell/settings/store'
import { useRoleLabel } from '../../shell/UserMenu'

const card = 'flex h-full flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-xs dark:border-slate-800 dark:bg-slate-900'
const linkCard = `${card} group transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:border-indigo-700`

function CardTitle({ icon, id, children }: { icon: IconName; id?: string; children: ReactNode }) {
  return (
    <h2 id={id} className="flex items-center gap-2 text-sm font-semibold">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
        <Icon name={icon} className="size-4" />
      </span>
      {children}
    </h2>
  )
}

function LinkCard({ to, hash, icon, title, text }: { to: string; hash?: string; icon: IconName; title: string; text: string }) {
  return (
    <li>
      <Link to={to} hash={hash} className={linkCard}>
        <div className="flex items-start justify-between gap-3">
          <CardTitle icon={icon}>{title}</CardTitle>
          <Icon name="chevronEnd" className="flip-rtl mt-2 size-4 text-slate-300 transition group-hover:text-indigo-500 dark:text-slate-600" />
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">{text}</p>
      </Link>
    </li>
  )
}

function ModeChoice() {
  const { t } = useTranslation()
  const mode = modeOf(useSettings().theme.main)
  return (
    <div role="group" aria-label={t('settings.mode')} className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-700">
      {(['light', 'dark'] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          onClick={() => setMode(m)}
          className={`inline-flex items-center gap-1.5 rounded-md px-3 py-1 text-sm ${mode === m ? 'bg-indigo-600 font-medium text-white' : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`}
        >
          <Icon name={m === 'light' ? 'sun' : 'moon'} className="size-4" />
          {t(`settings.mode_${m}`)}
        </button>
      ))}
    </div>
  )
}

const Heading = ({ name }: { name: string }) => {
  const { t } = useTranslation()
  return <h1 className="text-2xl font-semibold tracking-tight">{t('dashboard.welcome', { name })}</h1>
}

/** The user's name as their own row gives it (first and last; a user may read their own row), their username until it comes. */
function OwnNameHeading({ user, userId, fallback }: { user: AnyEntity; userId: number; fallback: string }) {
  const own = useEntityRecord(user, userId)
  const full = [own.data?.first_name, own.data?.last_name].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ')
  return <Heading name={full || fallback} />
}

/**
 * The dashboard of someone the back-office has nothing for (a registered USER, a role that
 * lists nothing; issue 20): not an empty page of record counts but what is theirs — their
 * profile, their password, the interface's language and look.
 */
export function Welcome() {
  const { t } = useTranslation()
  const access = useAccess()
  const roleLabel = useRoleLabel()
  const user = useEntity('user')
  const displayName = access.user?.displayName ?? ''
  const userId = access.user?.id
  const languageId = useId()
  const languageTitle = useId()
  const appearanceTitle = useId()
  return (
    <div className="space-y-6" data-testid="dashboard-welcome">
      <header className="flex flex-wrap items-center gap-4">
        <Avatar src={access.user?.photoURL} name={displayName} className="size-14 text-lg" />
        <div className="min-w-0 flex-1">
          {user && userId !== undefined ? <OwnNameHeading user={user} userId={userId} fallback={displayName} /> : <Heading name={displayName} />}
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
            <span className="truncate">{access.user?.email}</span>
            <span className="inline-flex rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">{roleLabel(access.user?.role ?? null)}</span>
          </p>
        </div>
      </header>
      <p className="max-w-prose text-sm text-slate-600 dark:text-slate-400">{t('dashboard.welcome_text')}</p>
      <ul className="grid gap-4 sm:grid-cols-2">
        <LinkCard to={paths.profile} icon="userCircle" title={t('toolbar.my_profile')} text={t('dashboard.profile_text')} />
        <LinkCard to={paths.profile} hash="password" icon="key" title={t('profile.change_password')} text={t('dashboard.password_text')} />
        <li>
          <section aria-labelledby={languageTitle} className={card}>
            <CardTitle icon="language" id={languageTitle}>
              <label htmlFor={languageId}>{t('toolbar.language')}</label>
            </CardTitle>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('dashboard.language_text')}</p>
            <div>
              <LanguageSelect id={languageId} />
            </div>
          </section>
        </li>
        <li>
          <section aria-labelledby={appearanceTitle} className={card}>
            <CardTitle icon="swatch" id={appearanceTitle}>
              {t('settings.appearance')}
            </CardTitle>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('dashboard.appearance_text')}</p>
            <div>
              <ModeChoice />
            </div>
          </section>
        </li>
      </ul>
    </div>
  )
}
