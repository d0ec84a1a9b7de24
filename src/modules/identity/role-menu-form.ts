import type { FormExtension } from '../../engine/form/extension'
import { MenuItemsTree } from './MenuItemsTree'

/** The role menu form: its lines ticked in the menu's own tree (the engine's tree of ticks, with the menu's words and order). */
export const roleMenuFormExtension: FormExtension = {
  widgets: { menu_items: MenuItemsTree },
}
