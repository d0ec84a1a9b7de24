import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { useFormat } from '../../i18n/useFormat'
import { DropdownMenu, menuItemClass, toolbarButtonClass } from '../DropdownMenu'
import { FONT_SCALES } from '../settings/settings'
import { setFontScale, useSettings } from '../settings/store'

/** Font size 70 %–130 % in steps of 10 % (spec §9), saved with the settings. */
export function FontSizeMenu() {
  const { t } = useTranslation()
  const format = useFormat()
  const { fontScale } = useSettings()
  return (
    <DropdownMenu label={t('toolbar.font_size')} buttonClassName={toolbarButtonClass} button={<Icon name="textSize" className="size-5" />} menuClassName="min-w-36">
      {(close) =>
        FONT_SCALES.map((scale) => (
          <button
            key={scale}
            type="button"
            role="menuitemradio"
            aria-checked={scale === fontScale}
            className={menuItemClass}
            onClick={() => {
              close()
              setFontScale(scale)
            }}
          >
            <span className="flex-1">{format.percent(scale)}</span>
            {scale === fontScale && <Icon name="check" className="size-4 text-th-accent-text" />}
          </button>
        ))
      }
    </DropdownMenu>
  )
}
