import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { borderClass, inputClass, type WidgetProps } from './types'

/** TipTap and the editor load with the first form that has formatted text, in a chunk of their own. */
const RichTextInput = lazy(() => import('./RichTextInput'))

export function LazyRichTextInput(props: WidgetProps) {
  return (
    <Suspense fallback={<RichTextLoading {...props} />}>
      <RichTextInput {...props} />
    </Suspense>
  )
}

/** While the editor loads: a textarea of the editor's height in its place, named by the field's label, not yet open to typing. */
function RichTextLoading({ id, isInvalid, describedBy }: WidgetProps) {
  const { t } = useTranslation()
  return (
    <textarea
      id={id}
      disabled
      aria-busy="true"
      aria-describedby={describedBy}
      rows={9}
      placeholder={t('richtext.loading')}
      className={`${inputClass} ${borderClass(isInvalid)} resize-none`}
    />
  )
}
