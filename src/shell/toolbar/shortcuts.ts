import { useMemo } from 'react'
import { navigationEntries } from '../../../schema/navigation'
import { useEntities, useReports } from '../../engine/entities-context'
import type { NavigationItem } from '../navigation'
import { resolveShortcuts } from '../settings/settings'
import { useSettings } from '../settings/store'

/** The pinned shortcuts of the toolbar (spec §2), read by its star menu and its panel alike. */
export type ShortcutEntry = { id: string; title: string; url: string; icon?: NavigationItem['icon'] }

/** The registry's shortcuts (`nav.shortcut`): a new user's pins, by menu id. */
export function useRegistryShortcuts(): readonly string[] {
  const entities = useEntities()
  const reports = useReports()
  return useMemo(
    () =>
      navigationEntries(entities, reports)
        .filter((e) => e.isShortcut)
        .map((e) => e.menuId),
    [entities, reports],
  )
}

/** The pinned item ids: the user's own, or the registry's until they pin or unpin one. */
export function usePinnedShortcuts(): readonly string[] {
  const { shortcuts } = useSettings()
  const registryShortcuts = useRegistryShortcuts()
  return resolveShortcuts(shortcuts, registryShortcuts)
}

