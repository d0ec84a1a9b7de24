import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { Icon } from '../../engine/ui/icons'
import { changeLanguage, currentLanguage, directionOf, languages } from '../../i18n'
import { DropdownMenu, menuItemClass, toolbarButtonClass } from '../DropdownMenu'

/** The language menu (spec §2): en, tr, ar — the direction follows — and Learn More. */
export function LanguageMenu() {
  const { t } = useTranslation()
  const active = currentLanguage()
  return (
    <DropdownMenu
      label={t('toolbar.language')}
      isNamedByContent
      buttonClassName={`${toolbarButtonClass} px-2.5 text-sm font-medium`}
      button={
        <>
          <Icon name="language" className="size-5" />
          <span className="sr-only">{t('toolbar.language')}</span>
          <span className="uppercase">{active}</span>
        </>
      }
    >
      {(close) => (
        <>
          {languages.map((lng) => (
            <button
              key={lng}
              type="button"
              role="menuitemradio"
              aria-checked={lng === active}
              className={menuItemClass}
              onClick={() => {
                close()
                void changeLanguage(lng)
              }}
            >
              <span className="w-6 text-xs font-semibold uppercase text-th-muted">{lng}</span>
              <span className="flex-1 text-start">
                <bdi lang={lng} dir={directionOf(lng)}>
                  {t(`language.${lng}`)}
                </bdi>
              </span>
              {lng === active && <Icon name="check" className="size-4 text-th-accent-text" />}
            </button>
          ))}
          <div role="separator" className="my-1 border-t border-th-border" />
          <Link to={paths.multiLanguageDocs} role="menuitem" className={menuItemClass} onClick={() => close()}>
            <Icon name="info" className="size-4" />
            {t('toolbar.learn_more')}
          </Link>
        </>
      )}
    </DropdownMenu>
  )
}
