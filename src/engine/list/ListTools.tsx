import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useAccess } from '../access-context'
import { entityKeys } from '../queries'
import { TrashLink } from '../trash/TrashLink'
import { ExportTool } from './list-tools-lazy'
import { LazyImportDialog } from './ImportDialogLazy'
import { toolButtonClass, ToolLabel } from './tool-button'
import type { ListController } from './useListController'

/**
 * The list header's further tools, beside search, filters and "New": export of the list as
 * it is filtered, searched and sorted (the columns shown), import for those who may create,
 * and the Trash for those who may delete. Each shows only to whom it is open; the server
 * checks the same permissions.
 */
export function ListTools({ controller }: { controller: ListController }) {
  const { entity } = controller
  const access = useAccess()
  const canExport = entity.routes.all !== false && access.canDo(entity, 'LIST')
  const canImport = entity.routes.create !== false && !entity.isLine && access.canDo(entity, 'CREATE')
  return (
    <>
      {canExport && <ExportTool entity={entity} params={controller.params} columns={controller.visibleColumns} />}
      {canImport && <ImportButton controller={controller} />}
      <TrashLink entity={entity} />
    </>
  )
}

function ImportButton({ controller }: { controller: ListController }) {
  const queryClient = useQueryClient()
  const [isOpen, setIsOpen] = useState(false)
  return (
    <>
      <button type="button" className={toolButtonClass} onClick={() => setIsOpen(true)}>
        <ToolLabel icon="upload" label="import.button" />
      </button>
      <LazyImportDialog
        entity={controller.entity}
        isOpen={isOpen}
        onClose={() => setIsOpen(false)}
        onImported={() => void queryClient.invalidateQueries({ queryKey: entityKeys.all(controller.entity.name) })}
      />
    </>
  )
}
