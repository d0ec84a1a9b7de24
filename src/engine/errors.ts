import { isApiError, NETWORK_ERROR_STATUS } from './api'

type Translate = (key: string, params?: Record<string, string | number>) => string

/** The text to show for a failed call: the server's `detail` when it gave one. */
export function errorText(t: Translate, error: unknown): string {
  if (isApiError(error)) {
    if (error.detail && error.status !== NETWORK_ERROR_STATUS) return error.detail
    if (error.status === NETWORK_ERROR_STATUS) return t('common.network_error')
    if (error.status === 403) return t('common.forbidden')
    if (error.fieldErrors) return Object.values(error.fieldErrors).flat().join(' ')
  }
  return t('common.unknown_error')
}
