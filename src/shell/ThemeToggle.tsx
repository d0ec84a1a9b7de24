import { useTranslation } from 'react-i18next'
import { Icon } from '../engine/ui/icons'
import { setTheme, useTheme } from './theme'

export function ThemeToggle() {
  const { t } = useTranslation()
  const theme = useTheme()
  const isDark = theme === 'dark'
  return (
    <button
      type="button"
      onClick={() => setTheme(isDark ? 'light' : 'dark')}
      className="rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-700 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-200"
      aria-label={t(isDark ? 'toolbar.switch_to_light' : 'toolbar.switch_to_dark')}
      title={t(isDark ? 'toolbar.light_mode' : 'toolbar.dark_mode')}
    >
      <Icon name={isDark ? 'sun' : 'moon'} className="size-5" />
    </button>
  )
}
