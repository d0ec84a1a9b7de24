import { startPaths } from '../app/paths'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useAccess } from '../auth/useAccess'
import { apiRequest } from '../engine/api'
import { navigationEntries } from '../../schema/navigation'
import { useEntities, useReports } from '../engine/entities-context'
import { adaptMenu, filterNavigation, pageItems, personalItems, registryNavigation, type MenuItemNode, type NavigationItem } from './navigation'

/** The sidebar of the caller's role (api-contract §3.4). */
export const USER_MENU_PATH = startPaths.userMenu

export const navigationKey = ['navigation'] as const

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

async function fetchUserMenu(signal: AbortSignal): Promise<MenuItemNode[]> {
  const body = await apiRequest(USER_MENU_PATH, { signal })
  if (!isRecord(body) || !Array.isArray(body.menu_items)) throw new Error('Unexpected answer for the menu')
  return body.menu_items as MenuItemNode[]
}

/**
 * The signed-in user's navigation: their role's menu filtered by their permissions, then
 * the shell's pages. Nothing but those pages while the menu loads; the registry's
 * navigation (its entities' and reports' entries, filtered the same way) when the menu
 * cannot be read.
 */
export function useNavigation(): NavigationItem[] {
  const entities = useEntities()
  const reports = useReports()
  const access = useAccess()
  const menu = useQuery({
    queryKey: [...navigationKey, access.user?.id ?? null],
    queryFn: ({ signal }) => fetchUserMenu(signal),
    staleTime: 5 * 60_000,
  })
  const { data, isError } = menu
  return useMemo(() => {
    const rights = { entities, reports, can: access.can }
    if (data) {
      const menu = filterNavigation(adaptMenu(data), rights)
      return [...(menu.some((item) => item.type !== 'divider') ? menu : personalItems(navigationEntries(entities, reports))), ...pageItems()]
    }
    if (isError) return filterNavigation(registryNavigation(navigationEntries(entities, reports)), rights)
    return pageItems()
  }, [data, isError, entities, reports, access])
}
