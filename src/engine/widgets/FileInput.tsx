import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { imageTypeOfFile } from '../file-bytes'
import { Icon } from '../ui/icons'
import type { WidgetProps } from './types'

/**
 * File and image fields: shows the stored file, lets the user choose a new one. A chosen
 * File makes the form send multipart (see `toPayload`). An image field takes a file that is
 * a picture by its bytes, as the server judges it: anything else is refused as it is chosen.
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
  const [refused, setRefused] = useState<string | null>(null)

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
              const input = e.target
              const file = input.files?.[0]
              if (!file) return
              if (!isImage) return onChange(file)
              void imageTypeOfFile(file).then((type) => {
                const accepted: readonly string[] | undefined = field.accept
                const isAccepted = type !== null && (accepted === undefined || accepted.includes(type))
                setRefused(isAccepted ? null : t('gallery.not_image', { name: file.name }))
                if (isAccepted) onChange(file)
                // The same file may be chosen again once it is fixed.
                else input.value = ''
              })
            }}
            onBlur={onBlur}
          />
        </label>
        {refused && (
          <p role="alert" className="text-xs text-red-600 dark:text-red-400">
            {refused}
          </p>
        )}
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
