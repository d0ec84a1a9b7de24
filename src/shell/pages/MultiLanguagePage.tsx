import { useTranslation } from 'react-i18next'
import { changeLanguage, currentLanguage, directionOf, languages } from '../../i18n'
import { useFormat } from '../../i18n/useFormat'
import { PageHeader } from './PageHeader'

/**
 * `/documentation/configuration/multi-language` (spec §2, the language menu's Learn More):
 * how the interface languages work, how direction follows them, and how to add a language
 * or a key.
 */
const code = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-slate-800'

export function MultiLanguagePage() {
  const { t } = useTranslation()
  const format = useFormat()
  const active = currentLanguage()
  const sample = { number: 1234567.5, date: '2026-11-22' }
  return (
    <article className="max-w-3xl">
      <PageHeader title={t('docs.title')} subtitle={t('docs.subtitle')} />
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">{t('docs.languages_title')}</h2>
        <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">{t('docs.languages_text')}</p>
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-800">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-start text-xs uppercase tracking-wider text-slate-600 dark:bg-slate-900 dark:text-slate-400">
              <tr>
                <th scope="col" className="px-4 py-2 text-start">{t('docs.col_code')}</th>
                <th scope="col" className="px-4 py-2 text-start">{t('docs.col_language')}</th>
                <th scope="col" className="px-4 py-2 text-start">{t('docs.col_direction')}</th>
                <th scope="col" className="px-4 py-2 text-end">{t('docs.col_action')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {languages.map((lng) => (
                <tr key={lng}>
                  <td className="px-4 py-2 font-mono">{lng}</td>
                  <td className="px-4 py-2" lang={lng}>{t(`language.${lng}`)}</td>
                  <td className="px-4 py-2">{t(`docs.direction_${directionOf(lng)}`)}</td>
                  <td className="px-4 py-2 text-end">
                    {lng === active ? (
                      <span className="text-slate-500 dark:text-slate-400">{t('docs.current')}</span>
                    ) : (
                      <button type="button" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300" onClick={() => void changeLanguage(lng)} lang={lng}>
                        {t('docs.switch_to', { language: t(`language.${lng}`) })}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="mt-8 space-y-3">
        <h2 className="text-lg font-semibold">{t('docs.direction_title')}</h2>
        <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">{t('docs.direction_text')}</p>
      </section>

      <section className="mt-8 space-y-3">
        <h2 className="text-lg font-semibold">{t('docs.format_title')}</h2>
        <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">{t('docs.format_text')}</p>
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
            <dt className="text-slate-600 dark:text-slate-400">{t('docs.sample_number')}</dt>
            <dd className="mt-1 font-medium tabular-nums">{format.decimal(String(sample.number), 2)}</dd>
          </div>
          <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
            <dt className="text-slate-600 dark:text-slate-400">{t('docs.sample_date')}</dt>
            <dd className="mt-1 font-medium">{format.longDate(sample.date)}</dd>
          </div>
        </dl>
      </section>

      <section className="mt-8 space-y-3">
        <h2 className="text-lg font-semibold">{t('docs.files_title')}</h2>
        <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">{t('docs.files_text')}</p>
        <ul className="list-disc space-y-1 ps-6 text-sm text-slate-700 dark:text-slate-300">
          <li>
            <code className={code} dir="ltr">src/i18n/locales/&lt;lang&gt;/core.json</code> — {t('docs.file_core')}
          </li>
          <li>
            <code className={code} dir="ltr">src/i18n/locales/&lt;lang&gt;/shell.json</code> — {t('docs.file_shell')}
          </li>
          <li>
            <code className={code} dir="ltr">src/i18n/locales/&lt;lang&gt;/registry.json</code> — {t('docs.file_registry')}
          </li>
        </ul>
      </section>

      <section className="mt-8 space-y-3">
        <h2 className="text-lg font-semibold">{t('docs.add_key_title')}</h2>
        <ol className="list-decimal space-y-1 ps-6 text-sm text-slate-700 dark:text-slate-300">
          <li>{t('docs.add_key_1')}</li>
          <li>{t('docs.add_key_2')}</li>
          <li>{t('docs.add_key_3')}</li>
        </ol>
      </section>

      <section className="mt-8 space-y-3">
        <h2 className="text-lg font-semibold">{t('docs.add_language_title')}</h2>
        <ol className="list-decimal space-y-1 ps-6 text-sm text-slate-700 dark:text-slate-300">
          <li>{t('docs.add_language_1')}</li>
          <li>{t('docs.add_language_2')}</li>
          <li>{t('docs.add_language_3')}</li>
          <li>{t('docs.add_language_4')}</li>
        </ol>
      </section>
    </article>
  )
}
