import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { Icon } from '../../engine/ui/icons'
import { currentLanguage } from '../../i18n'
import { DropdownMenu, menuItemClass, toolbarButtonClass } from '../DropdownMenu'
import { LanguageItems } from './LanguageItems'

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
          <LanguageItems close={close} showCode />
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
