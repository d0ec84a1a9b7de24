import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { readsLeftToRight, type Widget } from '../../../schema/kit'
import { Icon } from '../ui/icons'
import { borderClass, inputClass, type WidgetProps } from './types'

/**
 * Inputs whose value is plain text in the form. None has a `maxLength`: the browser would
 * cut a pasted value silently; the registry's rule says it is too long instead.
 */
const inputTypes: Partial<Record<Widget, { type: string; inputMode?: 'decimal' | 'numeric' | 'tel' | 'email' | 'url'; isLtr?: boolean; step?: string }>> = {
  text: { type: 'text' },
  email: { type: 'email', inputMode: 'email', isLtr: true },
  phone: { type: 'tel', inputMode: 'tel', isLtr: true },
  url: { type: 'url', inputMode: 'url', isLtr: true },
  number: { type: 'number', inputMode: 'numeric', step: '1', isLtr: true },
  decimal: { type: 'text', inputMode: 'decimal', isLtr: true },
  money: { type: 'text', inputMode: 'decimal', isLtr: true },
  date: { type: 'date' },
  datetime: { type: 'datetime-local' },
  password: { type: 'password', isLtr: true },
}

export function hasTextInput(widget: Widget): boolean {
  return widget in inputTypes
}

const asText = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')

export function TextInput({ id, name, field, value, onChange, onBlur, isInvalid, describedBy }: WidgetProps) {
  const spec = inputTypes[field.widget] ?? { type: 'text' }
  const isMoney = field.widget === 'money'
  const isLtr = spec.isLtr || readsLeftToRight(field)
  return (
    <div className="relative">
      <input
        id={id}
        name={name}
        type={spec.type}
        inputMode={spec.inputMode}
        step={spec.step}
        dir={isLtr ? 'ltr' : undefined}
        value={asText(value)}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        aria-invalid={isInvalid || undefined}
        aria-describedby={describedBy}
        aria-required={field.isRequired || undefined}
        autoComplete={spec.type === 'password' ? 'new-password' : field.format === 'postal_code' ? 'postal-code' : 'off'}
        className={`${inputClass} ${borderClass(isInvalid)} ${isMoney || field.widget === 'decimal' || field.widget === 'number' ? 'text-end tabular-nums' : ''} ${isLtr ? 'text-start' : ''}`}
      />
    </div>
  )
}

/**
 * A password (write-only): masked, with a button that shows it. It reads left to right in
 * every language and the browser is asked not to fill in the user's own password.
 */
export function PasswordInput({ id, name, field, value, onChange, onBlur, isInvalid, describedBy }: WidgetProps) {
  const { t } = useTranslation()
  const [isShown, setIsShown] = useState(false)
  return (
    <div className="relative" dir="ltr">
      <input
        id={id}
        name={name}
        type={isShown ? 'text' : 'password'}
        dir="ltr"
        value={asText(value)}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        aria-invalid={isInvalid || undefined}
        aria-describedby={describedBy}
        aria-required={field.isRequired || undefined}
        autoComplete="new-password"
        className={`${inputClass} ${borderClass(isInvalid)} pe-10 text-start`}
      />
      <button
        type="button"
        onClick={() => setIsShown((v) => !v)}
        className="absolute inset-y-0 end-0 flex items-center px-3 text-slate-400 hover:text-slate-600 dark:hover:text-slate-200"
        aria-label={t(isShown ? 'auth.hide_password' : 'auth.show_password')}
        aria-pressed={isShown}
      >
        <Icon name={isShown ? 'eyeSlash' : 'eye'} className="size-4.5" />
      </button>
    </div>
  )
}

export function TextArea({ id, name, field, value, onChange, onBlur, isInvalid, describedBy }: WidgetProps) {
  const isJson = field.widget === 'json'
  return (
    <textarea
      id={id}
      name={name}
      rows={isJson ? 8 : 4}
      dir={isJson ? 'ltr' : undefined}
      value={asText(value)}
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
      aria-invalid={isInvalid || undefined}
      aria-describedby={describedBy}
      aria-required={field.isRequired || undefined}
      spellCheck={!isJson}
      className={`${inputClass} ${borderClass(isInvalid)} ${isJson ? 'font-mono text-xs' : ''}`}
    />
  )
}

export function Checkbox({ id, name, value, onChange, onBlur, describedBy, label }: WidgetProps) {
  return (
    <label htmlFor={id} className="inline-flex cursor-pointer items-center gap-3 py-1.5">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={onBlur}
        aria-describedby={describedBy}
        className="size-4 rounded border-slate-300 accent-indigo-600 dark:border-slate-600"
      />
      <span className="text-sm text-slate-700 dark:text-slate-200">{label}</span>
    </label>
  )
}

export function Select({ id, name, field, value, onChange, onBlur, isInvalid, describedBy }: WidgetProps) {
  const { t } = useTranslation()
  return (
    <select
      id={id}
      name={name}
      value={asText(value)}
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
      aria-invalid={isInvalid || undefined}
      aria-describedby={describedBy}
      aria-required={field.isRequired || undefined}
      className={`${inputClass} ${borderClass(isInvalid)} pe-8`}
    >
      <option value="">{t('form.select')}</option>
      {field.options?.map((option) => (
        <option key={option} value={option}>
          {t(`option.${option}`, { defaultValue: option })}
        </option>
      ))}
    </select>
  )
}
