import { useEffect, useRef } from 'react'
import type { AnyEntity } from '../entity-api'
import { GalleryPanel } from './GalleryPanel'
import { useGallery } from './useGallery'

/** Sends a gallery's staged pictures to the record just created; answers the ones that failed. */
export type StagedUpload = (ownerId: number) => Promise<string[]>

/** One gallery of a record's form; it tells the form how to upload what it holds for a new record. */
export function OwnerGallery({ entity, ownerId, staged }: { entity: AnyEntity; ownerId: number | null; staged: Map<string, StagedUpload> }) {
  const gallery = useGallery(entity, ownerId)
  const { uploadStaged } = gallery
  const latest = useRef(uploadStaged)
  latest.current = uploadStaged
  useEffect(() => {
    staged.set(entity.name, (owner) => latest.current(owner))
    return () => {
      staged.delete(entity.name)
    }
  }, [staged, entity.name])
  return <GalleryPanel gallery={gallery} />
}
