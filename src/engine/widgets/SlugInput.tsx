import { useEffect, useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { slugify } from '../../../schema/kit/slug'
import { borderClass, inputClass, type WidgetProps } from './types'

/**
 * A slug (`f.slug({ from: 'name' })`): made from its source field as that is typed, with the
 * server's own function, for as long as the person has not written one of their own — the
 * slug is blank, or still the one made here. A stored record's slug is not one made here: its
 * address stays as it is unless the slug is cleared. What is typed into it becomes a slug when
 * the field is left (`Summer Trip` → `summer-trip`), and a blank one shows the slug the server
 * will make.
 */
const asText = (value: unknown) => (typeof value === 'string' ? value : '')

export function SlugInput({ id, name, field, value, onChange, onBlur, isInvalid, describedBy, source }: WidgetProps) {
  const { t } = useTranslation()
  const hintId = useId()
  const text = asText(value)
  const sourceText = asText(source)
  const latest = useRef({ text, onChange })
  latest.current = { text, onChange }
  /** The slug this input last made from the source; one the person wrote differs from it. */
  const made = useRef<string | null>(null)
  // After the source's change is rendered (never in the middle of its input event, which
  // would put the source's old value back): the slug follows it while it is blank or made here.
  useEffect(() => {
    const { text, onChange } = latest.current
    if (text !== '' && text !== made.current) return
    const next = slugify(sourceText, field.maxLength)
    made.current = next
    if (next !== text) onChange(next)
  }, [sourceText, field.maxLength])
  const preview = sourceText ? slugify(sourceText, field.maxLength) : ''

  return (
    <div>
      <input
        id={id}
        name={name}
        type="text"
        dir="ltr"
        value={text}
        placeholder={preview || undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={(e) => {
          const tidy = slugify(e.target.value, field.maxLength)
          if (tidy !== e.target.value) onChange(tidy)
          onBlur()
        }}
        aria-invalid={isInvalid || undefined}
        aria-describedby={[describedBy, field.slugFrom ? hintId : undefined].filter(Boolean).join(' ') || undefined}
        aria-required={field.isRequired || undefined}
        autoComplete="off"
        spellCheck={false}
        className={`${inputClass} ${borderClass(isInvalid)} text-start`}
      />
      {field.slugFrom && (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {t('slug.hint')}
        </p>
      )}
    </div>
  )
}
