import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { useFormat } from '../../i18n/useFormat'
import { DropdownMenu, menuItemClass, toolbarButtonClass } from '../DropdownMenu'
import { LanguageItems } from './LanguageItems'
import { FONT_SCALES, modeOf } from '../settings/settings'
import { setFontScale, setMode, useSettings } from '../settings/store'

const groupLabel = 'px-3 pt-2 pb-1 text-xs font-semibold text-th-muted uppercase'

/**
 * On a phone the toolbar keeps its main buttons and folds the rest — the language, the text
 * size and light or dark — into this menu, so that nothing (the user menu least of all) is
 * pushed off a 360 px screen.
 */
export function MoreMenu() {
  const { t } = useTranslation()
  const format = useFormat()
  const settings = useSettings()
  const isDark = modeOf(settings.theme.main) === 'dark'
  const step = FONT_SCALES.indexOf(settings.fontScale as (typeof FONT_SCALES)[number])
  return (
    <DropdownMenu label={t('toolbar.more')} buttonClassName={toolbarButtonClass} button={<Icon name="dotsVertical" className="size-5" />} menuClassName="w-56">
      {(close) => (
        <>
          <p className={groupLabel} aria-hidden="true">
            {t('toolbar.language')}
          </p>
          <LanguageItems close={close} />
          <div role="separator" className="my-1 border-t border-th-border" />
          <p className={groupLabel} aria-hidden="true">
            {t('toolbar.font_size')} · {format.percent(settings.fontScale)}
          </p>
          <button type="button" role="menuitem" className={menuItemClass} disabled={step <= 0} onClick={() => setFontScale(FONT_SCALES[step - 1] ?? settings.fontScale)}>
            <Icon name="textSize" className="size-4" />
            {t('toolbar.text_smaller')}
          </button>
          <button type="button" role="menuitem" className={menuItemClass} disabled={step >= FONT_SCALES.length - 1} onClick={() => setFontScale(FONT_SCALES[step + 1] ?? settings.fontScale)}>
            <Icon name="textSize" className="size-5" />
            {t('toolbar.text_larger')}
          </button>
          <div role="separator" className="my-1 border-t border-th-border" />
          <button
            type="button"
            role="menuitem"
            className={menuItemClass}
            onClick={() => {
              close()
              setMode(isDark ? 'light' : 'dark')
            }}
          >
            <Icon name={isDark ? 'sun' : 'moon'} className="size-4" />
            {t(isDark ? 'toolbar.switch_to_light' : 'toolbar.switch_to_dark')}
          </button>
        </>
      )}
    </DropdownMenu>
  )
}
