import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { changeLanguage, currentLanguage, directionOf, languages } from '../../i18n'
import { menuItemClass } from '../DropdownMenu'

/**
 * The languages as radio items of a menu (the toolbar's language menu, the phone's More
 * menu). Each item follows the menu's side; each name keeps its own language and direction,
 * isolated, so "English" reads right in an Arabic menu and "العربية" in an English one.
 */
export function LanguageItems({ close, showCode = false }: { close: () => void; showCode?: boolean }) {
  const { t } = useTranslation()
  const active = currentLanguage()
  return languages.map((lng) => (
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
      {showCode && <span className="w-6 text-xs font-semibold uppercase text-th-muted">{lng}</span>}
      <span className="flex-1 text-start">
        <bdi lang={lng} dir={directionOf(lng)}>
          {t(`language.${lng}`)}
        </bdi>
      </span>
      {lng === active && <Icon name="check" className="size-4 text-th-accent-text" />}
    </button>
  ))
}
