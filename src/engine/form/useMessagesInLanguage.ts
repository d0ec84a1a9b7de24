import { useEffect } from 'react'
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'

/**
 * Messages are rendered when a field is judged; after a language switch, judges the shown
 * ones again so they read in the new language (the server's own messages stay as they came).
 */
export function useMessagesInLanguage<V extends FieldValues>(form: Pick<UseFormReturn<V>, 'trigger' | 'getFieldState'>, fieldNames: readonly string[]): void {
  const { i18n } = useTranslation()
  const language = i18n.resolvedLanguage
  const { trigger, getFieldState } = form
  useEffect(() => {
    const shown = fieldNames.filter((name) => {
      const error = getFieldState(name as Path<V>).error
      return error !== undefined && error.type !== 'server'
    })
    if (shown.length > 0) void trigger(shown as Path<V>[])
  }, [language, fieldNames, trigger, getFieldState])
}
