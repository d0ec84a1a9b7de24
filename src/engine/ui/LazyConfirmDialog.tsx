import { lazy, Suspense, useState, type ComponentProps } from 'react'

const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })))

/**
 * The confirmation dialog, loaded the first time it opens: a list screen should not pay
 * for the dialog library before anyone deletes anything.
 */
export function LazyConfirmDialog(props: ComponentProps<typeof ConfirmDialog>) {
  const [hasOpened, setHasOpened] = useState(props.isOpen)
  if (props.isOpen && !hasOpened) setHasOpened(true)
  if (!hasOpened) return null
  return (
    <Suspense fallback={null}>
      <ConfirmDialog {...props} />
    </Suspense>
  )
}
