import type { ScreenMap } from '../../engine/form/extension'

/** The accounting module's screens, by entity (issue 10): the groups as a list or as the chart's tree. */
export const accountingScreens: ScreenMap = {
  group: { list: () => import('./GroupList').then((m) => m.GroupList) },
}
