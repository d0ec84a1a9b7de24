/** Fixed routes of the shell (spec §2). Entity routes come from the registry. */
export const paths = {
  login: '/login',
  register: '/register',
  profile: '/pages/profile',
  inbox: '/apps/mail',
  dashboard: '/apps/dashboards/project',
  error404: '/pages/errors/error-404',
  forgotPassword: '/pages/auth/forgot-password-2',
  /** The mailed link of a password reset: `?token=…` (server/domain/identity/password-reset.ts). */
  resetPassword: '/reset-password',
  example: '/example',
  multiLanguageDocs: '/documentation/configuration/multi-language',
  /** `/{searchText}` follows (spec §2, §5). */
  passengerSearch: '/apps/passenger/search',
} as const

/** Session storage key of the toolbar search text (spec §3). */
export const PASSENGER_SEARCH_KEY = 'passenger_search_key'

/**
 * The page to return to after sign-in: only a path of this site, never the login page
 * itself, so a crafted link cannot send the user elsewhere.
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined
  if (value === paths.login || value.startsWith(`${paths.login}?`)) return undefined
  return value
}
