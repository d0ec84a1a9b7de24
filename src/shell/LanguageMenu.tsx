import { useTranslation } from 'react-i18next'
import { Icon } from '../engine/ui/icons'
import { changeLanguage, currentLanguage, languages } from '../i18n'
import { DropdownMenu, menuItemClass } from './DropdownMenu'

/** The toolbar's language menu: en, tr, ar (ar turns the layout right to left). */
export function LanguageMenu() {
  const { t } = useTranslation()
  const active = currentLanguage()
  return (
    <DropdownMenu
      label={t('toolbar.language')}
      buttonClassName="flex items-center gap-1.5 rounded-md px-2.5 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 data-open:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 dark:data-open:bg-slate-800"
      button={
        <>
          <Icon name="language" className="size-5" />
          <span className="uppercase">{active}</span>
        </>
      }
    >
      {(close) =>
        languages.map((lng) => (
          <button
            key={lng}
            type="button"
            role="menuitemradio"
            aria-checked={lng === active}
            lang={lng}
            className={menuItemClass}
            onClick={() => {
              close()
              void changeLanguage(lng)
            }}
          >
            <span className="w-6 text-xs font-semibold uppercase text-slate-400">{lng}</span>
            <span className="flex-1">{t(`language.${lng}`)}</span>
            {lng === active && <Icon name="check" className="size-4 text-indigo-600 dark:text-indigo-400" />}
          </button>
        ))
      }
    </DropdownMenu>
  )
}
