import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { toolbarButtonClass } from '../DropdownMenu'
import { modeOf } from '../settings/settings'
import { setMode, useSettings } from '../settings/store'

/** Light or dark in one click: the main theme's other variant (the settings panel has it too). */
export function ModeToggle() {
  const { t } = useTranslation()
  const isDark = modeOf(useSettings().theme.main) === 'dark'
  return (
    <button type="button" onClick={() => setMode(isDark ? 'light' : 'dark')} className={toolbarButtonClass} aria-label={t(isDark ? 'toolbar.switch_to_light' : 'toolbar.switch_to_dark')}>
      <Icon name={isDark ? 'sun' : 'moon'} className="size-5" />
    </button>
  )
}
