/** Fixed routes of the shell (spec §2). Entity routes come from the registry. */
export const paths = {
  login: '/login',
  register: '/register',
  profile: '/pages/profile',
  inbox: '/apps/mail',
  dashboard: '/apps/dashboards/project',
  analytics: '/apps/dashboards/analytics',
  error404: '/pages/errors/error-404',
  forgotPassword: '/pages/auth/forgot-password-2',
  /** The mailed link of a password reset: `?token=…` (server/domain/identity/password-reset.ts). */
  resetPassword: '/reset-password',
  example: '/example',
  multiLanguageDocs: '/documentation/configuration/multi-language',
  /** `/{searchText}` follows (spec §2, §5). */
  passengerSearch: '/apps/passenger/search',
} as const

/**
 * The API reads every signed-in page starts with: the server names them in the page so
 * that they start with its HTML (server/http/app-page.ts).
 */
export const startPaths = {
  /** Sign-in with the stored token (spec §4, §7): the server answers `{user, access_token}`. */
  accessToken: '/api/auth/access-token',
  /** The site's first general setting: its title and favicon. */
  siteSettings: '/general_setting/api/v1/general_setting/all/',
  /** The sidebar of the caller's role (api-contract §3.4). */
  userMenu: '/menu_item/api/v1/menu_item/nested_menu_item_by_user_role/',
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
