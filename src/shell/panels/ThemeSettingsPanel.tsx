import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import {
  CONTAINER_WIDTHS,
  layoutStyles,
  modeOf,
  navbarStyles,
  type BarPosition,
  type BarStyle,
  type LayoutConfig,
  type Settings,
  type Side,
} from '../settings/settings'
import { setConfig, setDirection, setLayoutStyle, setMode, updateSettings, useSettings } from '../settings/store'
import { Drawer } from './Drawer'

/**
 * The theme settings panel (spec §2): layout style; navbar, toolbar and footer display,
 * style and position; side panels; mode; container width; direction. Every change
 * applies at once and is saved 300 ms after the last one.
 */
function Choice<T extends string | number>({ legend, value, options, onChange, labelOf }: { legend: string; value: T; options: readonly T[]; onChange: (v: T) => void; labelOf: (v: T) => string }) {
  const name = useId()
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-300">{legend}</legend>
      <div className="flex flex-wrap gap-1.5">
        {options.map((option) => (
          <label
            key={option}
            className="cursor-pointer rounded-md border border-slate-300 px-2.5 py-1.5 text-sm has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-indigo-500 dark:border-slate-700"
          >
            <input type="radio" name={name} className="sr-only" checked={option === value} onChange={() => onChange(option)} />
            {labelOf(option)}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

function Switch({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex cursor-pointer items-center justify-between gap-3 text-sm">
      <span>{label}</span>
      <input type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} className="size-4 accent-indigo-600" />
    </label>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3 border-b border-slate-200 pb-5 last:border-0 dark:border-slate-800">
      <h3 className="text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">{title}</h3>
      {children}
    </section>
  )
}

type Bar = 'toolbar' | 'footer'

function setPart<K extends 'navbar' | Bar | 'leftSidePanel' | 'rightSidePanel'>(settings: Settings, key: K, patch: Partial<LayoutConfig[K]>) {
  setConfig(key, { ...settings.layout.config[key], ...patch })
}

export function ThemeSettingsPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const format = useFormat()
  const settings = useSettings()
  const { config, style } = settings.layout
  const isLayout1 = style === 'layout1'
  const sides: Side[] = ['start', 'end']
  const barStyles: BarStyle[] = ['fixed', 'static']
  const positions: BarPosition[] = ['above', 'below']

  const barSection = (bar: Bar) => (
    <Section title={t(`settings.${bar}`)}>
      <Switch label={t('settings.display')} checked={config[bar].display} onChange={(display) => setPart(settings, bar, { display })} />
      <Choice legend={t('settings.style')} value={config[bar].style} options={barStyles} onChange={(v) => setPart(settings, bar, { style: v })} labelOf={(v) => t(`settings.bar_${v}`)} />
      {isLayout1 && (
        <Choice legend={t('settings.position')} value={config[bar].position} options={positions} onChange={(v) => setPart(settings, bar, { position: v })} labelOf={(v) => t(`settings.position_${v}`)} />
      )}
    </Section>
  )

  return (
    <Drawer title={t('settings.title')} onClose={onClose} testId="theme-settings">
      <div className="space-y-5">
        <Section title={t('settings.layout')}>
          <Choice legend={t('settings.layout_style')} value={style} options={layoutStyles} onChange={setLayoutStyle} labelOf={(v) => t(`settings.${v}`)} />
          <Choice legend={t('settings.container_width')} value={config.containerWidth} options={CONTAINER_WIDTHS} onChange={(v) => setConfig('containerWidth', v)} labelOf={(v) => `${format.integer(v)} px`} />
        </Section>
        <Section title={t('settings.navbar')}>
          <Switch label={t('settings.display')} checked={config.navbar.display} onChange={(display) => setPart(settings, 'navbar', { display })} />
          {isLayout1 && (
            <>
              <Choice legend={t('settings.style')} value={config.navbar.style} options={navbarStyles} onChange={(v) => setPart(settings, 'navbar', { style: v })} labelOf={(v) => t(`settings.navbar_${v}`)} />
              <Choice legend={t('settings.position')} value={config.navbar.position} options={sides} onChange={(v) => setPart(settings, 'navbar', { position: v })} labelOf={(v) => t(`settings.side_${v}`)} />
              {config.navbar.style === 'style-2' && <Switch label={t('settings.folded')} checked={config.navbar.folded} onChange={(folded) => setPart(settings, 'navbar', { folded })} />}
            </>
          )}
        </Section>
        {barSection('toolbar')}
        {barSection('footer')}
        <Section title={t('settings.side_panels')}>
          <Switch label={t('settings.left_side_panel')} checked={config.leftSidePanel.display} onChange={(display) => setPart(settings, 'leftSidePanel', { display })} />
          <Switch label={t('settings.right_side_panel')} checked={config.rightSidePanel.display} onChange={(display) => setPart(settings, 'rightSidePanel', { display })} />
        </Section>
        <Section title={t('settings.appearance')}>
          <Choice legend={t('settings.mode')} value={modeOf(settings.theme.main)} options={['light', 'dark'] as const} onChange={setMode} labelOf={(v) => t(`settings.mode_${v}`)} />
          <Choice legend={t('settings.direction')} value={settings.direction} options={['ltr', 'rtl'] as const} onChange={setDirection} labelOf={(v) => t(`settings.direction_${v}`)} />
          <Switch label={t('settings.custom_scrollbars')} checked={settings.customScrollbars} onChange={(customScrollbars) => updateSettings((s) => ({ ...s, customScrollbars }))} />
        </Section>
      </div>
    </Drawer>
  )
}
