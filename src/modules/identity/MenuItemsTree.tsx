import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { CheckNode } from '../../engine/check-tree'
import { useEntity } from '../../engine/entities-context'
import { CheckTreeInput } from '../../engine/form/LinesCheckTree'
import type { WidgetProps } from '../../engine/widgets/types'
import { labelOf, type MenuItemNode } from '../../shell/navigation'
import { useMenuTree } from './menu-api'

/**
 * A role's menu items ticked in the menu as the sidebar draws it. The tree of ticks is the
 * engine's (it draws any document's lines that name rows of a tree); the menu lends it its
 * own order (positions, as the server nests it) and its words (each item's translation
 * key, so the tree reads in the user's language), which the menu item rows alone do not say.
 */
export function MenuItemsTree(props: WidgetProps) {
  const { t } = useTranslation()
  const menu = useMenuTree(useEntity('menu_item'))
  const nodes = useMemo(() => {
    const nodeOf = (item: MenuItemNode): CheckNode => ({ id: item.id, label: labelOf(t, { translate: item.translate, title: item.title || item.translate }), children: item.children.map(nodeOf) })
    return (menu.data ?? []).map(nodeOf)
  }, [menu.data, t])
  return <CheckTreeInput {...props} nodes={nodes} isPending={menu.isPending} error={menu.error} />
}
