import { lazy, Suspense, useState, type ComponentProps } from 'react'

const ImportDialog = lazy(() => import('./ImportDialog').then((m) => ({ default: m.ImportDialog })))

/** The import wizard, loaded the first time it is opened: a list should not pay for it (nor for zod, which reads its answers) before. */
export function LazyImportDialog(props: ComponentProps<typeof ImportDialog>) {
  const [hasOpened, setHasOpened] = useState(props.isOpen)
  if (props.isOpen && !hasOpened) setHasOpened(true)
  if (!hasOpened) return null
  return (
    <Suspense fallback={null}>
      <ImportDialog {...props} />
    </Suspense>
  )
}
