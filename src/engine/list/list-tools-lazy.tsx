import { lazyTool } from '../ui/lazy-tool'
import type { IconName } from '../ui/icons'
import type { ColumnChooser } from './ColumnChooser'
import type { ExportMenu } from './ExportMenu'
import type { SavedViewsMenu } from './SavedViewsMenu'
import { toolButtonClass, ToolLabel } from './tool-button'

/**
 * The list header's menus — columns, saved views, export — as the list first draws them: their
 * buttons alone, the menus' code (Headless UI, dnd-kit) loaded when a person reaches for one
 * (lazyTool). A list's first rows then come with the list's code and no more.
 */
function toolFace(icon: IconName, label: string, hasChevron = false) {
  return function ToolFace() {
    return (
      <button type="button" className={toolButtonClass} aria-haspopup="true" aria-expanded="false">
        <ToolLabel icon={icon} label={label} hasChevron={hasChevron} />
      </button>
    )
  }
}

export const ColumnChooserTool = lazyTool<Parameters<typeof ColumnChooser>[0]>(() => import('./ColumnChooser').then((m) => m.ColumnChooser), toolFace('columns', 'columns.button'))
export const SavedViewsTool = lazyTool<Parameters<typeof SavedViewsMenu>[0]>(() => import('./SavedViewsMenu').then((m) => m.SavedViewsMenu), toolFace('star', 'views.button'))
export const ExportTool = lazyTool<Parameters<typeof ExportMenu>[0]>(() => import('./ExportMenu').then((m) => m.ExportMenu), toolFace('download', 'export.button', true))
