import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../../engine/api'
import type { AnyEntity } from '../../engine/entity-api'
import { entityKeys } from '../../engine/queries'
import type { MenuItemNode } from '../../shell/navigation'

/** The menu item routes beyond the generic ones (api-contract §3.4). */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function menuOf(body: unknown): MenuItemNode[] {
  if (!isRecord(body) || !Array.isArray(body.menu_items)) throw new Error('Unexpected answer for a menu')
  return body.menu_items as MenuItemNode[]
}

/** Every menu item as a tree (`nested_menu_item_without_pagination/all/`). */
export function useMenuTree(menuItem: AnyEntity | undefined) {
  return useQuery({
    // Not `tree`: the parent picker (TreeRefSelect) keeps the menu's flat rows under that key.
    queryKey: [...entityKeys.all(menuItem?.name ?? 'menu_item'), 'nested'],
    queryFn: async ({ signal }) => menuOf(await apiRequest(`${menuItem!.api.base}/nested_menu_item_without_pagination/all/`, { signal })),
    enabled: menuItem !== undefined,
  })
}
