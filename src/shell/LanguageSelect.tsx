import { useTranslation } from 'react-i18next'
import { changeLanguage, isLanguage, languages } from '../i18n'

/** The language of a guest's page (login, register, password reset): a plain select above the card. */
export function LanguageSelect({ id }: { id?: string }) {
  const { t, i18n } = useTranslation()
  return (
    <select
      id={id}
      aria-label={id === undefined ? t('language.choose') : undefined}
      value={i18n.resolvedLanguage}
      onChange={(e) => isLanguage(e.target.value) && void changeLanguage(e.target.value)}
      className="rounded-md border border-slate-300 bg-white py-1 ps-2 pe-7 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
    >
      {languages.map((lng) => (
        <option key={lng} value={lng}>
          {t(`language.${lng}`)}
        </option>
      ))}
    </select>
  )
}
