import { lazy, Suspense, useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { setOpenPanel, togglePanel, useOpenPanel } from './panel-state'

// Each panel loads the first time it opens: the shell carries only the buttons.
const QuickPanel = lazy(() => import('./QuickPanel').then((m) => ({ default: m.QuickPanel })))
const ThemeSettingsPanel = lazy(() => import('./ThemeSettingsPanel').then((m) => ({ default: m.ThemeSettingsPanel })))
const ColourSchemesPanel = lazy(() => import('./ColourSchemesPanel').then((m) => ({ default: m.ColourSchemesPanel })))

/** The two floating buttons at the end edge (spec §2): theme settings and colour schemes. */
export function FloatingButtons() {
  const { t } = useTranslation()
  const button =
    'flex size-10 items-center justify-center bg-indigo-600 text-white shadow-lg hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600'
  return (
    <div className="fixed end-0 top-1/2 z-40 flex -translate-y-1/2 flex-col overflow-hidden rounded-s-lg">
      <button type="button" className={button} onClick={() => togglePanel('settings')} aria-label={t('settings.title')} title={t('settings.title')}>
        <Icon name="cog" className="size-5 motion-safe:animate-[spin_6s_linear_infinite]" />
      </button>
      <button type="button" className={`${button} border-t border-white/20`} onClick={() => togglePanel('schemes')} aria-label={t('schemes.title')} title={t('schemes.title')}>
        <Icon name="swatch" className="size-5" />
      </button>
    </div>
  )
}

export function OpenPanel() {
  const open = useOpenPanel()
  const close = useCallback(() => setOpenPanel(null), [])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      {open === 'quick' && <QuickPanel onClose={close} />}
      {open === 'settings' && <ThemeSettingsPanel onClose={close} />}
      {open === 'schemes' && <ColourSchemesPanel onClose={close} />}
    </Suspense>
  )
}

export function QuickPanelToggle({ className }: { className: string }) {
  const { t } = useTranslation()
  const open = useOpenPanel()
  return (
    <button type="button" className={className} onClick={() => togglePanel('quick')} aria-label={t('quick_panel.toggle')} aria-expanded={open === 'quick'}>
      <Icon name="bell" className="size-5" />
    </button>
  )
}
