import { lazy, Suspense, useCallback, useMemo, useRef } from 'react'
import { useAccess } from '../access-context'
import { useEntities } from '../entities-context'
import type { AnyEntity, Row } from '../entity-api'
import { galleriesOf } from './gallery-api'
import type { StagedUpload } from './OwnerGallery'

// Drag and drop comes with the first form that has a gallery, not with every form.
const OwnerGallery = lazy(() => import('./OwnerGallery').then((m) => ({ default: m.OwnerGallery })))

/**
 * The galleries of a record's form: the registry's galleries of its entity that the user may
 * see (to add to a new record, may also create). `uploadStaged` sends, once a new record is
 * saved, the pictures each gallery holds for it, and answers the ones that failed.
 */
export function useOwnerGalleries(owner: AnyEntity, isNew: boolean) {
  const access = useAccess()
  const entities = useEntities()
  const shown = useMemo(
    () => galleriesOf(entities, owner).filter((g) => access.can(g.permissions.LIST) && (!isNew || access.can(g.permissions.CREATE))),
    [entities, owner, access, isNew],
  )
  const staged = useRef(new Map<string, StagedUpload>())
  const uploadStaged = useCallback(async (saved: Row) => {
    const failed: string[] = []
    for (const upload of staged.current.values()) failed.push(...(await upload(saved.id)))
    return failed
  }, [])
  return { shown, staged, uploadStaged }
}

export type OwnerGalleriesState = ReturnType<typeof useOwnerGalleries>

export function OwnerGalleries({ galleries, ownerId }: { galleries: OwnerGalleriesState; ownerId: number | null }) {
  return (
    <>
      {galleries.shown.map((entity) => (
        <Suspense key={entity.name} fallback={<div className="h-40 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />}>
          <OwnerGallery entity={entity} ownerId={ownerId} staged={galleries.staged.current} />
        </Suspense>
      ))}
    </>
  )
}
