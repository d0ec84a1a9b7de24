import { lazy, Suspense } from 'react'
import type { ListController } from './useListController'

// The dialog and its field widgets load when rows are first selected, not with the list.
const BulkUpdateButton = lazy(() => import('./BulkUpdateDialog').then((m) => ({ default: m.BulkUpdateButton })))

/** What can be done with the selected rows besides deleting them (bulk update), in the selection bar. */
export function SelectionTools({ controller }: { controller: ListController }) {
  const target = controller.bulkTarget
  if (!controller.canBulkUpdate || !target) return null
  return (
    <Suspense fallback={null}>
      <BulkUpdateButton entity={controller.entity} target={target} onDone={controller.clearSelection} />
    </Suspense>
  )
}
