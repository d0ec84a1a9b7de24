import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { palettes, type Mode, type ThemeId } from '../settings/settings'
import { isDefaultColours, setColourScheme, setDefaultColours, useSettings } from '../settings/store'
import { Drawer } from './Drawer'

/**
 * The colour schemes panel (spec §2): every palette in its light and dark variant;
 * choosing one sets the main, navbar, toolbar and footer themes to it.
 */
function Swatch({ theme, isActive, label }: { theme: ThemeId; isActive: boolean; label: string }) {
  return (
    <button
      type="button"
      onClick={() => setColourScheme(theme)}
      aria-pressed={isActive}
      aria-label={label}
      data-theme={theme}
      className={`group overflow-hidden rounded-lg border-2 text-start ${isActive ? 'border-indigo-600' : 'border-transparent'} focus-visible:outline-2 focus-visible:outline-indigo-500`}
    >
      <span className="flex h-16 bg-th-page" aria-hidden="true">
        <span className="w-5 bg-th-bg" />
        <span className="flex flex-1 flex-col gap-1 p-1.5">
          <span className="h-2 rounded-sm bg-th-paper" />
          <span className="h-2 w-2/3 rounded-sm bg-th-accent" />
          <span className="h-2 w-1/2 rounded-sm bg-th-accent-soft" />
        </span>
      </span>
      <span className="flex items-center justify-between gap-1 bg-th-bg px-2 py-1 text-xs text-th-fg">
        <span className="truncate">{label}</span>
        {isActive && <Icon name="check" className="size-3.5 shrink-0" />}
      </span>
    </button>
  )
}

export function ColourSchemesPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const { theme } = useSettings()
  const modes: Mode[] = ['light', 'dark']
  return (
    <Drawer title={t('schemes.title')} onClose={onClose} testId="colour-schemes">
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">{t('schemes.help')}</p>
      {/* The way back: the look the app starts with (a dark navbar beside a light page), in the mode chosen. */}
      <button
        type="button"
        onClick={setDefaultColours}
        aria-pressed={isDefaultColours(theme)}
        className={`mb-6 flex w-full items-center justify-between gap-2 rounded-lg border-2 px-3 py-2 text-sm font-medium ${isDefaultColours(theme) ? 'border-indigo-600' : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800'} focus-visible:outline-2 focus-visible:outline-indigo-500`}
      >
        {t('schemes.default_look')}
        {isDefaultColours(theme) && <Icon name="check" className="size-4 shrink-0" />}
      </button>
      {modes.map((mode) => (
        <section key={mode} className="mb-6">
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">{t(`settings.mode_${mode}`)}</h3>
          <div className="grid grid-cols-2 gap-3">
            {palettes.map((palette) => {
              const id: ThemeId = `${palette}-${mode}`
              const isActive = theme.main === id && theme.navbar === id && theme.toolbar === id && theme.footer === id
              return <Swatch key={id} theme={id} isActive={isActive} label={t('schemes.scheme', { palette: t(`schemes.palette_${palette}`), mode: t(`settings.mode_${mode}`) })} />
            })}
          </div>
        </section>
      ))}
    </Drawer>
  )
}
