import { lazy, Suspense, useState, type ComponentProps } from 'react'

const DeleteDialog = lazy(() => import('./DeleteDialog').then((m) => ({ default: m.DeleteDialog })))

/** The delete confirmation, loaded the first time a delete is asked for: a list or a form should not pay for the dialog library before. */
export function LazyDeleteDialog(props: ComponentProps<typeof DeleteDialog>) {
  const [hasOpened, setHasOpened] = useState(props.isOpen)
  if (props.isOpen && !hasOpened) setHasOpened(true)
  if (!hasOpened) return null
  return (
    <Suspense fallback={null}>
      <DeleteDialog {...props} />
    </Suspense>
  )
}
