import { useEffect, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../ui/icons'
import type { WidgetProps } from './types'

/**
 * File and image fields: shows the stored file, lets the user choose a new one. A chosen
 * File makes the form send multipart (see `toPayload`).
 */
export function FileInput({ id, name, field, value, onChange, onBlur, isInvalid, describedBy, label }: WidgetProps) {
  const { t } = useTranslation()
  const isImage = field.widget === 'image'
  const chosen = value instanceof File ? value : null
  const stored = typeof value === 'string' && value !== '' ? value : null
  const preview = useMemo(() => (chosen && isImage && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(chosen) : null), [chosen, isImage])
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview)
  }, [preview])
  const shown = preview ?? stored

  return (
    <div className="flex items-center gap-4">
      {isImage && (
        <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-800">
          {shown ? <img src={shown} alt="" className="size-full object-cover" /> : <Icon name="document" className="size-6 text-slate-300" />}
        </div>
      )}
      <div className="min-w-0 flex-1 space-y-1.5">
        <label
          className={`inline-flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-within:ring-3 focus-within:ring-indigo-500/20 dark:text-slate-200 dark:hover:bg-slate-800 ${isInvalid ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'}`}
        >
          <Icon name="document" className="size-4" />
          {t('form.choose_file')}
          <input
            id={id}
            name={name}
            type="file"
            className="sr-only"
            accept={field.accept?.join(',')}
            aria-label={label}
            aria-invalid={isInvalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) onChange(file)
            }}
            onBlur={onBlur}
          />
        </label>
        <p className="truncate text-xs text-slate-500 dark:text-slate-400">
          {chosen ? (
            t('form.new_file', { name: chosen.name })
          ) : stored ? (
            <>
              {t('form.current_file')}:{' '}
              <a href={stored} target="_blank" rel="noreferrer" className="text-indigo-600 hover:underline dark:text-indigo-400" dir="ltr">
                {stored.split('/').pop()}
              </a>
            </>
          ) : null}
        </p>
      </div>
    </div>
  )
}
